#!/bin/sh
# The performance suite (needs a GPU): every workload in bench/workloads runs
# three ways, one after the other on the same GPU:
#   native            nvcc $FLAGS, run alone
#   gsan              gsan nvcc $FLAGS, run under gsan run
#   compute-sanitizer nvcc $FLAGS, run under compute-sanitizer --tool memcheck
#                     (CS_REPS repetitions after one warm-up: it is slow)
# Each workload times itself with CUDA events (bench/workloads/bench.h: the
# median of REPS repetitions after a warm-up) and prints a checksum of its
# result; gsan's and compute-sanitizer's checksums must equal the native one.
# Registers and occupancy come from each build's own cudaFuncGetAttributes,
# build times from the two compilers. Writes docs/results/perf.md (RESULTS=
# to change) and logs under ${OUT:-build/bench}; prints the table.
# Usage: sh bench/run.sh [workload ...]     REPS, CS_REPS, CS=0 (skip it), BUILD_JOBS,
# GSAN_OPTIONS (gsan's runs get them, and the results file names them),
# GSAN_REV (the revision to name when the copy measured has no current .git)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
LOGDIR=${OUT:-build/bench}
RESULTS=${RESULTS:-docs/results/perf.md}
REPS=${REPS:-11}
CS_REPS=${CS_REPS:-1}
CS=${CS:-1}
FLAGS="-O3 -std=c++17 -arch=sm_90"
W=build/bench/workloads
GSAN=build/bin/gsan
mkdir -p "$LOGDIR" "$W"
ME=bench/run.sh
. bench/setup.sh

# builds, each timed: native and gsan nvcc of one workload one after the
# other, workloads in parallel (BUILD_JOBS, default the CPU count)
export FLAGS W GSAN LOGDIR
echo $names | tr ' ' '\n' | xargs -P "${BUILD_JOBS:-$(nproc 2>/dev/null || echo 4)}" -I{} sh -c '
  n={}; src=bench/workloads/$n.cu
  t0=$(date +%s.%N)
  nvcc $FLAGS -o "$W/$n" "$src" >"$LOGDIR/$n.build-native" 2>&1 || { echo "$n: native build failed"; exit 0; }
  t1=$(date +%s.%N)
  GSAN_CACHE="$W/cache-$n" $GSAN nvcc $FLAGS -o "$W/$n-gsan" "$src" >"$LOGDIR/$n.build-gsan" 2>&1 ||
    { echo "$n: gsan build failed"; exit 0; }
  t2=$(date +%s.%N)
  awk -v n="$n" -v a="$t0" -v b="$t1" -v c="$t2" "BEGIN { printf \"%s %.2f %.2f\\n\", n, b - a, c - b }" >"$LOGDIR/$n.buildtime"'
cat "$LOGDIR"/*.buildtime >"$LOGDIR/builds.txt" 2>/dev/null
for n in $names; do [ -x "$W/$n" ] && [ -x "$W/$n-gsan" ] || die "$n did not build (see $LOGDIR/$n.build-*)"; done

# runs: native, gsan, compute-sanitizer, each to its own log
for n in $names; do
  "$W/$n" --reps "$REPS" >"$LOGDIR/$n.native" 2>&1 || echo "bench/run.sh: $n failed natively (see $LOGDIR/$n.native)" >&2
  $GSAN run --opt print_stats=1 -- "$W/$n-gsan" --reps "$REPS" >"$LOGDIR/$n.gsan" 2>&1 ||
    echo "bench/run.sh: $n failed under gsan (see $LOGDIR/$n.gsan)" >&2
  if [ "$CS" = 1 ]; then
    compute-sanitizer --tool memcheck --print-limit 10 "$W/$n" --reps "$CS_REPS" --warmup 1 >"$LOGDIR/$n.cs" 2>&1 ||
      echo "bench/run.sh: $n failed under compute-sanitizer (see $LOGDIR/$n.cs)" >&2
  fi
done

# the table; its status is 1 when a run failed, a checksum differed or a
# tool reported an error on these correct programs
python3 bench/perf_table.py "$LOGDIR" "$RESULTS" "$REPS" "$CS_REPS" "$CS" $names
status=$?
[ -f "$RESULTS" ] && cp "$RESULTS" "$LOGDIR/perf.md"
exit $status
