#!/bin/sh
# ptx_speed.sh -- how fast `gsan ptx` instruments a large PTX module.
# Run by `make bench-ptx` as: sh bench/ptx_speed.sh [BUILD_DIR]
#
# 1. compiles a handful of tests/ptx/kernels/*.cu to PTX (nvcc -O3 -lineinfo,
#    sm_90) into BUILD/bench-ptx/;
# 2. glues them into one synthetic module of at least 20 MB with
#    bench/ptx_synth.py (symbols renamed per copy, so the module stays valid);
# 3. times `gsan ptx --stats` (instrumentation) and `gsan ptx --roundtrip`
#    (parse + print only) on it, RUNS times each, and takes the median;
# 4. writes docs/results/ptx-speed.md and prints the table.
#
# Environment:
#   KERNELS    names (without .cu) of the kernels to use; default below
#   MIN_BYTES  minimum size of the synthetic module (default 20000000)
#   RUNS       timed runs per mode (default 5)
#   VERIFY=1   also check the synthetic module with
#              `ptxas -arch=sm_90 big.ptx -o /dev/null` (slow)
#   RESULTS    where the report goes (default docs/results/ptx-speed.md)
#
# The project's target: under 2 s for >= 20 MB on one core. A miss is
# reported, not an error. 1 MB = 1,000,000 bytes throughout.
set -eu

BUILD=${1:-build}
GSAN=$BUILD/bin/gsan
DIR=$BUILD/bench-ptx
BIG=$DIR/big.ptx
KDIR=tests/ptx/kernels
KERNELS=${KERNELS:-"gemm_tiled conv2d_constant histogram_shared spmv_csr softmax_row printf_recursion function_pointers dynamic_shared_mixed local_array_runtime stencil_3d device_malloc"}
MIN_BYTES=${MIN_BYTES:-20000000}
RUNS=${RUNS:-5}
VERIFY=${VERIFY:-0}
RESULTS=${RESULTS:-docs/results/ptx-speed.md}
TARGET_S=2

die() { echo "ptx_speed: $*" >&2; exit 1; }

[ -x "$GSAN" ] || die "$GSAN not found (run make first)"
command -v nvcc >/dev/null 2>&1 || die "nvcc not on PATH"
command -v python3 >/dev/null 2>&1 || die "python3 not on PATH"
mkdir -p "$DIR"

# 1. kernels -> PTX (only when the .ptx is missing or older than the .cu)
inputs=
for k in $KERNELS; do
    src=$KDIR/$k.cu
    [ -f "$src" ] || die "no such kernel: $src"
    if head -n 5 "$src" | grep -q CORPUS-FLAGS; then
        echo "ptx_speed: skipping $k (needs CORPUS-FLAGS)" >&2
        continue
    fi
    ptx=$DIR/$k.ptx
    if [ ! -f "$ptx" ] || [ -n "$(find "$src" -newer "$ptx")" ]; then
        echo "ptx_speed: nvcc $src" >&2
        nvcc -ptx -arch=sm_90 -O3 -lineinfo "$src" -o "$ptx"
    fi
    inputs="$inputs $ptx"
done
[ -n "$inputs" ] || die "no kernels to use"

# 2. the synthetic module (always rebuilt: it takes well under a second)
# shellcheck disable=SC2086
python3 bench/ptx_synth.py -o "$BIG" --min-bytes "$MIN_BYTES" $inputs
bytes=$(wc -c < "$BIG" | tr -d ' ')
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')

ptxas_note="not run (VERIFY=1 runs it)"
if [ "$VERIFY" = 1 ]; then
    echo "ptx_speed: ptxas -arch=sm_90 $BIG -o /dev/null (slow)" >&2
    t0=$(date +%s.%N)
    if ptxas -arch=sm_90 "$BIG" -o /dev/null; then
        t1=$(date +%s.%N)
        ptxas_note="accepted ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') s)"
    else
        die "ptxas rejected $BIG"
    fi
fi

