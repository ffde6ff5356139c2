#!/bin/sh
# alloc.sh -- allocation latency under gsan run, against plain cudaMalloc and
# cudaFree (and compute-sanitizer memcheck, for reference), on a GPU.
# Run as: sh bench/alloc.sh
#
# 1. make -s all (build/bin/gsan, build/lib/libgsan.so);
# 2. builds bench/alloc_latency.cu with plain nvcc into build/bench/ (it
#    launches no kernels: gsan run serves its allocations all the same);
# 3. runs it natively, under `build/bin/gsan run` (with verbosity=1, to make
#    sure gsan's arena served the allocations), and under
#    `compute-sanitizer --tool memcheck` when that is found (PATH, then
#    $CUDA_HOME/bin; skipped with a note otherwise);
# 4. prints the table and writes docs/results/alloc-latency.md, ending in
#    the worst gsan/native ratio. The project's target: within 1.5x. A miss
#    is reported, not an error.
#
# Environment:
#   REPS      repetitions, native and gsan (default 11)
#   ROUNDS    processes, native and gsan taking turns (default 5); each row is
#             the median over the rounds of each process's median: the
#             driver's own latency for one call moves between processes
#             (one 2 MiB cudaMalloc: 57 to 111 us in runs an hour apart)
#   CS_REPS   repetitions under compute-sanitizer (default 5)
#   SIZES     sizes in bytes, comma separated (default 256,65536,2097152,1073741824)
#   OUT       where the logs go (default build/bench)
#   RESULTS   where the report goes (default docs/results/alloc-latency.md)
#   CUDA_HOME the toolkit, when nvcc is not on PATH (default /usr/local/cuda)
set -eu

