"""The OpenAPI document declares how to authenticate (so /docs has an Authorize button) and, for
every operation, who may call it and every error status it can return, each with the one error
shape (issue 10, finding 9). The fuzzer (test_fuzz_openapi.py) checks the app keeps to it."""

from __future__ import annotations

import pytest

from knowzero.api.app import create_app
from knowzero.config import Settings


@pytest.fixture(scope="module")
def schema(tmp_path_factory):  # type: ignore[no-untyped-def]
    return create_app(Settings(data_dir=tmp_path_factory.mktemp("oas")), warm=False).openapi()


def operations(schema):  # type: ignore[no-untyped-def]
    for path, item in schema["paths"].items():
        for method, op in item.items():
            yield method.upper(), path, op


def test_security_schemes_are_declared(schema):
    schemes = schema["components"]["securitySchemes"]
    assert schemes["bearer"] == {"type": "http", "scheme": "bearer", "description": schemes["bearer"]["description"]}
    assert (schemes["apiKey"]["in"], schemes["apiKey"]["name"]) == ("header", "X-API-Key")
    assert (schemes["clientId"]["in"], schemes["clientId"]["name"]) == ("header", "X-Client-Id")


def test_every_operation_declares_who_may_call_it_and_every_error(schema):
    err = "#/components/schemas/ErrorBody"
    assert set(schema["components"]["schemas"]["ErrorBody"]["properties"]) == {"error"}
    seen = 0
    for method, path, op in operations(schema):
        seen += 1
        policy = op["x-access"]
        where = f"{method} {path}"
        assert policy["who"] in ("anyone", "signed_in", "kb_writer", "staff", "admin"), where
        if policy["who"] == "anyone":
            assert {} in op["security"] and {"clientId": []} in op["security"], where
        else:
            assert op["security"] == [{"bearer": []}, {"apiKey": []}], where
        statuses = set(op["responses"])
        want = {"401", "422"} | ({"403"} if policy["who"] in ("kb_writer", "staff", "admin") else set()) \
            | ({"404"} if policy.get("owns") else set()) | ({"429"} if policy["limited"] else set())
        assert want <= statuses, (where, statuses)
        for status in statuses - {"200"}:
            body = op["responses"][status]["content"]["application/json"]["schema"]
            assert body == {"$ref": err}, (where, status, body)
        if policy["limited"]:
            assert "Retry-After" in op["responses"]["429"]["headers"], where
        if policy["who"] == "anyone" and method.lower() not in ("get", "head"):
            # every write an anonymous caller can make is rate limited (issue 25: an unlimited
            # anonymous POST /v1/feedback could be sent as fast as the server parsed it)
            assert policy["limited"] in (True, "write"), where
    assert seen >= 42
    assert "HTTPValidationError" not in schema["components"]["schemas"]


def test_turns_declare_both_of_their_answers(schema):
    for path in ("/v1/chat", "/v1/chat/completions"):
        content = schema["paths"][path]["post"]["responses"]["200"]["content"]
        assert set(content) == {"text/event-stream", "application/json"}, path


def test_the_rules_of_a_turn_are_in_its_schema(schema):
    """A client (or the fuzzer) reading the schema sends what is accepted: a chat input needs a message."""
    body = schema["paths"]["/v1/chat"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert any(b.get("required") == ["resume", "thread_id"] for b in body["anyOf"])
    assert any(b.get("properties", {}).get("message", {}).get("pattern") == r"\S" for b in body["anyOf"])


async def test_docs_page_offers_authorize(tmp_path):
    from kz_testlib import api_client

    async with api_client(tmp_path / "kz") as client:
        page = await client.get("/docs")
        assert page.status_code == 200 and "swagger-ui" in page.text
        assert (await client.get("/openapi.json")).json()["components"]["securitySchemes"]
