#!/bin/sh
# Where nw_tile's time goes under gsan (needs a GPU and ncu): per-SASS-instruction
# executed counts (ncu source page, csv) of launch 600 of nw_tile, native and
# gsan, and instructions, warps and duration of launches 600-602. Output: $OUT.
# Usage: OUT=dir sh bench/ncu_nw.sh
set -u
PATH=/usr/local/cuda/bin:$PATH
: "${OUT:?set OUT to a directory for the output}"
mkdir -p "$OUT"
nvidia-smi -L
make -s all > $OUT/make.log 2>&1 || { tail -20 $OUT/make.log; exit 1; }
W=build/bench/workloads; mkdir -p $W
nvcc -O3 -std=c++17 -arch=sm_90 -o $W/nw bench/workloads/nw.cu
GSAN_CACHE=$W/cache-nw build/bin/gsan nvcc -O3 -std=c++17 -arch=sm_90 -o $W/nw-gsan bench/workloads/nw.cu
cuobjdump -sass $W/nw-gsan > $OUT/nw-gsan.sass
M="smsp__inst_executed.sum,smsp__warps_launched.sum,gpu__time_duration.sum,sm__cycles_elapsed.max"
for v in native gsan; do
  if [ $v = native ]; then cmd="$W/nw --reps 1 --warmup 0"; else cmd="build/bin/gsan run -- $W/nw-gsan --reps 1 --warmup 0"; fi
  timeout 200 ncu --clock-control none -k regex:nw_tile -s 600 -c 1 --section SourceCounters --page source --print-source sass --csv $cmd > $OUT/src-$v.csv 2> $OUT/src-$v.err
  echo "$v source page rc=$? lines=$(wc -l < $OUT/src-$v.csv)"
  timeout 200 ncu --clock-control none -k regex:nw_tile -s 600 -c 3 --metrics $M $cmd > $OUT/met-$v.txt 2>&1
  grep -E "inst_executed|warps_launched|duration|cycles_elapsed" $OUT/met-$v.txt | head -12
done
head -5 $OUT/src-gsan.csv | cut -c1-400
