"""PostgreSQL fixtures for the scale tests: each test gets its own throw-away database."""

import uuid

import pytest

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"


def _pg_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(ADMIN_URL, connect_timeout=3):
            return True
    except Exception:
        return False


@pytest.fixture()
def pg_url():
    if not _pg_available():
        pytest.skip("PostgreSQL is not running at 127.0.0.1:5432")
    import psycopg

    name = f"kz_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    # engines are owned by the containers that made them; FORCE ends their connections
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
