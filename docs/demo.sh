#!/bin/sh
# make demo, on a bundled example with an off-by-one bug (docs/demo/saxpy.cu):
# gsan scan finds it in the source and gives the input that triggers it (no
# GPU needed); gsan ptx instruments its kernel, shown side by side with the
# checks gsan put before each access; on a machine with an NVIDIA GPU the
# program is built with gsan nvcc and run under gsan run at the witness's
# input, which prints the report.
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
G="$BUILD/bin/gsan"
OUT="$BUILD/demo"
mkdir -p "$OUT"
if [ -x "$BUILD/bin/gsan-scan" ]; then
  echo "== gsan scan docs/demo/saxpy.cu   (static: no GPU, no run)"
  echo
  "$G" scan docs/demo/saxpy.cu >"$OUT/scan.txt" 2>&1 || true
  # the finding about the store, its notes and witness; then the summary
  awk '/warning: out-of-bounds write/ { on = 1 } on { print } on && /^note: witness/ { exit }' "$OUT/scan.txt"
  tail -n 1 "$OUT/scan.txt"
  echo
else
  echo "(gsan-scan is not built here: 'make check' installs libclang and Z3 and builds it)"
  echo
fi
SRC=docs/demo/saxpy.ptx
if command -v nvcc >/dev/null 2>&1; then
  # the example is compiled fresh when nvcc is here; the bundled PTX otherwise
  nvcc -ptx -arch=sm_90 -O3 -lineinfo docs/demo/saxpy.cu -o "$OUT/saxpy.ptx" 2>/dev/null && SRC="$OUT/saxpy.ptx"
fi
"$G" ptx --stats "$SRC" -o "$OUT/saxpy.gsan.ptx" 2>"$OUT/stats.txt"
echo "== gsan ptx $SRC -o $OUT/saxpy.gsan.ptx"
echo
echo "The kernel writes y[i] = a*x[i] + y[i] for i <= n: one element too far."
echo "Left: each access as nvcc wrote it. Right: what gsan inserted before it (and, once per"
echo "pointer, after the pointer is loaded: the lookup of its allocation's bounds). The store to"
echo "y[i] is at the address the load of y[i] reads: one merged check covers both."
echo
awk '
  function clean(l) { sub(/^\t+/, "", l); gsub(/\t/, " ", l); return l }
  /^\.visible \.entry/ { inkernel = 1 }
  inkernel && /gsan: bounds of the pointer/ { printf "%-40s | %s\n", "", clean($0); lookup = 1; next }
  inkernel && lookup && /max\.s64/ { printf "%-40s |   (arena lookup: base and size)\n%-40s | %s\n", "", "", clean($0); lookup = 0; next }
  inkernel && lookup { next }
  inkernel && /gsan: check/ { n = 0; check = 1 }
  inkernel && check { rows[n++] = clean($0); if ($0 ~ /bra/) { check = 0; getline;
      printf "%-40s | %s\n", clean($0), rows[0]; for (k = 1; k < n; k++) printf "%-40s | %s\n", "", rows[k]; print "" } next }
  inkernel && /^\$L__gsan_fail_0:/ { print "Out of line, after the last instruction, the failure stub:"; stub = 1; shown = 0 }
  stub { if (shown < 6 || $0 ~ /call|trap/) printf "%-40s | %s\n", "", clean($0); else if (shown == 6) printf "%-40s |   ...\n", ""; shown++; if ($0 ~ /trap/) exit }
' "$OUT/saxpy.gsan.ptx"
echo
cat "$OUT/stats.txt"
echo
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi >/dev/null 2>&1; then
  echo "== A GPU is here: the example built with gsan nvcc and run under gsan run at the witness's n = 15"
  echo
  "$BUILD/bin/gsan" nvcc -g -arch=native -o "$OUT/saxpy" docs/demo/saxpy.cu
  "$BUILD/bin/gsan" run -- "$OUT/saxpy" 15 || echo "(exit status $?: gsan reported errors)"
else
  echo "No GPU on this machine. On one, 'make demo' builds the example with gsan nvcc and runs it under"
  echo "gsan run at the witness's input: the report names the kind (global-buffer-overflow), the access (WRITE of"
  echo "size 4), the thread and block, the kernel and its source line, the allocation it overflowed and"
  echo "where the host allocated it. The whole bug suite on an H100, beside compute-sanitizer, is in"
  echo "docs/results/detection.md (and, for the instrumenter alone, docs/results/ptx-gpu.md)."
fi
