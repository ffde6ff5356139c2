# Sourced by the GPU benchmark scripts (bench/run.sh, bench/uninstrumented.sh)
# after they set ME (their name), LOGDIR, REPS, CS_REPS and CS: names the
# command in BENCH_CMD, builds gsan, checks for a GPU
# and for compute-sanitizer (CS=0 without it), and sets names to the
# workloads asked for on the command line (all of bench/workloads by default),
# each checked to exist.
PATH=/usr/local/cuda/bin:$PATH
# the command as run, for the results file (gsan's options, settings and
# workloads included), before CS is changed below
export BENCH_CMD="${GSAN_OPTIONS:+GSAN_OPTIONS=$GSAN_OPTIONS }REPS=$REPS CS_REPS=$CS_REPS CS=$CS sh $ME${*:+ $*}"
die() { echo "$ME: $*" >&2; exit 1; }
make -s all >"$LOGDIR/make.log" 2>&1 || die "make failed (see $LOGDIR/make.log)"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 || die "no GPU (nvidia-smi -L failed)"
if [ "$CS" = 1 ] && ! command -v compute-sanitizer >/dev/null 2>&1; then
  echo "$ME: compute-sanitizer not found: its column is left out" >&2
  CS=0
fi
if [ $# -gt 0 ]; then names="$*"; else names=$(ls bench/workloads/*.cu | sed 's|.*/||; s|\.cu$||'); fi
for n in $names; do [ -f "bench/workloads/$n.cu" ] || die "no workload bench/workloads/$n.cu"; done