START=$(pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
case ${OUT:-} in
    "") LOGDIR=$TOP/build/bench ;;
    /*) LOGDIR=$OUT ;;
    *) LOGDIR=$START/$OUT ;;
esac
cd "$TOP"

# the command as given, with the settings that changed it
cmd="sh bench/alloc.sh"
for v in RESULTS SIZES CS_REPS REPS ROUNDS; do
    isset='' val=''
    eval "isset=\${$v+x}"
    if [ -n "$isset" ]; then
        eval "val=\$$v"
        cmd="$v=$val $cmd"
    fi
done

REPS=${REPS:-11}
ROUNDS=${ROUNDS:-5}
CS_REPS=${CS_REPS:-5}
SIZES=${SIZES:-256,65536,2097152,1073741824}
RESULTS=${RESULTS:-docs/results/alloc-latency.md}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
GSAN=build/bin/gsan
BIN=build/bench/alloc_latency
TARGET=1.5

die() { echo "alloc.sh: $*" >&2; exit 1; }
note() { echo "alloc.sh: $*" >&2; }

NVCC=nvcc
if ! command -v nvcc >/dev/null 2>&1; then
    [ -x "$CUDA_HOME/bin/nvcc" ] || die "nvcc not on PATH nor in $CUDA_HOME/bin"
    NVCC=$CUDA_HOME/bin/nvcc
fi
CS=
if command -v compute-sanitizer >/dev/null 2>&1; then
    CS=$(command -v compute-sanitizer)
elif [ -x "$CUDA_HOME/bin/compute-sanitizer" ]; then
    CS=$CUDA_HOME/bin/compute-sanitizer
fi

mkdir -p "$LOGDIR" build/bench
L=$LOGDIR/alloc

# 1, 2. build
note "make -s all"
make -s all > "$L-make.log" 2>&1 || { tail -n 20 "$L-make.log" >&2; die "make -s all failed (log: $L-make.log)"; }
[ -x "$GSAN" ] || die "$GSAN missing after make"
[ -r build/lib/libgsan.so ] || die "build/lib/libgsan.so missing after make"
note "$NVCC -O2 -arch=native -o $BIN bench/alloc_latency.cu"
"$NVCC" -O2 -arch=native -o "$BIN" bench/alloc_latency.cu > "$L-build.log" 2>&1 \
    || { cat "$L-build.log" >&2; die "nvcc failed (log: $L-build.log)"; }

# 3. the runs. Each writes LABEL.out (the size= lines) and LABEL.err.
case $ROUNDS in ''|*[!0-9]*|0) die "ROUNDS must be a positive integer, not '$ROUNDS'" ;; esac
: > "$L-native.out"
: > "$L-gsan.out"
r=1
while [ "$r" -le "$ROUNDS" ]; do
    note "round $r of $ROUNDS, native: $BIN --reps $REPS --sizes $SIZES"
    rc=0
    "$BIN" --reps "$REPS" --sizes "$SIZES" >> "$L-native.out" 2> "$L-native.err" || rc=$?
    [ "$rc" = 0 ] || { tail -n 20 "$L-native.err" >&2; die "the native run failed, exit $rc (log: $L-native.err)"; }

    note "round $r of $ROUNDS, gsan: $GSAN run --opt verbosity=1 -- $BIN --reps $REPS --sizes $SIZES"
    rc=0
    "$GSAN" run --opt verbosity=1 -- "$BIN" --reps "$REPS" --sizes "$SIZES" >> "$L-gsan.out" 2> "$L-gsan.err" || rc=$?
    [ "$rc" = 0 ] || { tail -n 20 "$L-gsan.err" >&2; die "the run under gsan failed, exit $rc (log: $L-gsan.err)"; }
    if grep -q 'cannot set up' "$L-gsan.err"; then
        die "gsan did not serve the allocations: $(grep -m 1 'cannot set up' "$L-gsan.err")"
    fi
    grep -q 'arena and ring ready' "$L-gsan.err" \
        || die "no 'arena and ring ready' from libgsan: were the allocations served by gsan? (log: $L-gsan.err)"
    r=$((r + 1))
done

cs_note=
: > "$L-cs.out"
if [ -z "$CS" ]; then
    cs_note="skipped: compute-sanitizer not on PATH nor in $CUDA_HOME/bin"
    note "$cs_note"
else
    note "compute-sanitizer: $CS --tool memcheck $BIN --reps $CS_REPS --sizes $SIZES"
    rc=0
    "$CS" --tool memcheck "$BIN" --reps "$CS_REPS" --sizes "$SIZES" > "$L-cs.log" 2> "$L-cs.err" || rc=$?
    if [ "$rc" = 0 ]; then
        grep '^size=' "$L-cs.log" > "$L-cs.out" || true
        csv=$("$CS" --version 2>/dev/null | grep -i version | head -n 1) || true
        cs_note="\`compute-sanitizer --tool memcheck\` (${csv:-version unknown}), $CS_REPS reps"
    else
        cs_note="compute-sanitizer run failed (exit $rc; log: $L-cs.log, $L-cs.err); its columns are empty"
        note "$cs_note"
        : > "$L-cs.out"
    fi
fi

# 4. the table. rows LABEL FILE: "LABEL SIZE OP BATCH MICROSECONDS" per measurement
rows() {
    awk -v l="$1" '/^size=/ {
        size = ""; k = ""
        for (i = 1; i <= NF; i++) {
            eq = index($i, "="); key = substr($i, 1, eq - 1); val = substr($i, eq + 1)
            if (key == "size") size = val
            else if (key == "batch") k = val
            else if (key ~ /_us$/) { n++; op[n] = substr(key, 1, length(key) - 3); us[n] = val }
        }
        for (i = 1; i <= n; i++) print l, size, op[i], k, us[i]
        n = 0
    }' "$2"
}
# the median over the rounds of each label's size= lines for one (size, op)
median_rows() {
    awk '{ k = $1 " " $2 " " $3 " " $4; if (!(k in n)) order[++keys] = k; x[k, ++n[k]] = $5 }
    END {
        for (i = 1; i <= keys; i++) {
            k = order[i]; m = n[k]
            for (a = 2; a <= m; a++)    # insertion sort: a handful of rounds
                for (b = a; b > 1 && x[k, b - 1] + 0 > x[k, b] + 0; b--) { t = x[k, b]; x[k, b] = x[k, b - 1]; x[k, b - 1] = t }
            print k, (m % 2 ? x[k, (m + 1) / 2] : (x[k, m / 2] + x[k, m / 2 + 1]) / 2)
        }
    }'
}
{
    rows native "$L-native.out"
    rows gsan "$L-gsan.out"
    rows cs "$L-cs.out"
} > "$L-rounds.txt"
median_rows < "$L-rounds.txt" > "$L-rows.txt"
grep -q '^native ' "$L-rows.txt" || die "no size= lines from the native run (log: $L-native.out)"
grep -q '^gsan ' "$L-rows.txt" || die "no size= lines from the run under gsan (log: $L-gsan.out)"

# the markdown table on stdout, then "worst RATIO|WHERE"
join_rows() {
    awk -v target="$TARGET" '
    function hsize(b) {
        if (b % 1073741824 == 0) return (b / 1073741824) " GiB"
        if (b % 1048576 == 0) return (b / 1048576) " MiB"
        if (b % 1024 == 0) return (b / 1024) " KiB"
        return b " B"
    }
    function opname(o, k) {
        if (o == "malloc") return "cudaMalloc, one"
        if (o == "free") return "cudaFree, one"
        if (o == "batch_malloc") return "cudaMalloc, batch of " k
        if (o == "batch_free") return "cudaFree, batch of " k
        return o
    }
    function ratio(a, b) { return (a != "" && b != "" && b + 0 > 0) ? sprintf("%.2fx", a / b) : "-" }
    {
        key = $2 SUBSEP $3
        if ($1 == "native") { n++; order[n] = key; size[key] = $2; op[key] = $3; k[key] = $4 }
        v[$1, key] = $5
    }
    END {
        print "| size | operation | native (us) | gsan (us) | gsan/native | compute-sanitizer (us) | c-s/native |"
        print "|---|---|---:|---:|---:|---:|---:|"
        worst = -1; where = ""
        for (i = 1; i <= n; i++) {
            key = order[i]; nat = v["native", key]; g = v["gsan", key]; c = v["cs", key]
            printf "| %s | %s | %s | %s | %s | %s | %s |\n", hsize(size[key]), opname(op[key], k[key]),
                nat, (g == "" ? "-" : g), ratio(g, nat), (c == "" ? "-" : c), ratio(c, nat)
            if (g != "" && nat + 0 > 0 && g / nat > worst) {
                worst = g / nat; where = hsize(size[key]) ", " opname(op[key], k[key])
            }
        }
        if (worst < 0) print "worst -|-"
        else printf "worst %.2f|%s\n", worst, where
    }' "$L-rows.txt"
}
join_rows > "$L-table.txt"
table=$(grep -v '^worst ' "$L-table.txt")
worst_line=$(grep '^worst ' "$L-table.txt" | sed 's/^worst //')
worst=${worst_line%%|*}
where=${worst_line#*|}
[ "$worst" != "-" ] || die "no row has both a native and a gsan figure (rows: $L-rows.txt)"
if awk -v w="$worst" -v t="$TARGET" 'BEGIN { exit !(w <= t) }'; then
    verdict="met: every row within ${TARGET}x of native (worst: $where)"
else
    verdict="NOT met: $where is ${worst}x of native"
fi

gpu=
if command -v nvidia-smi >/dev/null 2>&1; then
    gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1) || gpu=
fi
if [ -n "$gpu" ]; then gpu="$gpu (nvidia-smi: name, driver)"; else gpu="unknown (nvidia-smi failed or not found)"; fi
cudadev=$(sed -n 's/^alloc_latency: \(device [0-9]*: [^;]*\);.*/\1/p' "$L-native.err" | head -n 1)
nvccv=$("$NVCC" --version | grep -i 'release' | head -n 1)
# GSAN_REV names the revision where the tree has no history of its own (a
# copy sent to a GPU machine)
if [ -n "${GSAN_REV:-}" ]; then
  rev=$GSAN_REV
