#!/bin/sh
# The GPU stress tests (tests/gpu/stress) under binary mode (issue 25: no
# crash under --binary on any program of the suites), on a GPU machine: each
# program is built by plain nvcc as SASS only (nothing for gsan to
# instrument, as closed libraries ship) and run, once for each argument list
# its RUN lines give `gsan run -- %t`, natively and under
# `gsan run --binary`, each under a time limit (TIMEOUT, 300 s). A run
# crashed when its status is 128 or more (a signal) or 124 (the time limit)
# where the native run of the same arguments did not end that way (exit_paths
# kills itself on purpose). Its reports are not judged here: the lit suite
# does that for gsan's own builds. Writes docs/results/stress-binary.md
# (RESULTS= to change) with the command, commit, date and device, and logs
# under ${OUT:-build/gpu-stress-binary}; exit status 1 when a run crashed.
# Usage: sh tests/gpu/stress_binary.sh [TEST.cu ...]   (GSAN_REV names the
# revision where the tree has no history of its own)
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
LOGDIR=${OUT:-$TOP/build/gpu-stress-binary}
RESULTS=${RESULTS:-docs/results/stress-binary.md}
TIMEOUT=${TIMEOUT:-300}
PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$LOGDIR"
cmd="sh tests/gpu/stress_binary.sh${*:+ $*}"
make -s all >"$LOGDIR/make.log" 2>&1 || { echo "stress_binary.sh: make failed (see $LOGDIR/make.log)" >&2; exit 1; }
nvidia-smi -L >/dev/null 2>&1 || { echo "stress_binary.sh: no GPU (nvidia-smi -L failed)" >&2; exit 1; }
build/bin/gsan run --binary -- true >"$LOGDIR/probe.log" 2>&1 ||
  { echo "stress_binary.sh: gsan run --binary does not run here (see $LOGDIR/probe.log)" >&2; exit 1; }
SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ')
SM=${SM:-90}
tests=
for t in "$@"; do tests="$tests tests/gpu/stress/$(basename "$t")"; done
[ -n "$tests" ] || tests=$(ls tests/gpu/stress/*.cu)
rows=$LOGDIR/rows.txt
: >"$rows"
crashed=0
for src in $tests; do
  n=$(basename "$src" .cu)
  exe=$LOGDIR/$n
  if ! nvcc -g -lineinfo -gencode "arch=compute_$SM,code=sm_$SM" -o "$exe" "$src" -lcuda >"$exe.build" 2>&1; then
    echo "$n | (build failed) | - | - | build failed" >>"$rows"
    continue
  fi
  # the argument lists of its RUN lines' `gsan run ... -- %t ARGS` (one run
  # with none when they give none)
  # (%t.halt and the like are other builds of it: left out)
  grep -o '%gsan run [^|>]*-- %t[^>|]*' "$src" | sed 's/.*-- %t *//; s/ *$//' | grep -v '^\.' | sort -u >"$exe.args"
  [ -s "$exe.args" ] || echo >"$exe.args"
  while IFS= read -r args; do
    tag=$(echo "${args:-none}" | tr -c 'A-Za-z0-9_\n' _)
    # shellcheck disable=SC2086
    timeout "$TIMEOUT" "$exe" $args >"$exe.$tag.native" 2>&1
    rn=$?
    # shellcheck disable=SC2086
    timeout "$TIMEOUT" build/bin/gsan run --binary -- "$exe" $args >"$exe.$tag.binary" 2>&1
    rb=$?
    verdict=ok
    if { [ $rb -ge 128 ] || [ $rb -eq 124 ]; } && [ $rb -ne $rn ]; then verdict=CRASHED; crashed=$((crashed + 1)); fi
    kinds=$(sed -n 's/.*ERROR: GPUSanitizer: \([a-z-]*\).*/\1/p' "$exe.$tag.binary" | sort -u | paste -sd, -)
    echo "$n | ${args:-(none)} | $rn | $rb | $verdict | ${kinds:--}" >>"$rows"
  done <"$exe.args"
done
total=$(wc -l <"$rows")
{
  echo "# Stress tests under binary mode"
  echo
  echo "Command: \`$cmd\`  "
  echo "gsan commit: ${GSAN_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}  "
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')  "
  echo "Device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)  "
  echo "Toolkit: $(nvcc --version | tail -n 2 | head -n 1)"
  echo
  echo "Each program of tests/gpu/stress built by plain nvcc as SASS only (sm_$SM), run with each argument"
  echo "list its RUN lines give, natively and under \`gsan run --binary\` (time limit $TIMEOUT s). A run crashed"
  echo "when its status is a signal's (128 or more) or the time limit's (124) and the native run's is not."
  echo
  echo "| program | arguments | native status | --binary status | verdict | reports under --binary |"
  echo "|---|---|---|---|---|---|"
  sed 's/^/| /; s/$/ |/' "$rows"
  echo
  echo "stress under --binary: $total runs, $crashed crashed"
} >"$RESULTS"
cp "$RESULTS" "$LOGDIR/"
tail -n 1 "$RESULTS"
[ "$crashed" -eq 0 ]
