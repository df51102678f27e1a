#!/bin/bash
# paired before/after, three rounds alternating
OUT=/tmp/b30/paired; mkdir -p $OUT
PG="--database-url postgresql+psycopg://postgres@127.0.0.1:5432/test --redis-url redis://127.0.0.1:6379/0"
for r in 1 2 3; do
  for v in before after; do
    PYTHONPATH=/tmp/kz-$v/src /work/main/.venv/bin/python -m knowzero.cli bench load --sessions 50 --turns 4 --workers 1 --json > $OUT/sqlite_${v}_$r.json 2>$OUT/sqlite_${v}_$r.err
    PYTHONPATH=/tmp/kz-$v/src /work/main/.venv/bin/python -m knowzero.cli bench load --sessions 50 --turns 4 --workers 1,2 --json $PG > $OUT/pg_${v}_$r.json 2>$OUT/pg_${v}_$r.err
  done
done
echo done > $OUT/ALL_DONE
