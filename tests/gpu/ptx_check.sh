#!/bin/sh
# GPU check of the instrumenter (run on a machine with an NVIDIA GPU):
# instrumented kernels compute what the plain ones do, and planted bugs reach
# the failure stub and leave a record in the ring buffer. Writes its log to
# ${OUT:-build/gpu}, prints a table and writes docs/results/ptx-gpu.md
# (RESULTS= to change; GSAN_REV= names the commit where the checkout has no
# .git).
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
LOGDIR=${OUT:-build/gpu}
RESULTS=${RESULTS:-docs/results/ptx-gpu.md}
. "$TOP/tests/gpu/results_head.sh"
mkdir -p "$LOGDIR" build/gpu
W=build/gpu
make -s all >/dev/null || exit 1
nvcc -ptx -arch=sm_90 -O3 -lineinfo tests/gpu/loader_kernels.cu -o $W/k.ptx || exit 1
build/bin/gsan ptx --stats $W/k.ptx -o $W/k.gsan.ptx 2>"$LOGDIR/stats.txt" || exit 1
build/bin/gsan ptx --recover $W/k.ptx -o $W/k.recover.ptx || exit 1
nvcc -std=c++17 -Iinclude -O2 tests/gpu/ptx_loader.cu -o $W/ptx_loader -lcuda || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$LOGDIR/device.txt" 2>&1
fails=0
printf '%-12s %s\n' test result >"$LOGDIR/table.txt"
: >"$LOGDIR/tests.log"
for t in compare oob_global oob_shared oob_local uaf recover oob_merged oob_neighbor; do
  inst=$W/k.gsan.ptx
  [ $t = recover ] && inst=$W/k.recover.ptx
  $W/ptx_loader $W/k.ptx $inst $t >"$W/$t.log" 2>&1
  rc=$?
  cat "$W/$t.log" >>"$LOGDIR/tests.log"
  res=$(tail -n 1 "$W/$t.log")
  [ $rc = 0 ] || fails=$((fails + 1))
  printf '%-12s %s\n' $t "$res" >>"$LOGDIR/table.txt"
done
cut -c1-220 "$LOGDIR/tests.log" | head -150
echo
cat "$LOGDIR/device.txt" "$LOGDIR/table.txt"
echo "$((8 - fails)) passed, $fails failed"
{
  results_head "# Instrumented PTX on the GPU" "sh tests/gpu/ptx_check.sh"
  cat <<'TXT'
Kernels from `tests/gpu/loader_kernels.cu`, compiled with `nvcc -ptx -arch=sm_90 -O3 -lineinfo`,
instrumented by `gsan ptx` (and `gsan ptx --recover` for the recover test), loaded by the driver's JIT
through `tests/gpu/ptx_loader.cu`, which lays out an arena and slot tables as `include/gsan/abi.h` says
by hand (independently of the runtime, to test the instrumenter alone).

- `compare`: correct kernels (global, shared tile, dynamic shared split, pointers loaded from memory,
  local array) run plain and instrumented; outputs compared bit for bit; no ring record.
- `oob_global`, `oob_shared` (into the next shared array), `oob_local`, `uaf` (slot entry cleared),
  `oob_merged` (one merged range check for `in[i-1..i+1]`; only the +1 access may be reported),
  `oob_neighbor` (`a[i+1024]` lands inside another live allocation; reported against `a`'s bounds):
  the launch traps and the ring holds records that name the access, its source line and the bounds.
- `recover`: the `--recover` build skips the bad accesses, the kernel completes, in-bounds results are right.
TXT
  echo
  echo '```'
  cat "$LOGDIR/table.txt"
  echo "$((8 - fails)) passed, $fails failed"
  echo '```'
  echo
  echo 'The instrumenter'"'"'s counts (`gsan ptx --stats`):'
  echo
  echo '```'
  cat "$LOGDIR/stats.txt"
  echo '```'
} >"$RESULTS"
[ $fails = 0 ]