# 3. timing. time_runs MODE ARGS...: RUNS runs, prints the times on one line
#    to $DIR/MODE.times; stderr of the last run goes to $DIR/MODE.stderr.
time_runs() {
    mode=$1; shift
    : > "$DIR/$mode.times"
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        t0=$(date +%s.%N)
        "$GSAN" ptx "$@" 2> "$DIR/$mode.stderr" \
            || { cat "$DIR/$mode.stderr" >&2; die "gsan ptx $* failed"; }
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >> "$DIR/$mode.times"
        i=$((i + 1))
    done
}
median() { sort -n "$1" | awk '{ v[NR] = $1 } END {
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "ptx_speed: timing gsan ptx on $BIG ($mb MB), $RUNS runs per mode" >&2
time_runs instrument "$BIG" -o "$DIR/big.gsan.ptx" --stats
time_runs roundtrip --roundtrip "$BIG" -o "$DIR/big.roundtrip.ptx"

row() {  # row MODE LABEL
    med=$(median "$DIR/$1.times")
    rate=$(awk -v b="$bytes" -v t="$med" 'BEGIN { printf "%.1f", (t > 0 ? b / 1e6 / t : 0) }')
    all=$(tr '\n' ' ' < "$DIR/$1.times" | sed 's/ $//; s/ /, /g')
    echo "| $2 | $all | $med | $rate |"
}
table=$(
    echo "| mode | runs (s) | median (s) | MB/s |"
    echo "|---|---|---|---|"
    row instrument "instrument (\`gsan ptx IN -o OUT --stats\`)"
    row roundtrip "roundtrip (\`gsan ptx --roundtrip IN -o OUT\`)"
)
med=$(median "$DIR/instrument.times")
if awk -v t="$med" -v lim="$TARGET_S" -v b="$bytes" 'BEGIN { exit !(t < lim && b >= 20e6) }'; then
    verdict="met: median $med s < $TARGET_S s for $mb MB"
else
    verdict="NOT met: median $med s for $mb MB (target: under $TARGET_S s for >= 20 MB)"
fi

out_bytes=$(wc -c < "$DIR/big.gsan.ptx")
out_ratio=$(awk -v o="$out_bytes" -v b="$bytes" 'BEGIN { printf "%.1f", o / b }')

cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
ncopies=$(grep -c '\.entry' "$BIG" || true)

# 4. the report
mkdir -p "$(dirname "$RESULTS")"
{
    echo "# gsan ptx: instrumentation speed on a large PTX module"
    echo
    echo "Command: \`make bench-ptx\` (runs \`bench/ptx_speed.sh\`)"
    echo
    echo "- date: $(date -u); gsan commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- src 2>/dev/null || echo " (with uncommitted changes)")"
    echo "- machine: $(uname -m), $(nproc) CPUs, ${cpu:-unknown CPU}"
    echo "- gsan runs single-threaded; wall time per run, from \`date +%s.%N\`"
    echo "- input: \`$BIG\`, $bytes bytes ($mb MB, 1 MB = 10^6 bytes), $ncopies entry points;"
    echo "  built by \`bench/ptx_synth.py\` from copies of these kernels"
    echo "  (\`nvcc -ptx -arch=sm_90 -O3 -lineinfo\`, symbols renamed per copy):"
    # shellcheck disable=SC2086
    echo "  $(echo $KERNELS | sed 's/ /, /g')"
    echo "- ptxas check of the input: $ptxas_note"
    echo
    echo "$table"
    echo
    echo "Target (under $TARGET_S s for >= 20 MB on one core): $verdict"
    echo
    echo "Output: $out_bytes bytes, ${out_ratio}x the input (target: at most 3x)"
    echo
    echo "Statistics (\`--stats\`, one instrumenting run):"
    echo
    echo '```'
    cat "$DIR/instrument.stderr"
    echo '```'
} > "$RESULTS"

# 5. the table on stdout
echo
echo "$table"
echo
echo "target: $verdict"
echo "report: $RESULTS"
