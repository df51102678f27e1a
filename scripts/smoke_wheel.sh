#!/usr/bin/env bash
# Smoke test of the *installed* package, the way the README's `pip install .` installs it.
#
# Builds the wheel from a copy of the tree, installs it (not editable) into a fresh virtualenv in a
# temp directory outside the repository, then, from a directory outside the repository, with a clean
# environment and fresh data directories, drives the installed `knowzero`:
#   serve (waits for /healthz) -> POST /v1/chat "你好" -> GET / and its assets -> stop,
#   then `knowzero ask … --json` and `knowzero learn "CNC维护"`.
# Prints PASS/FAIL per step; exits non-zero at the first failure (with the step's log tail).
# It checks that the installed package has everything it needs, not answer quality (pytest does).
#
#   bash scripts/smoke_wheel.sh        # KZ_SMOKE_KEEP=1 keeps the temp directory and its logs
# Needs network access to PyPI or a warm pip cache (the build backend and the dependencies).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kz-smoke.XXXXXX")
VENV="$WORK/venv"
RUN="$WORK/run"              # the working directory of every installed command
SERVER_PID=""
START=$SECONDS

stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}

cleanup() {
  local rc=$?
  stop_server
  if [ -n "${KZ_SMOKE_KEEP:-}" ]; then
    echo "smoke: kept $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

pass() { printf 'PASS  %4ds  %s\n' "$((SECONDS - START))" "$1"; }
fail() {
  printf 'FAIL  %4ds  %s\n' "$((SECONDS - START))" "$1" >&2
  local f
  for f in "${2:-}" "${2:-}.err"; do
    if [ -n "$f" ] && [ -s "$f" ]; then tail -n 40 "$f" | sed 's/^/      /' >&2; fi
  done
  if [ -n "$SERVER_PID" ] && [ "${2:-}" != "$WORK/serve.log" ] && [ -s "$WORK/serve.log" ]; then
    echo "      --- knowzero serve log:" >&2
    tail -n 40 "$WORK/serve.log" | sed 's/^/      /' >&2
  fi
  exit 1
}
# step NAME LOG COMMAND…: run COMMAND, stdout in LOG and stderr in LOG.err; PASS or FAIL (and stop).
step() {
  local name=$1 log=$2
  shift 2
  if "$@" >"$log" 2>"$log.err"; then pass "$name"; else fail "$name" "$log"; fi
}
# A clean environment, as a new user's shell: no PYTHONPATH or KNOWZERO_* from the caller, the fresh
# virtualenv first on PATH. Every installed command runs in $RUN, outside the repository.
CLEAN_ENV=(env -i HOME="$HOME" PATH="$VENV/bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 TMPDIR="${TMPDIR:-/tmp}"
           OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}")
# kz DATA_DIR COMMAND…: an installed command with that data directory.
kz() {
  local data=$1
  shift
  "${CLEAN_ENV[@]}" KNOWZERO_DATA_DIR="$data" "$@"
}

case "$WORK/" in "$REPO"/*) fail "temp directory $WORK is inside the repository";; esac
mkdir -p "$RUN" "$WORK/src/src" "$WORK/dist"
echo "smoke: installed-package test in $WORK"

# 1. A fresh virtualenv and the wheel, built from a clean copy (an in-tree build reuses build/).
step "fresh virtualenv" "$WORK/venv.log" "$PY" -m venv "$VENV"
VPY="$VENV/bin/python"
cp "$REPO/pyproject.toml" "$REPO/README.md" "$WORK/src/"
cp -r "$REPO/src/knowzero" "$WORK/src/src/"
find "$WORK/src" -name __pycache__ -type d -prune -exec rm -rf {} +
step "build the wheel" "$WORK/build.log" \
  "$VPY" -m pip wheel --no-deps --disable-pip-version-check -q -w "$WORK/dist" "$WORK/src"
WHEEL=$(ls "$WORK"/dist/knowzero-*.whl)
# --no-compile: bytecode is written on first import instead (saves ~30 s of a ~90 s run).
step "install the wheel (not editable)" "$WORK/install.log" \
  "$VPY" -m pip install --disable-pip-version-check --no-compile -q "$WHEEL"
cd "$RUN"
step "knowzero is the installed copy" "$WORK/which.log" kz "$WORK/data-none" \
  python -c "import sys, knowzero; p = knowzero.__file__; print(p); sys.exit(not p.startswith('$VENV/'))"

# 2. The server on a free loopback port with a fresh data directory.
PORT=$("$VPY" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
BASE="http://127.0.0.1:$PORT"
# A simple command in the background (not a function or subshell): $! is the server itself.
"${CLEAN_ENV[@]}" KNOWZERO_DATA_DIR="$WORK/data-serve" knowzero serve --host 127.0.0.1 --port "$PORT" \
  >"$WORK/serve.log" 2>&1 &
SERVER_PID=$!
wait_healthy() {
  local deadline=$((SECONDS + ${KZ_SMOKE_START_TIMEOUT:-180}))
  while [ "$SECONDS" -lt "$deadline" ]; do
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "knowzero serve exited"; return 1; }
    "$VPY" -c "import urllib.request as u; u.urlopen('$BASE/healthz', timeout=2)" 2>/dev/null && return 0
    sleep 0.5
  done
  echo "no /healthz within ${KZ_SMOKE_START_TIMEOUT:-180}s"
  return 1
}
if wait_healthy >>"$WORK/serve.log" 2>&1; then pass "knowzero serve: /healthz"; else fail "knowzero serve: /healthz" "$WORK/serve.log"; fi

# HTTP checks in Python (stdlib only, the fresh virtualenv's interpreter).
cat >"$WORK/check.py" <<'PY'
import json, re, sys, urllib.request

def get(url):
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.status, r.headers.get("content-type", ""), r.read()

what, arg = sys.argv[1], sys.argv[2]
if what == "chat":  # POST /v1/chat, one JSON body: no error, a non-empty reply
    req = urllib.request.Request(arg + "/v1/chat", method="POST", headers={"Content-Type": "application/json"},
                                 data=json.dumps({"source": "chat", "message": "你好", "stream": False}).encode())
    with urllib.request.urlopen(req, timeout=120) as r:
        body = json.loads(r.read())
    print(json.dumps({k: body.get(k) for k in ("reply", "intent", "error")}, ensure_ascii=False))
    assert not body.get("error"), f"the turn failed: {body.get('error')}"
    assert (body.get("reply") or "").strip(), "empty reply"
elif what == "web":  # GET / is the web page; every /assets/ file it links loads
    status, ctype, html = get(arg + "/")
    assert status == 200 and ctype.startswith("text/html"), (status, ctype)
    assets = sorted(set(re.findall(r'(?:src|href)="(/assets/[^"]+)"', html.decode())))
    assert assets, "the page links no /assets/ files"
    for a in assets:
        status, ctype, data = get(arg + a)
        print(a, status, ctype, len(data))
        assert status == 200 and data, a
elif what == "ask":  # the last stdout line of `knowzero ask --json` is one JSON object
    lines = open(arg, encoding="utf-8").read().strip().splitlines()
    out = json.loads(lines[-1])
    print(json.dumps({k: out.get(k) for k in ("answer", "verdict")}, ensure_ascii=False))
    assert out.get("answer", "").strip() and out.get("citations"), "no answer or no citations"
elif what == "learn":  # a Markdown document about the topic
    text = open(arg, encoding="utf-8").read()
    print(text[:300])
    assert text.lstrip().startswith("#") and "CNC" in text, "not a learning document"
PY
step "POST /v1/chat 你好 (no error, a reply)" "$WORK/chat.log" "$VPY" "$WORK/check.py" chat "$BASE"
step "GET / (web page and its assets)" "$WORK/web.log" "$VPY" "$WORK/check.py" web "$BASE"
stop_server
if "$VPY" -c "import urllib.request as u; u.urlopen('$BASE/healthz', timeout=2)" 2>/dev/null; then
  fail "server stopped (something still answers on $BASE)"
fi
pass "server stopped"

# 3. The CLI with another fresh data directory (the first run ingests the bundled demo KB).
step "knowzero ask … --json" "$WORK/ask.log" kz "$WORK/data-cli" knowzero ask "零件A的公差是多少？" --json
step "ask: an answer with citations" "$WORK/ask.check" "$VPY" "$WORK/check.py" ask "$WORK/ask.log"
step "knowzero learn CNC维护" "$WORK/learn.log" kz "$WORK/data-cli" knowzero learn "CNC维护"
step "learn: a learning document" "$WORK/learn.check" "$VPY" "$WORK/check.py" learn "$WORK/learn.log"

echo "smoke: all steps passed in $((SECONDS - START))s"
