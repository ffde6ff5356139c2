#!/bin/sh
# Builds every program of the GPU bug suite with gsan nvcc, as that suite's RUN
# lines do (8 at a time), and checks each binary carries instrumented device
# code. Usage: build-bugs.sh GSAN OUTDIR BUGS_DIR. Prints one line per failure
# and "built N of M".
set -u
gsan=$1 out=$2 dir=$3
mkdir -p "$out"
export GSAN_CACHE="$out/cache"
ls "$dir"/*.cu | xargs -P 8 -I{} sh -c '
  n=$(basename {} .cu)
  "$0" nvcc -g -arch=sm_90 -o "$1/$n" {} -lcuda >"$1/$n.log" 2>&1 || { echo "$n: build failed"; cat "$1/$n.log"; exit 0; }
  grep -a -q __gsan_report "$1/$n" || echo "$n: no instrumented code"' "$gsan" "$out"
total=0 ok=0
for src in "$dir"/*.cu; do
  n=$(basename "$src" .cu)
  total=$((total + 1))
  [ -x "$out/$n" ] && grep -a -q __gsan_report "$out/$n" && ok=$((ok + 1))
done
echo "built $ok of $total"
[ $ok = $total ]
