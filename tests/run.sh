#!/bin/sh
# Runs every CPU test (golden tests and the PTX corpus, then the interposition
# and JIT tests against libgsan-asan.so) through lit. Writes its counts to
# BUILD/check/lit (passed, failed, skipped, and a line per reason for
# skipping); make check's last step (tests/summary.sh) adds the fuzzers' and
# prints the closing line.
set -u
BUILD=${1:-build}
BUILD=$(cd "$BUILD" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
LOG="$BUILD/test-log.txt"
JOBS=$(nproc 2>/dev/null || echo 2)
lit() { python3 -c "from lit.main import main; main()" -sv --show-unsupported -j "$JOBS" --param build="$BUILD" "$@"; }
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
# an expected failure (XFAIL, a known gap) ran and behaved as declared; an
# unexpected pass fails, as lit has it
passed=$(( $(count Passed) + $(count 'Expectedly Failed') + 0 ))
failed=$(( $(count Failed) + $(count Unresolved) + $(count 'Unexpectedly Passed') + $(count 'Timed Out') + 0 ))
skipped=$(( $(count Unsupported) + 0 ))
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then failed=1; tail -20 "$LOG"; fi
# why each skipped test was skipped: the first feature of its REQUIRES line
# that this machine lacks
mkdir -p "$BUILD/check"
{
  echo "$passed $failed $skipped"
  awk '/^Unsupported Tests \(/ { on = 1; next } on && /^  [^ ]+ :: / { print $3; next } { on = 0 }' "$LOG" | while read -r t; do
    # lit names a test by its path in its suite: the suite's folder is somewhere under tests/
    f=$(find "$TOP/tests" -path "*/$t" -type f 2>/dev/null | head -n 1)
    req=$(sed -n 's/.*REQUIRES: *//p' "$f" 2>/dev/null | head -n 1)
    case "$req" in
      *binary-mode*) echo "no binary mode" ;;
      *gpu*) echo "no GPU" ;;
      *root*) echo "not root" ;;
      *) echo "${req:-unsupported}" ;;
    esac
  done | sort | uniq -c | sed 's/^ *//'
} >"$BUILD/check/lit"
echo "full log: $LOG"
echo "lit tests: $passed passing, $failed failing, $skipped skipped"
[ "$failed" = 0 ]
