#!/bin/sh
# Seeds for the fuzzers, made from the test corpus into BUILD/fuzz/seeds:
#   ptx/     every PTX file of tests/ptx and of the nvcc/NVRTC/clang/Triton
#            corpus (BUILD/corpus, `make corpus`) up to 64 KiB;
#   fatbin/  module images as NVIDIA's tools write them: the cubin of a module
#            gsan instrumented (it carries a site table), fatbins of it
#            (compressed and not), and nvcc -fatbin of a kernel, plain and
#            through gsan nvcc;
#   scan/    the CUDA programs of tests/scan (gsan scan's tests).
# Usage: seeds.sh BUILD (run from the repository root; nvcc, ptxas and
# fatbinary on PATH or in /usr/local/cuda/bin).
set -eu
BUILD=$1
PATH="$PATH:/usr/local/cuda/bin"
out=$BUILD/fuzz/seeds
rm -rf "$out"
mkdir -p "$out/ptx" "$out/fatbin" "$out/scan" "$out/tmp"
find tests/ptx "$BUILD/corpus" -name '*.ptx' -size -65k | while read -r f; do
  cp "$f" "$out/ptx/$(echo "$f" | tr / _)"
done
fb=$out/fatbin
"$BUILD/bin/gsan" ptx -q docs/demo/saxpy.ptx -o "$out/tmp/saxpy.ptx"
ptxas -arch=sm_90 "$out/tmp/saxpy.ptx" -o "$fb/saxpy.cubin"
fatbinary -64 --create="$fb/saxpy.z.fatbin" --image3=kind=elf,sm=90,file="$fb/saxpy.cubin" \
  --image3=kind=ptx,sm=90,file="$out/tmp/saxpy.ptx"
fatbinary -64 --compress=false --create="$fb/saxpy.fatbin" --image3=kind=elf,sm=90,file="$fb/saxpy.cubin" \
  --image3=kind=ptx,sm=90,file="$out/tmp/saxpy.ptx"
nvcc -fatbin -arch=sm_80 tests/ptx/kernels/stencil_1d.cu -o "$fb/stencil_1d.fatbin"
"$BUILD/bin/gsan" nvcc -fatbin -arch=sm_90 tests/ptx/kernels/histogram_shared.cu -o "$fb/histogram_shared.gsan.fatbin"
cp tests/scan/*.cu "$out/scan/"
rm -rf "$out/tmp"
echo "gsan fuzz: seeds: $(ls "$out/ptx" | wc -l) PTX files, $(ls "$fb" | wc -l) module images, $(ls "$out/scan" | wc -l) CUDA programs in $out"
