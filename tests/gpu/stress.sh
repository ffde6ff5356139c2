#!/bin/sh
# The GPU stress tests (tests/gpu/stress, issue 7), on a GPU machine: each
# program is built by gsan nvcc and run under gsan run through lit, with a
# time limit on every run (a hang fails). Prints a table and writes
# docs/results/stress.md (RESULTS= to change) with the command, date, device,
# each test's verdict and time, and the lines its runs printed that the
# CHECK lines look at. Logs under ${OUT:-build/gpu-stress}.
# Usage: sh tests/gpu/stress.sh [TEST.cu ...]   (GSAN_REV names the revision
# where the tree has no history of its own)
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
case ${OUT:-} in
  "") LOGDIR=$TOP/build/gpu-stress ;;
  /*) LOGDIR=$OUT ;;
  *) LOGDIR=$TOP/$OUT ;;
esac
RESULTS=${RESULTS:-docs/results/stress.md}
PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$LOGDIR"
cmd="sh tests/gpu/stress.sh${*:+ $*}"
make -s all >"$LOGDIR/make.log" 2>&1 || { echo "stress.sh: make failed (see $LOGDIR/make.log)" >&2; exit 1; }
nvidia-smi -L >/dev/null 2>&1 || { echo "stress.sh: no GPU (nvidia-smi -L failed)" >&2; exit 1; }
tests=
for t in "$@"; do tests="$tests tests/gpu/stress/$(basename "$t")"; done
[ -n "$tests" ] || tests=tests/gpu/stress
# one at a time: several of them fill the device or time themselves
start=$(date +%s)
python3 -c "from lit.main import main; main()" -v -j 1 --time-tests --param build="$TOP/build" --param gpu=1 $tests \
  >"$LOGDIR/lit.log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
out=$TOP/build/stress/Output

rows=$LOGDIR/rows.txt
: >"$rows"
for src in tests/gpu/stress/*.cu; do
  n=$(basename "$src")
  v=$(sed -n "s/^\([A-Z]*\): gsan-stress :: $n (.*/\1/p" "$LOGDIR/lit.log" | head -n 1)
  [ -n "$v" ] || continue
  t=$(sed -n "s/^ *\([0-9.]*\)s: gsan-stress :: $n\$/\1/p" "$LOGDIR/lit.log" | head -n 1)
  echo "$n ${v} ${t:-?}" >>"$rows"
done
[ -s "$rows" ] || { tail -30 "$LOGDIR/lit.log" >&2; echo "stress.sh: lit ran no test (log: $LOGDIR/lit.log)" >&2; exit 1; }
passed=$(awk '$2 == "PASS"' "$rows" | wc -l)
total=$(wc -l <"$rows")

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
if [ -n "${GSAN_REV:-}" ]; then rev=$GSAN_REV; else rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown); fi
mkdir -p "$(dirname "$RESULTS")"
{
  echo "# GPU stress tests"
  echo
  echo "Command: \`$cmd\`"
  echo
  echo "- date: $(date -u)"
  echo "- device: ${gpu:-unknown} (nvidia-smi: name, driver)"
  echo "- nvcc: $(nvcc --version | grep -i release | head -n 1)"
  echo "- gsan: git $rev"
  echo "- each program is built with \`gsan nvcc\` and run under \`gsan run\` by lit (\`tests/gpu/stress/lit.cfg.py\`);"
  echo "  its RUN lines give each run a time limit, so a hang fails; its CHECK lines are what passing means"
  echo "- total: $secs s; logs: \`$LOGDIR\`"
  echo
  echo "| test | verdict | seconds |"
  echo "|---|---|---:|"
  awk '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' "$rows"
  echo
  echo "## What the runs printed"
  echo
  echo "The lines of each run's output that its CHECK lines look at (program and gsan lines; the full"
  echo "outputs are lit's \`%t\` files under \`build/stress/Output\`)."
  while read -r n v t; do
    echo
    echo "### $n ($v)"
    echo
    echo '```'
    for f in "$out/$n.tmp"*; do
      [ -f "$f" ] || continue
      case $f in *.d|*/*.o) continue ;; esac
      grep -a -I -q . "$f" 2>/dev/null || continue
      if file -b "$f" 2>/dev/null | grep -q -i elf; then continue; fi
      lines=$(grep -a -E 'ERROR: GPUSanitizer|of size|hit [0-9]+ times|not recorded|leaked|stats: device [0-9]+: [0-9]+ allocations|^[a-z][a-z _]*[a-z]( [a-z0-9]+)?:|leaving by|when full:|GPUSanitizer: |exit status' "$f" | head -n 12)
      [ -n "$lines" ] || continue
      echo "== $(basename "$f")"
      echo "$lines"
    done
    echo '```'
  done <"$rows"
  echo
  echo "stress: $passed of $total passed"
} >"$RESULTS"
case $(cd "$(dirname "$RESULTS")" && pwd) in
  "$LOGDIR") ;;
  *) cp "$RESULTS" "$LOGDIR/stress.md" ;;
esac
awk '{ printf "%-32s %-12s %8s s\n", $1, $2, $3 }' "$rows"
echo "stress: $passed of $total passed (report: $RESULTS)"
[ "$rc" = 0 ] && [ "$passed" = "$total" ]
