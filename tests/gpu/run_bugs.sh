#!/bin/sh
# The bug programs in tests/bugs under gsan run, on a GPU: each is built with
# gsan nvcc -g (host line numbers in the stacks) and run; its output must contain its CHECK lines in order (and
# none of its CHECK-NOT lines), and it must exit with its EXIT status.
# Prints a table; logs under ${OUT:-build/gpu}.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
LOGDIR=${OUT:-build/gpu}
W=build/gpu/bugs
mkdir -p "$LOGDIR" $W
make -s all >/dev/null || exit 1
export GSAN_CACHE=$TOP/build/gpu/cache
fails=0 total=0
: >"$LOGDIR/bugs.log"
for src in tests/bugs/*.cu; do
  name=$(basename "$src" .cu)
  total=$((total + 1))
  build/bin/gsan nvcc -g -arch=sm_90 -o $W/$name "$src" -lcuda >$W/$name.build 2>&1 || { echo "$name: build failed"; cat $W/$name.build; }
  build/bin/gsan run -- $W/$name >$W/$name.out 2>&1
  rc=$?
  verdict=$(python3 tests/gpu/match_checks.py "$src" $W/$name.out $rc)
  [ "$verdict" = PASS ] || fails=$((fails + 1))
  printf '%-20s exit %-3s %s\n' $name $rc "$verdict" | tee -a "$LOGDIR/bugs-table.txt"
  { echo "== $name (exit $rc)"; cat $W/$name.out; } >>"$LOGDIR/bugs.log"
done
cat "$LOGDIR/bugs.log"
echo "$((total - fails)) passed, $fails failed"
[ $fails = 0 ]
