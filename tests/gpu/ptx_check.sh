#!/bin/sh
# GPU check of the instrumenter (run on a machine with an NVIDIA GPU):
# instrumented kernels compute what the plain ones do, and planted bugs reach
# the failure stub and leave a record in the ring buffer. Writes its log to
# ${OUT:-build/gpu} and prints a table.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
LOGDIR=${OUT:-build/gpu}
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
[ $fails = 0 ]
