#!/bin/bash
# tests/bench/rounds.sh OUTDIR K BIN... — K rounds of load.mjs for several servers, alternating:
# in each round every BIN runs `--only 1x8,100x8` and then `--only idle` (TABLED_BIN=BIN, the same
# client and relay of ./build), each run's JSON kept in OUTDIR; then, per server and figure, each
# run's ratio to the relay of the same run and their median. Timings on a shared machine move by
# ±10 % from run to run: read medians of alternating rounds, not one run.
set -e
OUT=$1 K=$2
shift 2
[ -n "$OUT" ] && [ -n "$K" ] && [ $# -gt 0 ] || { echo "usage: $0 OUTDIR K BIN..." >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
for r in $(seq "$K"); do
  i=0
  for b in "$@"; do
    i=$((i + 1))
    for only in 1x8,100x8 idle; do
      TABLED_BIN=$b nice node "$root/tests/bench/load.mjs" --no-build --sync normal --only $only \
        --json "$OUT/$only-$i-$r.json" > "$OUT/$only-$i-$r.txt" 2>&1
    done
  done
done
python3 - "$OUT" "$@" <<'PY'
import glob, json, re, statistics, sys
out, bins = sys.argv[1], sys.argv[2:]
rows = {}
for f in sorted(glob.glob(out + '/*.json')):
    i = int(re.search(r'-(\d+)-\d+\.json$', f).group(1))
    for r in json.load(open(f))['results']:
        if r.get('tabled') is not None and r.get('floor'):
            rows.setdefault((i, r['scenario'], r['figure']), []).append((r['tabled'], r['tabled'] / r['floor']))
for (i, sc, fig), v in sorted(rows.items()):
    print(f"{bins[i - 1]} | {sc} | {fig} | ratios {' / '.join(f'{x[1]:.2f}' for x in v)} | "
          f"median ratio {statistics.median(x[1] for x in v):.2f} | median {statistics.median(x[0] for x in v):.4g}")
PY
