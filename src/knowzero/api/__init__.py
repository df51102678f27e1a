"""HTTP API: create_app(), routes per resource, the SSE event contract."""
