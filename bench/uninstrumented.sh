#!/bin/sh
# What checking code gsan did not compile costs (needs a GPU): every workload
# in bench/workloads is built by plain nvcc as SASS only (no PTX: nothing for
# gsan to instrument, as with a closed library) and runs four ways, one after
# the other on the same GPU:
#   native             run alone
#   gsan               under gsan run, default options (allocations in gsan's
#                      arena; what the program's own checks cost)
#   gsan --binary      under gsan run --binary: every global access patched
#                      through NVIDIA's Sanitizer API (docs/binary.md)
#   compute-sanitizer  under compute-sanitizer --tool memcheck (CS_REPS
#                      repetitions after one warm-up: it is slow)
# Timing as bench/run.sh: each workload times itself with CUDA events and
# prints a checksum, which must equal the native one. Then the binary-mode
# bug programs (tests/gpu/binary) run under gsan run --binary and under
# compute-sanitizer: which of them each tool reports. The table is
# bench/uninstrumented_table.py's (it reads the logs with perf_table.py's
# parser). Writes docs/results/uninstrumented.md (RESULTS= to change), logs
# under ${OUT:-build/bench-uninstrumented}.
# Usage: sh bench/uninstrumented.sh [workload ...]   REPS, CS_REPS, CS=0, BUILD_JOBS, GSAN_REV,
# GSAN_OPTIONS (gsan's runs get them, and the results file names them)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
LOGDIR=${OUT:-build/bench-uninstrumented}
RESULTS=${RESULTS:-docs/results/uninstrumented.md}
REPS=${REPS:-11}
CS_REPS=${CS_REPS:-1}
CS=${CS:-1}
FLAGS="-O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
W=$LOGDIR/bin
GSAN=build/bin/gsan
mkdir -p "$LOGDIR" "$W"
ME=bench/uninstrumented.sh
. bench/setup.sh
[ -f build/lib/gsan_binary_patch.fatbin ] || die "gsan was built without binary mode (no Sanitizer API headers or no nvcc: see docs/binary.md)"
bugs=$(ls tests/gpu/binary/*.cu | sed 's|.*/||; s|\.cu$||')

# builds, in parallel: the workloads and the bug programs, plain nvcc
export FLAGS W LOGDIR
{ for n in $names; do echo "bench/workloads/$n.cu"; done; for b in $bugs; do echo "tests/gpu/binary/$b.cu"; done; } |
  xargs -P "${BUILD_JOBS:-$(nproc 2>/dev/null || echo 4)}" -I{} sh -c '
  n=$(basename {} .cu)
  nvcc $FLAGS -o "$W/$n" {} >"$LOGDIR/$n.build" 2>&1 || echo "$n: build failed (see $LOGDIR/$n.build)"'
for n in $names $bugs; do [ -x "$W/$n" ] || die "$n did not build (see $LOGDIR/$n.build)"; done

# runs: each to its own log. The binary runs say what they patched
# (verbosity=1), so a run that patched nothing is seen in the table.
for n in $names; do
  "$W/$n" --reps "$REPS" >"$LOGDIR/$n.native" 2>&1 || echo "bench/uninstrumented.sh: $n failed natively" >&2
  $GSAN run -- "$W/$n" --reps "$REPS" >"$LOGDIR/$n.gsan" 2>&1 || echo "bench/uninstrumented.sh: $n failed under gsan" >&2
  $GSAN run --binary --opt verbosity=1 -- "$W/$n" --reps "$REPS" >"$LOGDIR/$n.binary" 2>&1 ||
    echo "bench/uninstrumented.sh: $n failed under gsan --binary" >&2
  if [ "$CS" = 1 ]; then
    compute-sanitizer --tool memcheck --print-limit 10 "$W/$n" --reps "$CS_REPS" --warmup 1 >"$LOGDIR/$n.cs" 2>&1 ||
      echo "bench/uninstrumented.sh: $n failed under compute-sanitizer" >&2
  fi
done
# the bug programs: halt_on_error=0, so that every error of a run is counted
for b in $bugs; do
  $GSAN run --binary --opt halt_on_error=0 -- "$W/$b" >"$LOGDIR/$b.binary" 2>&1
  [ "$CS" = 1 ] && compute-sanitizer --tool memcheck "$W/$b" >"$LOGDIR/$b.cs" 2>&1
done

python3 bench/uninstrumented_table.py "$LOGDIR" "$RESULTS" "$REPS" "$CS_REPS" "$CS" "$names" "$bugs"
status=$?
[ -f "$RESULTS" ] && cp "$RESULTS" "$LOGDIR/uninstrumented.md"
exit $status
