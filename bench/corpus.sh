#!/bin/sh
# The performance corpus (needs a GPU): the public CUDA programs of
# bench/corpus.list (HeCBench's, nobody here wrote them), each built by its
# own Makefile twice, with nvcc and with `gsan nvcc` (ARCH=sm_90, nothing
# else changed), then run side by side on the same GPU:
#   native             REPS times
#   gsan               REPS times under `gsan run` (default options),
#                      alternating with the native runs
#   compute-sanitizer  once under --tool memcheck (CS=0 to skip), at most
#                      CS_TIMEOUT seconds: a run cut off counts as that long
# Each program's time is the sum of the times it prints of itself (lines that
# name a time in s, ms, us or ns: its own timer around its kernels) when it
# prints any, else the wall time of the whole run; the wall time is in the
# table too. Writes docs/results/perf-corpus.md (RESULTS= to change), whose
# last line is
#   corpus geomean: gsan X, compute-sanitizer Y over N programs; worst gsan W (NAME)
# and logs under ${OUT:-BUILD/perf-corpus/logs}. Exit status 1 when a program
# fails under gsan where it ran natively, or gsan reports an error in it.
#
#   sh bench/corpus.sh [--prepare | --report | --profile | --registers] [BUILD] [-- NAME ...]
#   --prepare      only extract the listed programs into BUILD/perf-corpus/src
#                  (no GPU needed), e.g. to carry them to a machine that has
#                  no HeCBench
#   --profile      where gsan's time goes (needs ncu): builds the programs as
#                  above, runs each natively and under gsan REPS times
#                  alternating (its own timer), and the native build under
#                  `gsan run` (the runtime alone), then once each under Nsight
#                  Compute (the first PROFILE_LAUNCHES=200 launches: GPU
#                  time, instructions executed, registers, occupancy, the
#                  copy that ran) and prints bench/corpus_profile.py's table
#                  of kernel time against the program's time; writes no
#                  results file
#   --registers    no GPU needed: builds the programs as above with ptxas -v
#                  (EXTRA_CFLAGS, which every listed Makefile takes) and
#                  writes bench/corpus_regs.py's table of each kernel's
#                  registers natively and in gsan's copies, and the warps a
#                  multiprocessor can hold by them, to
#                  docs/results/corpus-registers.md (RESULTS= to change)
#   --report       no runs: the results again from the logs there are (every
#                  listed program's, or the NAMEs'), e.g. of a corpus measured
#                  in parts (`-- NAME ...` each) whose logs were put together
#                  in one folder; each part's command, commit, date and
#                  device are in its logs (run-*.txt) and the results name them
#   HECBENCH=DIR   a HeCBench checkout or its git directory (default: the
#                  mirror at /work/.mirror/zjin-lcf+HeCBench/repo, else the
#                  programs already extracted under BUILD/perf-corpus/src)
#   REPS (3), CS (1), CS_TIMEOUT (300), TIMEOUT (120 s a run natively or
#   under gsan), BUDGET (seconds from the start after which no further
#   program is begun: those left are listed as not run; default none),
#   BUILD_JOBS (the CPU count), GSAN_REV (the revision to name when the copy
#   measured has no .git), LIST (bench/corpus.list)
# Nothing from HeCBench is written outside BUILD (an ignored folder).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
ME=bench/corpus.sh
die() { echo "$ME: $*" >&2; exit 2; }
PREPARE=0 REPORT=0 PROFILE=0 REGISTERS=0
if [ "${1:-}" = "--prepare" ]; then PREPARE=1; shift; fi
if [ "${1:-}" = "--report" ]; then REPORT=1; shift; fi
if [ "${1:-}" = "--profile" ]; then PROFILE=1; shift; fi
if [ "${1:-}" = "--registers" ]; then REGISTERS=1; shift; fi
BUILD=build
if [ $# -gt 0 ] && [ "$1" != "--" ]; then BUILD=$1; shift; fi
[ "${1:-}" = "--" ] && shift
mkdir -p "$BUILD" || die "cannot make $BUILD"
BUILD=$(cd "$BUILD" && pwd)
W=$BUILD/perf-corpus
LIST=${LIST:-bench/corpus.list}
REPS=${REPS:-3}
CS=${CS:-1}
CS_TIMEOUT=${CS_TIMEOUT:-300}
TIMEOUT=${TIMEOUT:-120}
if [ "$REGISTERS" = 1 ]; then RESULTS=${RESULTS:-docs/results/corpus-registers.md}; fi
RESULTS=${RESULTS:-docs/results/perf-corpus.md}
LOGDIR=${OUT:-$W/logs}
GSAN=$TOP/build/bin/gsan
[ -f "$LIST" ] || die "no list $LIST"

# the programs: NAME ARGS lines in $W/programs.txt, in the list's order
mkdir -p "$W/src" "$LOGDIR"
grep -v '^#' "$LIST" | awk 'NF' > "$W/list.txt"
if [ $# -gt 0 ]; then
  for n in "$@"; do grep -q "^$n " "$W/list.txt" || die "$n is not in $LIST"; done
  awk 'BEGIN { for (i = 1; i < ARGC; i++) want[ARGV[i]] = 1; ARGC = 1 } want[$1]' "$@" < "$W/list.txt" > "$W/list.sel"
  mv "$W/list.sel" "$W/list.txt"
fi
names=$(awk '{ print $1 }' "$W/list.txt")

HECBENCH=${HECBENCH:-}
if [ -z "$HECBENCH" ] && [ -d /work/.mirror/zjin-lcf+HeCBench/repo ]; then
  HECBENCH=/work/.mirror/zjin-lcf+HeCBench/repo
fi
if [ -n "$HECBENCH" ]; then
  [ -d "$HECBENCH" ] || die "HECBENCH=$HECBENCH is not a folder"
  if [ -d "$HECBENCH/objects" ]; then gitdir=$HECBENCH
  elif [ -d "$HECBENCH/.git" ]; then gitdir=$HECBENCH/.git
  else gitdir=; fi
  for d in include $(for n in $names; do echo "$n-cuda"; done); do
    rm -rf "$W/src/$d"
    if [ -n "$gitdir" ]; then
      git --git-dir="$gitdir" archive HEAD "src/$d" 2>/dev/null | tar -x -C "$W" ||
        { [ "$d" = include ] || die "no src/$d in $HECBENCH"; }
    else
      if [ -d "$HECBENCH/src/$d" ]; then cp -r "$HECBENCH/src/$d" "$W/src/"
      elif [ "$d" != include ]; then die "no src/$d in $HECBENCH"; fi
    fi
  done
  if [ -n "$gitdir" ]; then hb=$(git --git-dir="$gitdir" rev-parse --short HEAD)
  else hb=$(git -C "$HECBENCH" rev-parse --short HEAD 2>/dev/null || echo unknown); fi
  echo "$hb" > "$W/hecbench-rev"
fi
for n in $names; do
  [ -f "$W/src/$n-cuda/Makefile" ] ||
    die "no $n in $W/src: git clone https://github.com/zjin-lcf/HeCBench and set HECBENCH=that folder"
done
[ $PREPARE = 1 ] && { echo "$ME: $(echo $names | wc -w) programs in $W/src"; exit 0; }
if [ $REPORT = 1 ]; then
  ls "$LOGDIR"/run-*.txt >/dev/null 2>&1 || die "no run's logs in $LOGDIR"
  export BENCH_CMD="sh $ME --report${*:+ -- $*}"
  have=
  for n in $names; do [ -f "$LOGDIR/$n.args" ] && have="$have $n"; done
  exec python3 bench/corpus.py "$LOGDIR" "$RESULTS" "$REPS" "$CS" "$CS_TIMEOUT" \
    "$(cat "$W/hecbench-rev" 2>/dev/null || echo unknown)" $have
fi

T0=$(date +%s)
BUDGET=${BUDGET:-0}
PATH=/usr/local/cuda/bin:$PATH
export BENCH_CMD="REPS=$REPS CS=$CS CS_TIMEOUT=$CS_TIMEOUT TIMEOUT=$TIMEOUT BUDGET=$BUDGET sh $ME${*:+ -- $*}"
make -s all > "$LOGDIR/make.log" 2>&1 || die "make failed (see $LOGDIR/make.log)"
[ "$REGISTERS" = 1 ] || { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; } || die "no GPU (nvidia-smi -L failed)"
if [ $PROFILE = 1 ]; then
  command -v ncu >/dev/null 2>&1 || die "--profile needs Nsight Compute (ncu) on PATH"
  CS=0
fi
[ "$REGISTERS" = 1 ] && CS=0
if [ "$CS" = 1 ] && ! command -v compute-sanitizer >/dev/null 2>&1; then
  echo "$ME: compute-sanitizer not found: its column is left out" >&2
  CS=0
fi

# builds: each program's own Makefile, in a copy of its folder per compiler
# (beside a copy of HeCBench's shared src/include), programs in parallel
rm -rf "$W/native" "$W/gsan" "$W/cache"
for k in native gsan; do
  mkdir -p "$W/$k"
  [ -d "$W/src/include" ] && cp -r "$W/src/include" "$W/$k/"
done
EXTRA=
[ "$REGISTERS" = 1 ] && EXTRA="-Xptxas -v"
export W GSAN LOGDIR EXTRA
echo $names | tr ' ' '\n' | xargs -P "${BUILD_JOBS:-$(nproc 2>/dev/null || echo 4)}" -I{} sh -c '
  n={}
  for k in native gsan; do
    cp -r "$W/src/$n-cuda" "$W/$k/"
    if [ $k = native ]; then cc=nvcc; else cc="$GSAN nvcc"; fi
    t0=$(date +%s.%N)
    GSAN_CACHE="$W/cache/$n" make -C "$W/$k/$n-cuda" CC="$cc" ARCH=sm_90 ${EXTRA:+"EXTRA_CFLAGS=$EXTRA"} >"$LOGDIR/$n.build-$k" 2>&1 ||
      echo "$n: $k build failed (see $LOGDIR/$n.build-$k)"
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" "BEGIN { printf \"%.2f\\n\", b - a }" >"$LOGDIR/$n.buildtime-$k"
  done'

if [ "$REGISTERS" = 1 ]; then
  export BENCH_CMD="sh $ME --registers${*:+ -- $*}"
  exec python3 bench/corpus_regs.py "$LOGDIR" "$RESULTS" "$(cat "$W/hecbench-rev" 2>/dev/null || echo unknown)" $names
fi

# runs: native and gsan alternating, REPS each, then compute-sanitizer once
prog_of() { sed -n 's/^program *= *\([^ ]*\).*/\1/p' "$W/src/$1-cuda/Makefile" | head -n 1; }
args_of() {
  a=$(awk -v n="$1" '$1 == n { $1 = ""; $2 = ""; sub(/^ +/, ""); print }' "$W/list.txt")
  if [ -z "$a" ]; then
    a=$(awk '/^run:/ { getline; print; exit }' "$W/src/$1-cuda/Makefile" |
        sed 's/^[[:space:]]*\$(LAUNCHER)[[:space:]]*\.\/\$(program)[[:space:]]*//')
  fi
  echo "$a"
}
timed() {  # LOG LIMIT command...: runs it, appends "rc seconds" to LOG.time
  log=$1 limit=$2; shift 2
  t0=$(date +%s.%N)
  rc=0
  timeout -k 5 "$limit" "$@" >"$log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  awk -v r="$rc" -v a="$t0" -v b="$t1" 'BEGIN { printf "%s %.4f\n", r, b - a }' >>"$log.time"
}
for n in $names; do
  p=$(prog_of "$n"); p=${p:-main}
  args=$(args_of "$n")
  echo "$args" > "$LOGDIR/$n.args"
  rm -f "$LOGDIR/$n".*.t "$LOGDIR/$n.skipped"
  if [ "$BUDGET" -gt 0 ] && [ $(( $(date +%s) - T0 )) -ge "$BUDGET" ]; then
    echo "$ME: $n not run: past BUDGET=$BUDGET s" | tee "$LOGDIR/$n.skipped"
    continue
  fi
  [ -x "$W/native/$n-cuda/$p" ] || continue
  if [ $PROFILE = 1 ]; then
    # kernel by kernel, in launch order, mangled names (a copy's prefix kept)
    M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
    for k in native gsan; do
      if [ $k = native ]; then run=; else run="$GSAN run --"; fi
      [ -x "$W/$k/$n-cuda/$p" ] || continue
      (cd "$W/$k/$n-cuda" && timed "$LOGDIR/$n.ncu-$k" "$TIMEOUT" ncu --csv --print-kernel-base mangled \
        --clock-control none -c "${PROFILE_LAUNCHES:-200}" --metrics "$M" $run "./$p" $args)
    done
  fi
  for i in $(seq "$REPS"); do
    (cd "$W/native/$n-cuda" && timed "$LOGDIR/$n.native.$i" "$TIMEOUT" "./$p" $args)
    mv "$LOGDIR/$n.native.$i.time" "$LOGDIR/$n.native.$i.t" 2>/dev/null
    if [ -x "$W/gsan/$n-cuda/$p" ]; then
      (cd "$W/gsan/$n-cuda" && timed "$LOGDIR/$n.gsan.$i" "$TIMEOUT" "$GSAN" run -- "./$p" $args)
      mv "$LOGDIR/$n.gsan.$i.time" "$LOGDIR/$n.gsan.$i.t" 2>/dev/null
    fi
    if [ $PROFILE = 1 ]; then # the runtime alone: the native build under gsan run
      (cd "$W/native/$n-cuda" && timed "$LOGDIR/$n.rt.$i" "$TIMEOUT" "$GSAN" run -- "./$p" $args)
      mv "$LOGDIR/$n.rt.$i.time" "$LOGDIR/$n.rt.$i.t" 2>/dev/null
    fi
  done
  if [ "$CS" = 1 ]; then
    (cd "$W/native/$n-cuda" && timed "$LOGDIR/$n.cs.1" "$CS_TIMEOUT" compute-sanitizer --tool memcheck --print-limit 10 "./$p" $args)
    mv "$LOGDIR/$n.cs.1.time" "$LOGDIR/$n.cs.1.t" 2>/dev/null
  fi
  echo "$ME: $n done"
done

# this part's command, commit, date and device, for a report of parts
{
  echo "command: $BENCH_CMD"
  echo "commit: ${GSAN_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
  echo "programs: $names"
} > "$LOGDIR/run-$(echo $names | awk '{ print $1 }').txt"
[ $PROFILE = 1 ] && exec python3 bench/corpus_profile.py "$LOGDIR" $names
python3 bench/corpus.py "$LOGDIR" "$RESULTS" "$REPS" "$CS" "$CS_TIMEOUT" "$(cat "$W/hecbench-rev" 2>/dev/null || echo unknown)" $names
