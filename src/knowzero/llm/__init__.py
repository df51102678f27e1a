"""Chat providers: none (default) | OpenAI-compatible HTTP | local GGUF (optional extra)."""

from knowzero.llm.base import ChatProvider

__all__ = ["ChatProvider"]
