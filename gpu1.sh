#!/bin/sh
# lead's scratch GPU script (not committed)
export PATH=/usr/local/cuda/bin:$PWD/.gpu-deps/bin:$PATH LD_LIBRARY_PATH=$PWD/.gpu-deps/lib PYTHONPATH=$PWD/.gpu-deps DEPS_DIR=.gpu-deps
export GSAN_REV
make -s -j16 all >/tmp/mk.log 2>&1 || tail -20 /tmp/mk.log
ls -la build/lib/gsan_binary_patch.fatbin
RT=$(make -pn check 2>/dev/null | sed -n 's/^RT_TESTS := //p' | head -1); make -s -j16 $RT build/bin/gsan-asan build/lib/fake/libsanitizer-public.so build/bin/test_binary_run >/tmp/mk2.log 2>&1 || tail /tmp/mk2.log
LIT="python3 -c 'from lit.main import main; main()'"
python3 -c "from lit.main import main; main()" -v -j 16 --param build=$PWD/build --param gpu=1 tests/gpu/uninstrumented tests/gpu/binary tests/runtime tests/bugs > /tmp/lit.log 2>&1
grep -E '^(FAIL|XPASS|UNRES|PASS: gsan-(uninstr|binary))|Passed|Failed|Unsupported' /tmp/lit.log
for f in $(grep '^FAIL' /tmp/lit.log | sed 's/.*:: \([^ ]*\) .*/\1/'); do echo "=== $f"; awk -v n="$f" 'index($0,"TEST ") && index($0,n){p=1} p{print} /^\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*$/{if(p)exit}' /tmp/lit.log | grep -v '^# executed' | tail -40; done
for f in build/binary/Output/*.out build/binary/Output/*.tmp.* ; do [ -f "$f" ] || continue; case $f in *.o) continue;; esac; file -b $f | grep -qi elf && continue; echo "--- $f"; head -12 "$f"; done 2>/dev/null | head -120
for t in device_heap_overflow device_heap_double_free device_heap_invalid_free device_heap_leak device_heap_uaf clean_device_heap; do echo "--- $t"; head -c 1500 build/bugs/Output/$t.cu.tmp.out 2>/dev/null; done
REPS=31 OUT=/tmp/alloc GSAN_REV=${GSAN_REV:-?} sh bench/alloc.sh > /tmp/alloc.txt 2>&1; tail -22 /tmp/alloc.txt; cp docs/results/alloc-latency.md $OUT/ 2>/dev/null
