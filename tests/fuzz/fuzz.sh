#!/bin/sh
# Runs one libFuzzer harness for a bounded time and says what came of it in
# one line. Usage: fuzz.sh BUILD NAME SECONDS [libFuzzer flags] [SEED_DIR...]
# What it finds that is new is kept in BUILD/fuzz/NAME/ (the next run starts
# from there); its output is BUILD/fuzz/NAME.log. A crash, leak, timeout,
# out-of-memory or sanitizer report fails the run: libFuzzer writes the input
# to BUILD/fuzz/NAME.<kind>-<sha1>, and the message names that file.
set -u
BUILD=$1 NAME=$2 SECONDS_=$3
shift 3
bin=$BUILD/fuzz/bin/$NAME
log=$BUILD/fuzz/$NAME.log
mkdir -p "$BUILD/fuzz/$NAME"
# The code under test's stdout and stderr are closed: the parsers' error
# messages would swamp the log (libFuzzer and the sanitizers keep their own
# descriptor). The first directory is where libFuzzer writes what it finds.
"$bin" -max_total_time="$SECONDS_" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
  -artifact_prefix="$BUILD/fuzz/$NAME." "$BUILD/fuzz/$NAME" "$@" >"$log" 2>&1
rc=$?
# one line a harness for make check's closing line (tests/summary.sh)
mkdir -p "$BUILD/check"
if [ $rc = 0 ]; then echo "pass $NAME" >>"$BUILD/check/fuzz"; else echo "fail $NAME" >>"$BUILD/check/fuzz"; fi
final() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
if [ $rc = 0 ]; then
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
  corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\).*/\1/p')
  echo "gsan fuzz: $NAME: $(final number_of_executed_units) runs in ${SECONDS_} s ($(final average_exec_per_sec)/s), coverage $cov edges, $ft features, corpus $corp inputs, peak $(final peak_rss_mb) MB"
  exit 0
fi
art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
what=$(grep -m1 -E 'runtime error:|^==[0-9]+== ?ERROR|^gsan fuzz:|^SUMMARY' "$log" | head -c 300)
if [ -n "$art" ]; then
  echo "gsan fuzz: $NAME FAILED on $art (${what:-see $log}); replay: $bin $art; keep it: cp $art tests/fuzz/regress/$NAME/ (docs/hardening.md)"
else
  echo "gsan fuzz: $NAME FAILED with status $rc and left no input; the log's end ($log):"
  tail -n 20 "$log"
fi
exit 1
