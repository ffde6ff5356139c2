#!/bin/sh
# The runtime's parts on a GPU (see runtime_check.cu): prints each scenario's
# reports and a table; logs under ${OUT:-build/gpu}; writes
# docs/results/runtime-gpu.md (RESULTS= to change; GSAN_REV= names the commit
# where the checkout has no .git).
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
LOGDIR=${OUT:-build/gpu}
RESULTS=${RESULTS:-docs/results/runtime-gpu.md}
. "$TOP/tests/gpu/results_head.sh"
W=build/gpu
mkdir -p "$LOGDIR" $W
make -s all >/dev/null || exit 1
nvcc -ptx -arch=sm_90 -O3 -lineinfo tests/gpu/loader_kernels.cu -o $W/k.ptx || exit 1
build/bin/gsan ptx -q $W/k.ptx -o $W/k.gsan.ptx || exit 1
for f in rt_arena rt_ring rt_sites rt_report rt_report_kinds rt_suppress rt_vmm_cuda; do
  cc -std=c11 -O2 -D_GNU_SOURCE -Iinclude -I/usr/local/cuda/include -c src/runtime/$f.c -o $W/$f.o || exit 1
done
nvcc -std=c++17 -O2 -Iinclude tests/gpu/runtime_check.cu $W/rt_arena.o $W/rt_ring.o $W/rt_sites.o $W/rt_report.o \
  $W/rt_report_kinds.o $W/rt_suppress.o $W/rt_vmm_cuda.o -o $W/runtime_check -lcuda -lpthread || exit 1
fails=0
: >"$LOGDIR/runtime.log"
: >"$LOGDIR/runtime-table.txt"
for t in clean overflow uaf neighbor shared double_free; do
  case $t in
    clean) want='0 wrong results' ;;
    overflow) want='ERROR: GPUSanitizer: global-buffer-overflow' ;;
    uaf) want='ERROR: GPUSanitizer: use-after-free' ;;
    neighbor) want='ERROR: GPUSanitizer: global-buffer-overflow' ;;
    shared) want="ERROR: GPUSanitizer: shared-buffer-overflow" ;;
    double_free) want='ERROR: GPUSanitizer: double-free' ;;
  esac
  $W/runtime_check $W/k.gsan.ptx $t >$W/$t.out 2>&1
  echo "== $t" >>"$LOGDIR/runtime.log"
  cat $W/$t.out >>"$LOGDIR/runtime.log"
  if grep -q "$want" $W/$t.out; then r=PASS; else r=FAIL; fails=$((fails + 1)); fi
  printf '%-12s %s\n' $t $r | tee -a "$LOGDIR/runtime-table.txt"
done
cat "$LOGDIR/runtime.log"
echo "$((6 - fails)) passed, $fails failed"
{
  results_head "# The runtime's parts on a GPU" "sh tests/gpu/runtime_check.sh"
  echo '`tests/gpu/runtime_check.cu` drives the runtime'"'"'s parts without interposition: the arena (`rt_arena.c`) on the'
  echo 'driver'"'"'s VMM calls (`rt_vmm_cuda.c`) with the default layout, the ring drained by `rt_ring.c`, the site'
  echo 'table read from the loaded module (`rt_sites.c`), reports printed through the report scope (`rt_report.c`,'
  echo '`rt_report_kinds.c`). Kernels: `tests/gpu/loader_kernels.cu` instrumented by `gsan ptx` and JIT-loaded.'
  echo
  echo '```'
  cat "$LOGDIR/runtime-table.txt"
  echo "$((6 - fails)) passed, $fails failed"
  echo '```'
  echo
  echo 'Output:'
  echo
  echo '```'
  cat "$LOGDIR/runtime.log"
  echo '```'
} >"$RESULTS"
[ $fails = 0 ]
