#!/bin/sh
# lead's scratch GPU script (not committed)
export PATH=/usr/local/cuda/bin:$PWD/.gpu-deps/bin:$PATH LD_LIBRARY_PATH=$PWD/.gpu-deps/lib PYTHONPATH=$PWD/.gpu-deps DEPS_DIR=.gpu-deps
make -s -j16 all >/tmp/mk.log 2>&1 || tail -20 /tmp/mk.log
ls -la build/lib/gsan_binary_patch.fatbin
RT=$(make -pn check 2>/dev/null | sed -n 's/^RT_TESTS := //p' | head -1); make -s -j16 $RT build/bin/gsan-asan >/tmp/mk2.log 2>&1 || tail /tmp/mk2.log
LIT="python3 -c 'from lit.main import main; main()'"
python3 -c "from lit.main import main; main()" -v -j 16 --param build=$PWD/build --param gpu=1 tests/gpu/uninstrumented tests/gpu/binary tests/runtime/binary_run.test tests/runtime/binary.test tests/runtime/canary.test tests/bugs > /tmp/lit.log 2>&1
grep -E '^(FAIL|XPASS|UNRES|PASS: gsan-(uninstr|binary))|Passed|Failed|Unsupported' /tmp/lit.log
for f in $(grep '^FAIL' /tmp/lit.log | sed 's/.*:: \([^ ]*\) .*/\1/'); do echo "=== $f"; awk -v n="$f" 'index($0,"TEST ") && index($0,n){p=1} p{print} /^\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*$/{if(p)exit}' /tmp/lit.log | grep -v '^# executed' | tail -40; done
for f in build/binary/Output/*.out build/binary/Output/*.tmp.* ; do [ -f "$f" ] || continue; case $f in *.o) continue;; esac; file -b $f | grep -qi elf && continue; echo "--- $f"; head -12 "$f"; done 2>/dev/null | head -120
