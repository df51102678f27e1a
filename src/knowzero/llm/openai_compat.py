"""OpenAI-compatible chat over HTTP (vLLM, Ollama, DeepSeek, Qwen, OpenAI, our local server)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx

from knowzero.errors import ProviderError


class OpenAICompatProvider:
    """POST {base_url}/chat/completions; errors become ProviderError.

    >>> p = OpenAICompatProvider("http://127.0.0.1:8080/v1", "qwen")
    >>> p.chat([{"role": "user", "content": "hi"}])
    """

    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout: float = 30.0) -> None:
        if not base_url:
            raise ValueError("base_url is required")
        self.base_url = base_url.rstrip("/")
        self.model = model
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "max_tokens": max_tokens,
                                "temperature": 0}
        if json_schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "answer", "schema": json_schema}}
        try:
            resp = self._client.post(f"{self.base_url}/chat/completions", json=body)
        except httpx.TimeoutException as exc:
            raise ProviderError("the language model timed out") from exc
        except httpx.HTTPError as exc:
            raise ProviderError("the language model could not be reached") from exc
        if resp.status_code >= 400:
            raise ProviderError(f"the language model answered HTTP {resp.status_code}")
        try:
            return str(resp.json()["choices"][0]["message"]["content"] or "")
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ProviderError("the language model's response was malformed") from exc

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int = 512) -> Iterator[str]:
        """The reply's text as the server streams it (``"stream": true``, server-sent ``data:`` lines).
        Raises ProviderError; the caller bounds the whole call with a deadline."""
        body = {"model": self.model, "messages": messages, "max_tokens": max_tokens, "temperature": 0, "stream": True}
        try:
            with self._client.stream("POST", f"{self.base_url}/chat/completions", json=body) as resp:
                if resp.status_code >= 400:
                    raise ProviderError(f"the language model answered HTTP {resp.status_code}")
                for line in resp.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        return
                    try:
                        delta = json.loads(data)["choices"][0].get("delta") or {}
                    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
                        raise ProviderError("the language model's stream was malformed") from exc
                    if delta.get("content"):
                        yield str(delta["content"])
        except httpx.TimeoutException as exc:
            raise ProviderError("the language model timed out") from exc
        except httpx.HTTPError as exc:
            raise ProviderError("the language model could not be reached") from exc
