#!/bin/sh
# Builds every .cu program of a directory with gsan nvcc (8 at a time): the
# GPU bug suite as its RUN lines do, or the benchmark workloads; checks each
# binary carries instrumented device code. Usage: build-bugs.sh GSAN OUTDIR
# DIR [NVCC FLAGS...] (default flags: -g -arch=sm_90, linked with -lcuda).
# A program whose kernels are compiled at run time (NVRTC) says so in a line
# "// JIT-LINK: FLAGS": it is linked with FLAGS too, and carries no device
# code of its own to check (libgsan instruments its PTX when it is loaded).
# Prints one line per failure and "built N of M".
set -u
gsan=$1 out=$2 dir=$3
shift 3
flags=${*:--g -arch=sm_90}
mkdir -p "$out"
export GSAN_CACHE="$out/cache"
ls "$dir"/*.cu | xargs -P 8 -I{} sh -c '
  n=$(basename {} .cu)
  jit=$(sed -n "s|^// JIT-LINK:||p" {})
  "$0" nvcc $2 -o "$1/$n" {} -lcuda $jit >"$1/$n.log" 2>&1 || { echo "$n: build failed"; cat "$1/$n.log"; exit 0; }
  grep -q "^// JIT-LINK:" {} || grep -a -q __gsan_report "$1/$n" || echo "$n: no instrumented code"' "$gsan" "$out" "$flags"
total=0 ok=0
for src in "$dir"/*.cu; do
  n=$(basename "$src" .cu)
  total=$((total + 1))
  [ -x "$out/$n" ] && { grep -q "^// JIT-LINK:" "$src" || grep -a -q __gsan_report "$out/$n"; } && ok=$((ok + 1))
done
echo "built $ok of $total"
[ $ok = $total ]
