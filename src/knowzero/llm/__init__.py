"""Chat providers: none (default) | OpenAI-compatible HTTP | local GGUF (optional extra)."""

from knowzero.llm.base import ChatProvider, get_provider

__all__ = ["ChatProvider", "get_provider"]