else
  rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [ -n "$(git status --porcelain 2>/dev/null | head -n 1)" ]; then rev="$rev (with uncommitted changes)"; fi
fi

mkdir -p "$(dirname "$RESULTS")"
{
    echo "# Allocation latency: gsan run against cudaMalloc/cudaFree"
    echo
    echo "Command: \`$cmd\`"
    echo
    echo "- date: $(date -u)"
    echo "- device: $gpu; the benchmark ran on CUDA ${cudadev:-device unknown}"
    echo "- nvcc: $nvccv"
    echo "- gsan: git $rev"
    echo "- program: \`bench/alloc_latency.cu\` built with \`nvcc -O2 -arch=native\`; sizes $SIZES bytes"
    echo "- each figure: native and gsan, the median over $ROUNDS processes (taking turns) of each"
    echo "  process's median over $REPS repetitions; compute-sanitizer, one process of $CS_REPS repetitions;"
    echo "  of the host wall time per call, \`clock_gettime(CLOCK_MONOTONIC)\` around each call, after"
    echo "  a warm-up; \"batch of K\": K allocations in a row, then their K frees, each batch's time divided by K"
    echo "- gsan: \`$GSAN run --opt verbosity=1 -- $BIN\` (libgsan said its arena was ready)"
    echo "- compute-sanitizer: $cs_note"
    echo "- logs: \`$LOGDIR\` (alloc-*)"
    echo
    echo "$table"
    echo
    echo "Target (gsan within ${TARGET}x of native on every row): $verdict"
    echo
    echo "worst gsan/native ratio: ${worst}x (target ${TARGET}x)"
    echo
    echo "Each process's median, in microseconds, in the order run (the table takes their median):"
    echo
    echo "| size (bytes) | operation | native | gsan |"
    echo "|---|---|---|---|"
    awk '$1 != "cs" { key = $2 " " $3; if (!(key in seen)) { seen[key] = 1; order[++n] = key; k[key] = $4 }
                      v[$1, key] = v[$1, key] (v[$1, key] == "" ? "" : ", ") $5 }
         END { for (i = 1; i <= n; i++) { split(order[i], f, " ")
                 printf "| %s | %s%s | %s | %s |\n", f[1], f[2], (k[order[i]] != "" && f[2] ~ /batch/ ? " of " k[order[i]] : ""),
                        v["native", order[i]], v["gsan", order[i]] } }' "$L-rounds.txt"
} > "$RESULTS"
# a copy beside the logs, for runs whose tree does not come back
case $(cd "$(dirname "$RESULTS")" && pwd) in
    "$LOGDIR") ;;
    *) cp "$RESULTS" "$LOGDIR/alloc-latency.md" ;;
esac

echo
echo "$table"
echo
echo "target: $verdict"
echo "report: $RESULTS"
echo "worst gsan/native ratio: ${worst}x (target ${TARGET}x)"
