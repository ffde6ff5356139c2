#!/bin/sh
# gsan scan over a public corpus nobody here wrote: every CUDA program of
# HeCBench (src/*-cuda/, less the programs kept apart for independent
# measurement), each with the flags its own Makefile gives nvcc, two at a
# time. Writes docs/results/scan-corpus.md; its last line is the totals:
#   corpus: P programs, A accesses, D% decided, F findings (T confirmed on a GPU, X false), C crashes, O timeouts
#
#   sh bench/scan_corpus.sh [BUILD]       (BUILD: gsan's build folder, default build)
#   sh bench/scan_corpus.sh --report [BUILD]   the results again from the last
#                  run's outputs, with the triage file as it is now (the
#                  commit and date of that run are kept)
#   HECBENCH=DIR   a HeCBench checkout or its git directory (default: the
#                  mirror at /work/.mirror/zjin-lcf+HeCBench/repo if there)
#   TIMEOUT=S      seconds a program (default 120); JOBS=N (default 2, at most 2)
#   SCAN=PATH      the gsan-scan to run (default BUILD/bin/gsan-scan)
#   OUT=FILE       the results (default docs/results/scan-corpus.md)
#
# Each program is one gsan scan over its .cu, .cpp and .cc files that are translation units
# (one another file #includes is analysed inside it, not alone), run in its
# folder. HeCBench is extracted into BUILD/corpus-scan/ (ignored); nothing of it is
# ever committed. The raw output of each program stays in
# BUILD/corpus-scan/out/NAME.{txt,err,rc}. Findings are matched against
# bench/scan_triage.tsv (program, file:line, confirmed|false|unconfirmed,
# evidence) for the T and X of the totals.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = "--one" ]; then
  # one program: NAME WORK SCAN TIMEOUT
  name=$2 work=$3 scan=$4 limit=$5
  cd "$work/src/$name-cuda"
  set --
  while IFS= read -r w; do set -- "$@" "$w"; done < "$work/files/$name"
  set -- "$@" --
  while IFS= read -r w; do set -- "$@" "$w"; done < "$work/flags/$name"
  t0=$(date +%s.%N)
  rc=0
  timeout -k 5 "$limit" "$scan" "$@" > "$work/out/$name.txt" 2> "$work/out/$name.err" || rc=$?
  t1=$(date +%s.%N)
  echo "$rc $(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }")" > "$work/out/$name.rc"
  printf '%s: exit %s\n' "$name" "$rc"
  exit 0
fi

REPORT_ONLY=0
if [ "${1:-}" = "--report" ]; then REPORT_ONLY=1; shift; fi
BUILD=${1:-build}
BUILD=$(cd "$BUILD" && pwd)
SCAN=${SCAN:-$BUILD/bin/gsan-scan}
TIMEOUT=${TIMEOUT:-120}
JOBS=${JOBS:-2}
[ "$JOBS" -gt 2 ] && JOBS=2
OUT=${OUT:-$TOP/docs/results/scan-corpus.md}
HECBENCH=${HECBENCH:-}
if [ -z "$HECBENCH" ] && [ -d /work/.mirror/zjin-lcf+HeCBench/repo ]; then
  HECBENCH=/work/.mirror/zjin-lcf+HeCBench/repo
fi
if [ -z "$HECBENCH" ] || [ ! -d "$HECBENCH" ]; then
  echo "scan_corpus: no HeCBench: git clone https://github.com/zjin-lcf/HeCBench and set HECBENCH=that folder"
  exit 2
fi
if [ ! -x "$SCAN" ]; then
  echo "scan_corpus: no $SCAN (make all builds it)"
  exit 2
fi

WORK=$BUILD/corpus-scan
if [ $REPORT_ONLY = 1 ]; then
  [ -f "$WORK/meta.txt" ] && [ -f "$WORK/programs.txt" ] || { echo "scan_corpus: no earlier run in $WORK" >&2; exit 2; }
  python3 "$TOP/bench/scan_corpus.py" report "$WORK" "$OUT" \
    sh bench/scan_corpus.sh "$(basename "$BUILD")" "(HECBENCH=${HECBENCH:-}, TIMEOUT=$TIMEOUT, JOBS=$JOBS)"
  exit $?
fi
mkdir -p "$WORK"
rm -rf "$WORK/out" "$WORK/flags" "$WORK/files"
mkdir -p "$WORK/out"
python3 "$TOP/bench/scan_corpus.py" prepare "$HECBENCH" "$WORK"

if [ -d "$HECBENCH/objects" ]; then hb=$(git --git-dir="$HECBENCH" rev-parse --short HEAD)
else hb=$(git -C "$HECBENCH" rev-parse --short HEAD 2>/dev/null || echo unknown); fi
{
  echo "commit=$(git -C "$TOP" rev-parse --short HEAD)$(git -C "$TOP" diff --quiet HEAD -- src 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores visible"
  echo "hecbench=$hb"
  echo "timeout=$TIMEOUT"
  echo "jobs=$JOBS"
  echo "triage=$TOP/bench/scan_triage.tsv"
} > "$WORK/meta.txt"

xargs -P "$JOBS" -I '{}' sh "$TOP/bench/scan_corpus.sh" --one '{}' "$WORK" "$SCAN" "$TIMEOUT" \
  < "$WORK/programs.txt" > "$WORK/progress.txt"

mkdir -p "$(dirname "$OUT")"
python3 "$TOP/bench/scan_corpus.py" report "$WORK" "$OUT" \
  sh bench/scan_corpus.sh "$(basename "$BUILD")" "(HECBENCH=$HECBENCH, TIMEOUT=$TIMEOUT, JOBS=$JOBS)"
