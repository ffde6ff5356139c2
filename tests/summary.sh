#!/bin/sh
# make check's last step: the closing line, after every other step. Adds the
# lit tests' counts (BUILD/check/lit, from tests/run.sh) and the fuzzers'
# (BUILD/check/fuzz, one line a harness from tests/fuzz/fuzz.sh), names why
# tests were skipped, and exits 1 if anything failed or a step left no counts.
set -u
BUILD=${1:-build}
C=$BUILD/check
passed=0 failed=0 skipped=0
if [ -f "$C/lit" ]; then
  read -r p f s <"$C/lit"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  reasons=$(sed -n '2,$p' "$C/lit" | awk '{ n = $1; $1 = ""; sub(/^ /, ""); printf "%s%s %s", sep, n, $0; sep = ", " }')
else
  echo "make check: the lit tests left no counts (tests/run.sh did not finish)"
  failed=$((failed + 1))
fi
if [ -f "$C/fuzz" ]; then
  passed=$((passed + $(grep -c '^pass' "$C/fuzz")))
  failed=$((failed + $(grep -c '^fail' "$C/fuzz")))
else
  echo "make check: the fuzzers left no counts"
  failed=$((failed + 1))
fi
[ "$skipped" = 0 ] || echo "skipped: ${reasons:-$skipped}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
