#!/bin/sh
# ptxas_cost.sh -- what gsan adds to compiling PTX at load time: the time of
# `gsan ptx` plus ptxas on its output, against ptxas on the input, for the
# PTX that JIT paths hand the driver (Triton's kernels, as tests/ptx/triton
# holds them, and a few CUDA kernels of tests/ptx/kernels). No GPU needed:
# ptxas runs here, single-threaded, as the driver's JIT would on the GPU's
# host. Run by `make bench-ptxas` as: sh bench/ptxas_cost.sh [BUILD_DIR]
#
# For each input, RUNS (3) times each, the median of:
#   native       ptxas -arch=ARCH -O3 IN                (ARCH: the .target)
#   gsan         gsan ptx IN, then ptxas on what it wrote (every copy)
#   one copy     the same with --no-launch-bounds --no-launch-proofs: the
#                kernels themselves, instrumented, without their copies
# and writes docs/results/ptxas-cost.md (RESULTS= to change) with the
# command, commit, date and machine. The project's target for Triton's
# kernels: compiling under gsan at most 1.3x native (the whole compile;
# ptxas is one part of it, measured here).
set -eu
BUILD=${1:-build}
GSAN=$BUILD/bin/gsan
DIR=$BUILD/bench-ptxas
RUNS=${RUNS:-3}
RESULTS=${RESULTS:-docs/results/ptxas-cost.md}
KERNELS=${KERNELS:-"gemm_tiled conv2d_constant stencil_3d spmv_csr softmax_row"}
die() { echo "ptxas_cost: $*" >&2; exit 1; }
[ -x "$GSAN" ] || die "$GSAN not found (run make first)"
command -v ptxas >/dev/null 2>&1 || die "ptxas not on PATH"
command -v nvcc >/dev/null 2>&1 || die "nvcc not on PATH"
mkdir -p "$DIR"

inputs=$(ls tests/ptx/triton/*_sm90.ptx)
for k in $KERNELS; do
  src=tests/ptx/kernels/$k.cu
  [ -f "$src" ] || die "no such kernel: $src"
  nvcc -ptx -arch=sm_90 -O3 -lineinfo "$src" -o "$DIR/$k.ptx"
  inputs="$inputs $DIR/$k.ptx"
done

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# secs CMD...: the seconds CMD took (it must succeed)
secs() { t0=$(now); "$@" >/dev/null 2>"$DIR/last.err" || { cat "$DIR/last.err" >&2; die "failed: $*"; }; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'; }

rows=$DIR/rows.txt
: >"$rows"
for in in $inputs; do
  name=$(basename "$in" .ptx)
  arch=$(sed -n 's/^\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' "$in" | head -n 1)
  : >"$DIR/n"; : >"$DIR/g"; : >"$DIR/gp"; : >"$DIR/o"; : >"$DIR/op"
  i=0
  while [ "$i" -lt "$RUNS" ]; do
    secs ptxas -arch="$arch" -O3 "$in" -o "$DIR/native.cubin" >>"$DIR/n"
    secs "$GSAN" ptx -q "$in" -o "$DIR/$name.gsan.ptx" >>"$DIR/g"
    secs ptxas -arch="$arch" -O3 "$DIR/$name.gsan.ptx" -o "$DIR/gsan.cubin" >>"$DIR/gp"
    secs "$GSAN" ptx -q --no-launch-bounds --no-launch-proofs "$in" -o "$DIR/$name.one.ptx" >>"$DIR/o"
    secs ptxas -arch="$arch" -O3 "$DIR/$name.one.ptx" -o "$DIR/one.cubin" >>"$DIR/op"
    i=$((i + 1))
  done
  n=$(median <"$DIR/n"); g=$(median <"$DIR/g"); gp=$(median <"$DIR/gp"); o=$(median <"$DIR/o"); op=$(median <"$DIR/op")
  ib=$(wc -c <"$in" | tr -d ' '); gb=$(wc -c <"$DIR/$name.gsan.ptx" | tr -d ' '); ob=$(wc -c <"$DIR/$name.one.ptx" | tr -d ' ')
  awk -v nm="$name" -v ar="$arch" -v ib="$ib" -v gb="$gb" -v ob="$ob" -v n="$n" -v g="$g" -v gp="$gp" -v o="$o" -v op="$op" 'BEGIN {
    printf "| %s | %s | %.1f KB | %.1fx | %.3f | %.3f + %.3f | **%.1fx** | %.1fx | %.3f + %.3f | %.1fx |\n",
      nm, ar, ib / 1e3, gb / ib, n, g, gp, (g + gp) / n, ob / ib, o, op, (o + op) / n }' >>"$rows"
  echo "ptxas_cost: $name done" >&2
done

mkdir -p "$(dirname "$RESULTS")"
{
  echo "# Compiling PTX under gsan: gsan ptx and ptxas against ptxas alone"
  echo
  echo "Command: \`make bench-ptxas\` (runs \`bench/ptxas_cost.sh\`; written by the script, not by hand)  "
  echo "gsan commit: $(git rev-parse --short HEAD 2>/dev/null || echo "${GSAN_REV:-unknown}")$(git diff --quiet HEAD -- src 2>/dev/null || echo " (with uncommitted changes)")  "
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')  "
  echo "Machine: $(uname -m), $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1); $(ptxas --version | tail -n 1)"
  echo
  echo "The PTX a JIT path hands the driver (Triton's kernels from \`tests/ptx/triton\`, and CUDA kernels of"
  echo "\`tests/ptx/kernels\` built with \`nvcc -ptx -O3 -lineinfo\`), compiled by \`ptxas -O3\` for its own"
  echo "target; seconds, the median of $RUNS runs each, wall time of one process. **gsan** is \`gsan ptx\`"
  echo "then ptxas on its output (each kernel with its launch-bounds and proven copies); **one copy**"
  echo "is the same with \`--no-launch-bounds --no-launch-proofs\` (the kernels alone, instrumented)."
  echo "Output sizes are the instrumented PTX against the input."
  echo
  echo "| input | target | input size | gsan output | native ptxas (s) | gsan: gsan ptx + ptxas (s) | gsan / native | one copy output | one copy (s) | one copy / native |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  cat "$rows"
} >"$RESULTS"
cat "$RESULTS"
