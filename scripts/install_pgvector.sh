#!/usr/bin/env bash
# Install pgvector into the local PostgreSQL and enable it in a database (idempotent).
#
# Debian 12 packages no pgvector for its PostgreSQL 15, but Debian's own pgvector source package
# (0.8.0, in trixie's source lists) builds against postgresql-server-dev-<major> in seconds:
# add a deb-src list for trixie, `apt-get source pgvector`, `make && make install`, then
# `CREATE EXTENSION vector`. Nothing is done when the extension is already installed and enabled.
# Building needs root (apt, make install); enabling only needs a superuser connection.
#
#   scripts/install_pgvector.sh [DATABASE_URL]    # default postgresql://postgres@127.0.0.1:5432/test
set -euo pipefail
DB_URL=${1:-${KNOWZERO_PGVECTOR_DB:-postgresql://postgres@127.0.0.1:5432/test}}

if ! psql "$DB_URL" -Atqc "SELECT 1" >/dev/null 2>&1; then
  echo "install_pgvector: PostgreSQL is not reachable at $DB_URL; skipped" >&2
  exit 0
fi
if [ "$(psql "$DB_URL" -Atqc "SELECT count(*) FROM pg_extension WHERE extname = 'vector'")" = "1" ]; then
  echo "install_pgvector: vector $(psql "$DB_URL" -Atqc "SELECT extversion FROM pg_extension WHERE extname = 'vector'") already enabled"
  exit 0
fi
MAJOR=$(( $(psql "$DB_URL" -Atqc "SHOW server_version_num") / 10000 ))
SHARE=$(psql "$DB_URL" -Atqc "SELECT setting FROM pg_config WHERE name = 'SHAREDIR'" 2>/dev/null \
        || echo "/usr/share/postgresql/$MAJOR")
if [ ! -f "$SHARE/extension/vector.control" ]; then
  if [ "$(id -u)" != "0" ]; then
    echo "install_pgvector: pgvector is not installed and this is not root: run this script as root once" >&2
    exit 1
  fi
  LIST=/etc/apt/sources.list.d/knowzero-trixie-src.sources
  if [ ! -f "$LIST" ]; then
    cat > "$LIST" <<'EOF'
# Source packages only (pgvector for scripts/install_pgvector.sh); no binary package comes from here.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "postgresql-server-dev-$MAJOR" dpkg-dev make gcc >/dev/null
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  (cd "$WORK" && apt-get source -qq pgvector >/dev/null 2>&1)
  SRC=$(find "$WORK" -maxdepth 1 -type d -name 'pgvector-*' | head -1)
  [ -n "$SRC" ] || { echo "install_pgvector: apt-get source pgvector found nothing" >&2; exit 1; }
  PG_CONFIG="/usr/lib/postgresql/$MAJOR/bin/pg_config"
  make -s -C "$SRC" PG_CONFIG="$PG_CONFIG" >/dev/null
  make -s -C "$SRC" PG_CONFIG="$PG_CONFIG" install >/dev/null
  echo "install_pgvector: built and installed $(basename "$SRC") for PostgreSQL $MAJOR"
fi
psql "$DB_URL" -qc "CREATE EXTENSION IF NOT EXISTS vector" >/dev/null
echo "install_pgvector: vector $(psql "$DB_URL" -Atqc "SELECT extversion FROM pg_extension WHERE extname = 'vector'") enabled in ${DB_URL##*/}"
