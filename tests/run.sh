#!/bin/sh
# Runs every CPU test (golden tests and the PTX corpus, then the interposition
# and JIT tests against libgsan-asan.so) through lit and ends with the line
# "N passed, N failed".
set -u
BUILD=${1:-build}
BUILD=$(cd "$BUILD" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
LOG="$BUILD/test-log.txt"
JOBS=$(nproc 2>/dev/null || echo 2)
lit() { python3 -c "from lit.main import main; main()" -sv -j "$JOBS" --param build="$BUILD" "$@"; }
lit "$TOP/tests" "$TOP/tests/corpus" "$TOP/tests/bugs" >"$LOG" 2>&1
rc=$?
# libgsan itself under ASan and UBSan (libgsan-asan.so): the interposition,
# exit and JIT tests again (the last run the instrumenter inside it); any
# sanitizer report they leave fails the run
rm -rf "$BUILD/lit-asan/reports"
lit --param libgsan=asan "$TOP/tests/runtime/interpose.test" "$TOP/tests/runtime/exits.test" "$TOP/tests/runtime/reset.test" "$TOP/tests/runtime/heap.test" \
  "$TOP/tests/runtime/jit.test" "$TOP/tests/runtime/canary.test" "$TOP/tests/runtime/launch.test" "$TOP/tests/runtime/binary_run.test" >>"$LOG" 2>&1 || rc=1
san='ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|runtime error:'
# and dlsym(RTLD_NEXT) through it, from the interposers preloaded after it
# (tests/lit.cfg.py puts ASan's runtime there too)
lit --param libgsan=asan "$TOP/tests/runtime/rtld_next.test" >>"$LOG" 2>&1 || rc=1
if grep -l -E "$san" "$BUILD"/lit-asan/reports/* 2>/dev/null; then
  echo "libgsan-asan.so: the sanitizers reported errors (the files above):"
  grep -h -A30 -E "$san" "$BUILD"/lit-asan/reports/* | head -80
  rc=1
fi
grep -E '^(FAIL|UNRESOLVED|XPASS|TIMEOUT)' "$LOG" || true
grep -A40 -E '^\*{4,} TEST .* FAILED' "$LOG" | head -200 || true
count() { sed -n "s/^ *$1 *: *\([0-9][0-9]*\).*/\1/p" "$LOG" | awk '{ s += $1 } END { if (NR) print s }'; }
passed=$(count Passed); failed=$(count Failed); unres=$(count Unresolved)
passed=${passed:-0}; failed=$(( ${failed:-0} + ${unres:-0} ))
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then failed=1; tail -20 "$LOG"; fi
echo "full log: $LOG"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
