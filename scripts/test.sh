#!/usr/bin/env bash
# Install everything the tests need, then run them all (unit, graph, API, e2e with real models,
# PostgreSQL/Redis scale tests, browser tests), then the installed-wheel smoke test
# (scripts/smoke_wheel.sh). Used by the README and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate
python -m pip install -q --upgrade pip >/dev/null
python -m pip install -q -e ".[dev,local-llm,postgres]"
# Browser tests drive Debian's Chromium (never a downloaded browser); CJK fonts for screenshots.
if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi "wenquanyi\|wqy"; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null
  else
    echo "note: install chromium and fonts-wqy-microhei (sudo apt-get install chromium fonts-wqy-microhei) for browser tests" >&2
  fi
fi
# PostgreSQL and Redis: this machine kind starts them; start them if they are installed but down.
if command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -h 127.0.0.1 -q 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
fi
if command -v redis-server >/dev/null 2>&1 && ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
fi
# pgvector for the PostgreSQL-mode tests: Debian 12 has no package, the script builds Debian's
# own source package once (idempotent; a no-op when the extension is enabled already).
bash scripts/install_pgvector.sh || echo "note: pgvector unavailable; its PostgreSQL tests will be skipped" >&2
export OMP_WAIT_POLICY=PASSIVE OMP_NUM_THREADS=1
ruff check src tests
mypy
python -m pytest -q "$@"
# The installed package, as the README's `pip install .` installs it (the editable install above
# cannot see a file missing from the wheel): build the wheel, install it into a fresh virtualenv
# outside the repo, drive the installed `knowzero`. Full runs only (no pytest arguments), as CI runs.
if [ $# -eq 0 ]; then
  bash scripts/smoke_wheel.sh
fi
