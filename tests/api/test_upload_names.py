"""Upload names that lose their folders never silently become another document (outside review 1,
finding 12): ``/etc/cron.d/x.csv`` and ``..\\..\\x.csv`` are both ``uploads/x.csv``."""

from __future__ import annotations

import pytest

from knowzero.service.identity import announce_keys
from kz_testlib import api_client

EDITOR = {"Authorization": "Bearer demo-editor"}
CSV_A = "零件,公差\n零件A,±0.01mm\n".encode()
CSV_B = "零件,公差\n零件B,±0.05mm\n".encode()


@pytest.fixture()
async def api(tmp_path):
    async with api_client(tmp_path / "data", demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        yield client


async def _upload(api, *files: tuple[str, bytes]):
    return await api.post("/v1/kb/upload", headers=EDITOR, data={"collection": "uploads"},
                          files=[("files", (name, data, "text/csv")) for name, data in files])


async def test_a_flattened_name_says_so_and_never_replaces_another_document(api):
    first = await _upload(api, ("/etc/cron.d/x.csv", CSV_A))
    assert first.status_code == 200, first.text
    result = first.json()["results"][0]
    assert (result["file"], result["submitted_as"]) == ("x.csv", "/etc/cron.d/x.csv")
    second = await _upload(api, ("..\\..\\x.csv", CSV_B))
    assert second.status_code == 409, second.text
    err = second.json()["error"]
    assert err["details"] == [{"rule": "name_taken", "name": "uploads/x.csv", "files": ["..\\..\\x.csv"]}]
    assert "uploads/x.csv is already stored" in err["message"]
    source = await api.get("/v1/kb/source", params={"path": "uploads/x.csv"})
    assert "零件A" in source.text and "零件B" not in source.text  # the first document is untouched
    # the way to replace it on purpose: upload it under its stored name
    again = await _upload(api, ("x.csv", CSV_B))
    assert again.status_code == 200 and again.json()["results"][0]["updated"] == ["uploads/x.csv"], again.text
    assert "submitted_as" not in again.json()["results"][0]


async def test_two_files_of_one_upload_with_the_same_stored_name(api):
    r = await _upload(api, ("a/y.csv", CSV_A), ("b/y.csv", CSV_B))
    assert r.status_code == 409, r.text
    assert r.json()["error"]["details"] == [{"rule": "duplicate_name", "name": "uploads/y.csv",
                                             "files": ["a/y.csv", "b/y.csv"]}]
    files = (await api.get("/v1/kb/files")).json()["files"]
    assert not any(f["path"] == "uploads/y.csv" for f in files)  # nothing was ingested
