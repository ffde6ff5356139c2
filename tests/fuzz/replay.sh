#!/bin/sh
# Replays every input kept in tests/fuzz/regress/NAME/ through harness NAME,
# twice each in one process (libFuzzer runs the files it is given, in order:
# the second run shows what the first left behind, as a fuzzing run's next
# input would), and ends with the line "N inputs, N failed". A failure prints
# the harness's report.
# Usage: replay.sh BUILD
set -u
BUILD=$1
top=$(cd "$(dirname "$0")" && pwd)
total=0 failed=0
for dir in "$top"/regress/*/; do
  [ -d "$dir" ] || continue
  name=$(basename "$dir")
  for f in "$dir"*; do
    [ -f "$f" ] || continue
    total=$((total + 1))
    if ! "$BUILD/fuzz/bin/$name" -timeout=10 -rss_limit_mb=2048 "$f" "$f" >"$BUILD/fuzz/replay.log" 2>&1; then
      failed=$((failed + 1))
      echo "FAILED: $name $f"
      grep -v '^INFO:' "$BUILD/fuzz/replay.log" | tail -n 40
    fi
  done
done
echo "$total inputs, $failed failed"
