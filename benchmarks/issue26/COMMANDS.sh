#!/usr/bin/env bash
# Paired eval baseline for KnowZero.  Re-run on another worktree into another directory:
#
#     bash benchmarks/issue26/COMMANDS.sh  <WORKTREE>  <OUT_DIR>    # a checkout of the commit to measure
#     python3 benchmarks/issue26/compare.py <BEFORE_DIR> <OUT_DIR>
#
# Every command runs with the worktree's own source (PYTHONPATH=$WT/src) and $PY (default: python), in
# embedded mode, offline (KNOWZERO_LLM_PROVIDER=none, the default anyway), PYTHONHASHSEED=0, and, where the
# command has --data-dir, a fresh data dir $OUT/data/<name> (deleted and recreated first).  At most
# $MAXJOBS (default 2) commands run at once.  Per command: $OUT/<name>.json (the last stdout line),
# $OUT/<name>.rows.jsonl where --rows exists, $OUT/logs/<name>.{cmd,stdout,stderr}, and a line in
# $OUT/times.tsv (name, exit code, wall seconds, start, end).  Only selected names: ONLY="a b c" bash COMMANDS.sh …
set -u
WT=$(cd "${1:?a checkout to measure}" && pwd)
OUT=${2:?an output directory}
MAXJOBS=${MAXJOBS:-2}
E=${E:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/eval-data}   # ../shared/eval-data beside the repo
PY=${PY:-python}
KZ=(env PYTHONPATH="$WT/src" PYTHONHASHSEED=0 KNOWZERO_LLM_PROVIDER=none KZ_EVAL_DATA="$E" "$PY" -c 'import sys; sys.argv[0] = "knowzero"; from knowzero.entry import main; sys.exit(main())')

mkdir -p "$OUT/logs" "$OUT/data"
[ -f "$OUT/times.tsv" ] || printf 'name\trc\twall_s\tstart\tend\n' > "$OUT/times.tsv"
{ echo "worktree=$WT"; echo "out=$OUT"; echo "commit=$(git -C "$WT" rev-parse HEAD)";
  echo "dirty=$(git -C "$WT" status --porcelain | wc -l)"; echo "started=$(date -Is)"; } > "$OUT/RUN_INFO.txt"

selected() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

# run NAME CWD ARGS...   (ARGS are the knowzero arguments; {DATA} -> the fresh data dir, {ROWS} -> the rows file)
run() {
    local name=$1 cwd=$2; shift 2
    selected "$name" || return 0
    while (( $(jobs -rp | wc -l) >= MAXJOBS )); do wait -n; done
    local data="$OUT/data/$name" rows="$OUT/$name.rows.jsonl" args=() a
    for a in "$@"; do a=${a//\{DATA\}/$data}; a=${a//\{ROWS\}/$rows}; args+=("$a"); done
    rm -rf "$data" "$rows" "$OUT/$name.json"; mkdir -p "$data"
    [ "$cwd" = DATA ] && cwd=$data
    printf '%q ' cd "$cwd" '&&' "${KZ[@]}" "${args[@]}" > "$OUT/logs/$name.cmd"; echo >> "$OUT/logs/$name.cmd"
    (
        cd "$cwd" || exit 1
        s=$(date +%s.%N); si=$(date -Is)
        "${KZ[@]}" "${args[@]}" > "$OUT/logs/$name.stdout" 2> "$OUT/logs/$name.stderr" < /dev/null
        rc=$?
        e=$(date +%s.%N)
        tail -n 1 "$OUT/logs/$name.stdout" > "$OUT/$name.json"
        printf '%s\t%s\t%.1f\t%s\t%s\n' "$name" "$rc" "$(echo "$e - $s" | bc)" "$si" "$(date -Is)" >> "$OUT/times.tsv"
        echo "[$(date +%T)] done $name rc=$rc" >&2
    ) &
    echo "[$(date +%T)] started $name" >&2
}

# ---- longest first ------------------------------------------------------------------------------------
run knowledge_drcd "$WT" eval knowledge --squad "$E/drcd/DRCD_dev.json" --limit 200 --unanswerable-share 0.2 \
    --negatives random --seeds 3 --json --data-dir {DATA} --rows {ROWS}
run knowledge_cmrc "$WT" eval knowledge --squad "$E/cmrc2018/cmrc2018_trial.json" --limit 300 --unanswerable-share 0.2 \
    --negatives random --seeds 3 --json --data-dir {DATA} --rows {ROWS}
run conflicts_drcd "$WT" eval conflicts --squad "$E/drcd/DRCD_dev.json" --limit 100 --seed 3 --json \
    --data-dir {DATA} --rows {ROWS}
run conflicts_cmrc "$WT" eval conflicts --squad "$E/cmrc2018/cmrc2018_trial.json" --limit 100 --seed 3 --json \
    --data-dir {DATA} --rows {ROWS}
# learning has no --data-dir: it keeps its knowledge bases in ./.knowzero/eval/, so it runs with the fresh
# data dir as its cwd (KZ_EVAL_DATA gives it the CMRC/DRCD comment pool, = ../shared/eval-data of a checkout)
run learning DATA eval learning --json
run documents "$WT" eval documents --dir "$WT/tests/data/orgdocs" --split all --collections both --json \
    --data-dir {DATA} --rows {ROWS}
run routing_clinc "$WT" eval routing --clinc "$E/clinc150/clinc150_dev.json" --train-split train --test-split val \
    --threshold-protocol val-halves --seeds 0,1,2,3,4,5,6,7,8,9 --no-peer --json
run routing_product "$WT" eval routing --product "$WT/tests/data/routing/product_dev.jsonl" --json
run routing_smp "$WT" eval routing --jsonl-train "$E/smp2017-ecdt-task1/train.jsonl" \
    --jsonl-test "$E/smp2017-ecdt-task1/develop.jsonl" --no-peer --json
run factcheck_para_cmrc "$WT" eval factcheck --paraphrase "$E/cmrc2018/cmrc2018_trial.json" --limit 300 --json --rows {ROWS}
run factcheck_para_drcd "$WT" eval factcheck --paraphrase "$E/drcd/DRCD_dev.json" --limit 300 --json --rows {ROWS}
run factcheck_halu_one "$WT" eval factcheck --halueval "$E/halueval/qa_one-turn_data_dev.jsonl" --json --rows {ROWS}
run factcheck_halu_multi "$WT" eval factcheck --halueval "$E/halueval/qa_multi-turn_data_dev.jsonl" --json --rows {ROWS}
run service "$WT" eval service --crosswoz "$E/crosswoz/val.json.zip" --json
run knowledge_demo "$WT" eval knowledge --demo --json --data-dir {DATA} --rows {ROWS}
wait
echo "finished=$(date -Is)" >> "$OUT/RUN_INFO.txt"
