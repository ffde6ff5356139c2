#!/bin/sh
# scan_speed.sh -- how fast `gsan scan` analyses a large CUDA file.
# Run by `make bench-scan` as: sh bench/scan_speed.sh [BUILD_DIR]
#
# 1. bench/scan_gen.py writes a CUDA file of at least LINES lines (copies of the
#    patterns gsan scan models: element-wise kernels guarded and not, a tiled
#    matrix multiply, a 2D copy with a 32-bit index, a stencil and a reduction,
#    graph kernels with data-dependent indices, dynamic shared partitions, local
#    arrays, grid-stride loops; each with the host function that allocates,
#    launches, copies and frees);
# 2. times `gsan-scan` on it RUNS times and takes the median;
# 3. writes docs/results/scan-speed.md and prints the result.
#
# Environment: LINES (default 5000), RUNS (default 3), RESULTS (default
# docs/results/scan-speed.md). The target: under 10 s. A miss is reported,
# not an error.
set -eu

BUILD=${1:-build}
SCAN=$BUILD/bin/gsan-scan
DIR=$BUILD/bench-scan
BIG=$DIR/big.cu
LINES=${LINES:-5000}
RUNS=${RUNS:-3}
RESULTS=${RESULTS:-docs/results/scan-speed.md}
TARGET_S=10

die() { echo "scan_speed: $*" >&2; exit 1; }
[ -x "$SCAN" ] || die "$SCAN not found (run make first)"
mkdir -p "$DIR"

python3 bench/scan_gen.py --lines "$LINES" -o "$BIG"
lines=$(wc -l < "$BIG" | tr -d ' ')
kernels=$(grep -c '__global__' "$BIG" || true)
launches=$(grep -c '<<<' "$BIG" || true)

: > "$DIR/times"
i=0
while [ "$i" -lt "$RUNS" ]; do
    t0=$(date +%s.%N)
    status=0
    "$SCAN" --stats "$BIG" > "$DIR/report.txt" 2> "$DIR/stats.txt" || status=$?
    t1=$(date +%s.%N)
    [ "$status" -le 1 ] || { cat "$DIR/stats.txt" >&2; die "gsan-scan failed (status $status)"; }
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' >> "$DIR/times"
    i=$((i + 1))
done
med=$(sort -n "$DIR/times" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
all=$(tr '\n' ' ' < "$DIR/times" | sed 's/ $//; s/ /, /g')
summary=$(tail -n 1 "$DIR/report.txt")
stats=$(cat "$DIR/stats.txt")
if awk -v t="$med" -v lim="$TARGET_S" 'BEGIN { exit !(t < lim) }'; then
    verdict="met: median $med s < $TARGET_S s"
else
    verdict="NOT met: median $med s (target: under $TARGET_S s)"
fi
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)

mkdir -p "$(dirname "$RESULTS")"
{
    echo "# gsan scan: analysis speed on a large CUDA file"
    echo
    echo "Command: \`make bench-scan\` (runs \`bench/scan_speed.sh\`)"
    echo
    echo "- date: $(date -u)"
    echo "- gsan commit: $(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$(dirname "$0")/.." diff --quiet HEAD -- src 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "- machine: $(uname -m), $(nproc) CPUs, ${cpu:-unknown CPU}"
    echo "- gsan-scan runs single-threaded; wall time per run, from \`date +%s.%N\`, parsing included"
    echo "  (with the CUDA toolkit's headers)"
    echo "- input: \`$BIG\` from \`bench/scan_gen.py --lines $LINES\`: $lines lines, $kernels kernels, $launches launches"
    echo
    echo "| runs (s) | median (s) |"
    echo "|---|---|"
    echo "| $all | $med |"
    echo
    echo "Target (under $TARGET_S s): $verdict"
    echo
    echo "Report's last line and \`--stats\` (one run):"
    echo
    echo '```'
    echo "$summary"
    echo "$stats"
    echo '```'
} > "$RESULTS"

echo "scan_speed: $lines lines, runs: $all s, median $med s"
echo "target: $verdict"
echo "report: $RESULTS"
