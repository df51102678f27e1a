"""The OpenAPI fuzzer in CI (issue 10, finding 9): schemathesis generates requests from
``/openapi.json`` — requests the schema says are valid and requests it says are invalid (Hypothesis
strategies from schemathesis, which lean on boundary values) — against the in-process app (ASGI, no network) on a private copy of the demo
knowledge base, as three callers: anonymous (no API key, no client id), a customer and an admin.

Every response must be: never a server error (5xx); a status the route declares, with the body
and headers it declares (the one error shape for every error); a 2xx for a request the schema
says is valid; a 4xx for one it says is invalid. The seed is fixed and the example count bounded
(``FUZZ_EXAMPLES`` valid and as many invalid requests per operation; ``KNOWZERO_FUZZ_EXAMPLES``
raises it for a longer local run), so a run is reproducible and takes a few minutes on two cores.
A longer run with schemathesis's CLI (its coverage and stateful phases, against ``knowzero serve``)
found the last two schema gaps fixed here; the CLI is not needed in CI. The counts are printed at the end of the module (``pytest -s``) and written to
``fuzz-counts.json`` in the test's temporary directory.

Requests the fuzzer found that once answered 500 are pinned separately (tests/api/test_bad_input.py),
so they stay fixed even if a later schemathesis generates other values.
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from kz_testlib import copy_data_dir, knowzero_env, make_deps

pytestmark = pytest.mark.slow

FUZZ_SEED = 20261130
FUZZ_EXAMPLES = int(os.environ.get("KNOWZERO_FUZZ_EXAMPLES", "10"))
IDENTITIES = {"anonymous": {}, "customer": {"Authorization": "Bearer demo-alice"},
              "admin": {"Authorization": "Bearer demo-admin"}}
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance, negative_data_rejection, positive_data_acceptance]
COUNTS: dict[str, Counter[str]] = {who: Counter() for who in IDENTITIES}


@pytest.fixture(scope="module")
def fuzz_app(demo_data_dir, tmp_path_factory):  # type: ignore[no-untyped-def]
    from knowzero.api.app import create_app
    from knowzero.config import Settings
    from knowzero.service.identity import announce_keys

    data = copy_data_dir(demo_data_dir, tmp_path_factory.mktemp("fuzz") / "kz")
    # Rate limits off: the fuzzer sends hundreds of anonymous requests a minute (the limits have their own test).
    with knowzero_env(data_dir=str(data), env="test", demo_keys="1", anon_rate_limit="", anon_ip_rate_limit="", anon_write_rate_limit=""):
        deps = make_deps(Settings())
        announce_keys(deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        app = create_app(deps.settings, warm=False, deps=deps)
        yield app
        asgi.shutdown_lifespans()  # schemathesis started the app's lifespan on its own event loop
    out = data.parent / "fuzz-counts.json"
    out.write_text(json.dumps({w: dict(c) for w, c in COUNTS.items()}, indent=1))
    print("\nfuzz counts (examples, 5xx, other failures) per identity:",
          json.dumps({w: dict(c) for w, c in COUNTS.items()}))


@pytest.fixture(scope="module")
def fuzz_schema(fuzz_app):  # type: ignore[no-untyped-def]
    return schemathesis.openapi.from_asgi("/openapi.json", fuzz_app)


def _fuzz_operation(operation, who: str, failures: list[str]) -> None:  # type: ignore[no-untyped-def]
    """``FUZZ_EXAMPLES`` valid and ``FUZZ_EXAMPLES`` invalid requests to one operation as ``who``."""
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        failures.extend(_fuzz_mode(operation, who, mode))


def _fuzz_mode(operation, who: str, mode: GenerationMode) -> list[str]:  # type: ignore[no-untyped-def]
    found: list[str] = []

    @seed(FUZZ_SEED)
    @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case) -> None:  # type: ignore[no-untyped-def]
        COUNTS[who]["examples"] += 1
        response = case.call(headers=IDENTITIES[who], timeout=120)
        if response.status_code >= 500:
            COUNTS[who]["server_errors"] += 1
        try:
            case.validate_response(response, checks=CHECKS, headers=IDENTITIES[who])
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - failures (an exception group) are collected, reported below
            COUNTS[who]["failures"] += 1
            if len(found) < 2:
                found.append(f"{operation.label} ({mode}) as {who}: {str(exc)[:600]}\n  -> {case.as_curl_command()[:600]}")

    try:
        run()
    except Unsatisfiable:
        assert mode == GenerationMode.NEGATIVE, operation.label  # nothing to make invalid (no parameters)
    return found


@pytest.mark.parametrize("who", list(IDENTITIES))
def test_fuzz_openapi(fuzz_schema, who: str) -> None:
    failures: list[str] = []
    operations = [r.ok() for r in fuzz_schema.get_all_operations()]
    assert len(operations) >= 40, len(operations)
    for operation in operations:
        _fuzz_operation(operation, who, failures)
    assert not failures, f"{len(failures)} failing operations:\n" + "\n\n".join(failures)
    assert COUNTS[who]["server_errors"] == 0
