"""Which chat provider a configuration asks for: none (offline) | OpenAI-compatible HTTP | local GGUF.

The dependency container calls :func:`build_provider` once per process; nothing caches it here.
Building a local provider does not load the model (that happens on its first call).
"""

from __future__ import annotations

from knowzero.config import Settings
from knowzero.llm.base import ChatProvider
from knowzero.llm.local import LocalGGUFProvider
from knowzero.llm.openai_compat import OpenAICompatProvider


def build_provider(s: Settings) -> ChatProvider | None:
    """The provider ``s`` configures, or None (the offline default)."""
    if s.llm_provider == "openai":
        return openai_provider(s, s.llm_base_url, s.llm_model, s.llm_api_key)
    if s.llm_provider == "local":
        return LocalGGUFProvider(s.llm_local_model_path or None, cache_dir=s.data_path() / "models")
    return None


def openai_provider(s: Settings, base_url: str, model: str, api_key: str) -> OpenAICompatProvider:
    """An OpenAI-compatible provider with this process's deadline and cool-down (the environment's model and
    the one saved on the Settings page are built alike)."""
    return OpenAICompatProvider(base_url, model, api_key, timeout=s.llm_timeout_s, cooldown_s=s.llm_cooldown_s)
