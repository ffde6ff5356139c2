#!/bin/sh
# The Python GPU stack under gsan (needs a GPU, PyTorch with Triton, LLVM's
# FileCheck): each test in this directory runs under `gsan run` and is held
# to what it must report (its CHECK lines, its exit status), and
# torch.compile's overhead is measured against native runs.
#   ext_build        the test extension (ext/), built by torch.utils.cpp_extension.load
#                    with gsan nvcc as its nvcc (PYTORCH_NVCC)
#   ext_oob          the extension writes one element past a tensor
#   ext_uaf          the extension reads a freed tensor through its stale data pointer
#   compile_clean    torch.compile'd MLP and attention blocks, trained: no report; timed
#                    natively (PyTorch's caching allocator on and off) and under gsan (its
#                    default, PyTorch's cudaMallocAsync backend; and the caching allocator on)
#   tensor_bounds_*  under gsan run's default for PyTorch: correct training steps, then a Triton
#                    store one element past a tensor (overflow), a load of a deleted tensor (uaf)
#   train_step       bench/torch_train.py (conv net and transformer block, eager and compiled):
#                    natively with PyTorch's caching allocator and under gsan's default, no report;
#                    the time per step of each
#   two_procs        two processes on one GPU (torchrun, else multiprocessing spawn), one
#                    gsan and one log each: one log with a Triton OOB report, one without
#   pluggable        gsan_torch_malloc/gsan_torch_free as PyTorch's allocator; a Triton
#                    OOB past a tensor gives the tensor's exact size
#   triton_overflow  tests/bugs/triton_overflow.py: a Triton store without its mask
#   triton_instrumented  every Triton kernel compiled under gsan here carries gsan's checks
#   nvrtc_overflow   tests/bugs/nvrtc_overflow.cu: an NVRTC kernel loaded as PTX writes past an array
#   clean_nvrtc      tests/bugs/clean_nvrtc.cu: NVRTC PTX loaded and linked, instrumented, no report
#   cupy_oob         a CuPy RawKernel (PTX under gsan run) writes past an array (SKIP without CuPy)
#   cupy_pool        a correct CuPy program with CuPy's memory pool on: no leak report (SKIP without CuPy)
#   jax_pool         a correct JAX program, XLA's platform allocator set by gsan run: no report
#                    (SKIP without JAX or its GPU)
# Prints a table (test, expected, got, result) and writes
# docs/results/frameworks.md (RESULTS= to change) after each test, so that a
# run cut short still leaves what it saw. Work and logs in ${WORK:-build/frameworks};
# where OUT is set (a device machine's output folder), frameworks.md and a
# tarball of the logs are copied there too.
# Usage: sh tests/gpu/frameworks/run.sh [ext] [compile] [two_procs] [pluggable] [bounds] [train] [triton] [nvrtc]
#        [cupy] [pools]
#   (no names: all of them)
#   PYTHON        the interpreter with torch and triton (default python3)
#   FILECHECK     LLVM's FileCheck, when it is neither on PATH nor in /usr/lib/llvm-*/bin
#   TEST_TIMEOUT  seconds for each command (default 300)
#   GSAN_REV      the revision to name when the copy run has no current .git
set -u
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$TOP" || exit 1
F=tests/gpu/frameworks
WORK=${WORK:-build/frameworks}
RESULTS=${RESULTS:-docs/results/frameworks.md}
PY=${PYTHON:-python3}
GSAN=$TOP/build/bin/gsan
TMO=${TEST_TIMEOUT:-300}
ONLY=" $* "
die() { echo "frameworks/run.sh: $*" >&2; exit 1; }
want() { [ "$ONLY" = "  " ] || case $ONLY in *" $1 "*) true ;; *) false ;; esac; }
for a in "$@"; do
  case $a in
    ext | compile | two_procs | pluggable | bounds | train | triton | nvrtc | cupy | pools) ;;
    *) die "no test group '$a' (ext compile two_procs pluggable bounds train triton nvrtc cupy pools)" ;;
  esac
done
mkdir -p "$WORK" || die "cannot make $WORK"
WORK=$(cd "$WORK" && pwd)
PATH=/usr/local/cuda/bin:$PATH
export PATH
make -s all >"$WORK/make.log" 2>&1 || die "make failed (see $WORK/make.log)"
nvidia-smi -L >/dev/null 2>&1 || die "no GPU (nvidia-smi -L failed)"
"$PY" -c 'import torch, triton' >/dev/null 2>&1 || die "$PY cannot import torch and triton (PYTHON= names another)"
FILECHECK=${FILECHECK:-$(command -v FileCheck || ls /usr/lib/llvm-*/bin/FileCheck 2>/dev/null | tail -n 1)}
[ -n "$FILECHECK" ] && [ -x "$FILECHECK" ] || die "FileCheck not found (sh tests/deps.sh test installs it; FILECHECK= names one)"

# Everything compiled under gsan in this run is made afresh: the extension,
# and in GSAN_CACHE gsan nvcc's directory and, beside its ptxas wrapper,
# Triton's and Inductor's caches (gsan run sets them); the native runs get
# caches of their own.
rm -rf "$WORK/ext" "$WORK/gsan-cache" "$WORK/native-cache" "$WORK/two_procs" "$WORK"/*.out "$WORK"/*.filecheck
export GSAN_CACHE="$WORK/gsan-cache"
export GSAN_FW_EXT_DIR="$WORK/ext"
export PYTORCH_NVCC="$TOP/build/bin/gsan-nvcc"
NATIVE="TORCHINDUCTOR_CACHE_DIR=$WORK/native-cache/inductor TRITON_CACHE_DIR=$WORK/native-cache/triton"
D=$WORK/two_procs
if "$PY" -c 'import torch.distributed.run' >/dev/null 2>&1; then
  LAUNCH="$PY -m torch.distributed.run --standalone --nproc_per_node=2 $F/two_procs.py $D"
else
  LAUNCH="$PY $F/two_procs.py --spawn $D"
fi
ROWS=$WORK/rows.tsv
: >"$ROWS"

# the results file's header
if [ -n "${GSAN_REV:-}" ]; then
  rev=$GSAN_REV
else
  rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [ -n "$(git status --porcelain 2>/dev/null | head -n 1)" ]; then rev="$rev (with uncommitted changes)"; fi
fi
cmd="sh tests/gpu/frameworks/run.sh${*:+ $*}"
[ -n "${PYTHON:-}" ] && cmd="PYTHON=$PYTHON $cmd"
DATE=$(date -u)
DEVICE=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
VERSIONS=$("$PY" -c 'import sys, torch, triton
print("torch %s, triton %s, Python %s" % (torch.__version__, triton.__version__, sys.version.split()[0]))' 2>/dev/null |
  tail -n 1)
NVCC=$(nvcc --version 2>/dev/null | grep -i release | head -n 1)
LOGDIR=$WORK
export LOGDIR ROWS RESULTS rev cmd DATE DEVICE VERSIONS NVCC LAUNCH

# the results so far: frameworks.md, and with OUT set, it and the logs there
publish() {
  "$PY" $F/results.py >"$WORK/results.txt" 2>&1 || { cat "$WORK/results.txt"; die "writing $RESULTS failed"; }
  [ -n "${OUT:-}" ] || return 0
  mkdir -p "$OUT" && cp "$RESULTS" "$OUT/frameworks.md" &&
    (cd "$WORK" && tar czf "$OUT/frameworks-logs.tar.gz" make.log rows.tsv ./*.out ./*.filecheck ./*.logs 2>/dev/null)
  return 0
}
# row TEST EXPECTED GOT RESULT SECONDS
row() {
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$ROWS"
  printf '%-20s %-6s %s\n' "$1" "$4" "$3"
  publish
}
now() { date +%s; }
# ratio MODEL GSAN NATIVE: gsan's median ms per step of MODEL over native's
# (from WORK/GSAN.out and WORK/NATIVE.out, as compile_clean.py and
# bench/torch_train.py print it), as 1.23x; ? where either is missing
ratio() {
  awk -v a="$(sed -n "s/^$1: median \([0-9.]*\) ms per step.*/\1/p" "$WORK/$2.out" | head -n 1)" \
    -v b="$(sed -n "s/^$1: median \([0-9.]*\) ms per step.*/\1/p" "$WORK/$3.out" | head -n 1)" \
    'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else printf "?" }'
}
# a test's command, stopped after TMO seconds (exit status 124)
limited() { timeout -k 10 "$TMO" "$@"; }
# what a run reported: its first SUMMARY line, file paths cut to their names
summary() {
  s=$(sed -n 's/^SUMMARY: GPUSanitizer: //p' "$1" 2>/dev/null | head -n 1 | sed 's| /[^ ]*/| |; s| [^ ]*/\([^/ ]*:[0-9]\)| \1|')
  echo "${s:-no report}"
}
# bug TEST OUT RC CHECKFILE EXPECTED T0: a planted bug, found when gsan's
# exit status (1) comes with output that matches the CHECK lines
bug() {
  if [ "$3" = 1 ] && "$FILECHECK" "$4" <"$2" >"$2.filecheck" 2>&1; then r=PASS; else r=FAIL; fi
  row "$1" "$5" "$(summary "$2"), exit $3" "$r" $(($(now) - $6))
}
# clean TEST OUT RC CHECKFILE EXPECTED T0: a correct program, passed when it
# exits 0 with output that matches the CHECK lines (nothing reported)
clean() {
  if [ "$3" = 0 ] && "$FILECHECK" "$4" <"$2" >"$2.filecheck" 2>&1; then r=PASS; else r=FAIL; fi
  row "$1" "$5" "$(summary "$2"), exit $3" "$r" $(($(now) - $6))
}

if want ext; then
  # ext_build: natively (the test processes then find it up to date)
  t0=$(now)
  limited "$PY" $F/ext_common.py >"$WORK/ext_build.out" 2>&1
  rc=$?
  EXT=
  case $rc in
    0) row ext_build "built by gsan nvcc" "by $(sed -n 's/^extension built by: //p' "$WORK/ext_build.out" | tail -n 1)" \
         PASS $(($(now) - t0)) ;;
    77) EXT=$(sed -n 's/^SKIP: //p' "$WORK/ext_build.out" | head -n 1)
        row ext_build "built by gsan nvcc" "$EXT" SKIP $(($(now) - t0)) ;;
    *) EXT="the extension did not build (see ext_build.out)"
       row ext_build "built by gsan nvcc" "failed, exit $rc" FAIL $(($(now) - t0)) ;;
  esac
  for t in ext_oob ext_uaf; do
    case $t in
      ext_oob) expect="global-buffer-overflow oob_ext.cu:15 in fill_past" ;;
      *) expect="use-after-free oob_ext.cu:20 in copy_from" ;;
    esac
    if [ -n "$EXT" ]; then
      row $t "$expect" "$EXT" SKIP 0
      continue
    fi
    t0=$(now)
    limited "$GSAN" run -- "$PY" $F/$t.py >"$WORK/$t.out" 2>&1
    bug $t "$WORK/$t.out" $? $F/$t.py "$expect" "$t0"
  done
fi

if want compile; then
  # natively with the caching allocator on (PyTorch's default) and off,
  # under gsan with its default (PyTorch's cudaMallocAsync backend) and with
  # the caching allocator on
  t0=$(now)
  limited env -u PYTORCH_NO_CUDA_MEMORY_CACHING -u PYTORCH_CUDA_ALLOC_CONF $NATIVE "$PY" $F/compile_clean.py \
    >"$WORK/compile_native.out" 2>&1
  rn=$?
  limited env -u PYTORCH_CUDA_ALLOC_CONF PYTORCH_NO_CUDA_MEMORY_CACHING=1 $NATIVE "$PY" $F/compile_clean.py \
    >"$WORK/compile_native_nocache.out" 2>&1
  rnn=$?
  limited env -u PYTORCH_NO_CUDA_MEMORY_CACHING -u PYTORCH_CUDA_ALLOC_CONF "$GSAN" run -- "$PY" $F/compile_clean.py \
    >"$WORK/compile_gsan.out" 2>&1
  rg=$?
  limited env -u PYTORCH_CUDA_ALLOC_CONF PYTORCH_NO_CUDA_MEMORY_CACHING=0 "$GSAN" run -- "$PY" $F/compile_clean.py \
    >"$WORK/compile_gsan_cache.out" 2>&1
  rgc=$?
  r=PASS
  for o in compile_gsan compile_gsan_cache; do
    "$FILECHECK" --implicit-check-not=GPUSanitizer --implicit-check-not='==gsan:' $F/compile_clean.py \
      <"$WORK/$o.out" >"$WORK/$o.out.filecheck" 2>&1 || r=FAIL
  done
  [ "$rn$rnn$rg$rgc" = 0000 ] || r=FAIL
  ratios=
  for m in mlp attention; do
    ratios="$ratios, $m $(ratio $m compile_gsan compile_native) native"
  done
  row compile_clean "no report, compiled = eager" \
    "$(summary "$WORK/compile_gsan.out")$ratios; exit $rn/$rnn natively, $rg/$rgc under gsan" $r $(($(now) - t0))
fi

if want two_procs; then
  t0=$(now)
  mkdir -p "$D"
  limited "$GSAN" run --opt "log_path=$D/gsan.%p.log" -- $LAUNCH >"$WORK/two_procs.out" 2>&1
  rc=$?
  p0=$(sed -n 's/.*rank 0 pid \([0-9][0-9]*\)$/\1/p' "$WORK/two_procs.out" | head -n 1)
  p1=$(sed -n 's/.*rank 1 pid \([0-9][0-9]*\)$/\1/p' "$WORK/two_procs.out" | head -n 1)
  r=FAIL
  got="no rank pids in the output (exit $rc)"
  if [ -n "$p0" ] && [ -n "$p1" ]; then
    l0=$D/gsan.$p0.log
    l1=$D/gsan.$p1.log
    n0=$(grep -c 'ERROR: GPUSanitizer' "$l0" 2>/dev/null)
    n1=$(grep -c 'ERROR: GPUSanitizer' "$l1" 2>/dev/null)
    others=0 # the launcher's own, if it made one
    for l in "$D"/gsan.*.log; do
      case $l in "$l0" | "$l1") continue ;; esac
      if grep -q 'ERROR: GPUSanitizer' "$l" 2>/dev/null; then others=$((others + 1)); fi
    done
    got="rank 0 log: ${n0:-no log} ($(summary "$l0")), rank 1 log: ${n1:-no log}; other logs with reports: $others; exit $rc"
    if [ "${n0:-0}" -ge 1 ] && grep -q '#0 .*copy.* at .*two_procs.py:29' "$l0" && [ -f "$l1" ] && [ "${n1:-1}" = 0 ] &&
       [ "$others" = 0 ] && grep -q "rank 1 pid $p1: clean copy: ok" "$WORK/two_procs.out"; then r=PASS; fi
    { echo "== $l0"; cat "$l0" 2>/dev/null; echo "== $l1"; cat "$l1" 2>/dev/null; } >"$WORK/two_procs.logs"
  fi
  row two_procs "rank 0 log: global-buffer-overflow two_procs.py:29; rank 1 log: 0 reports" "$got" $r $(($(now) - t0))
fi

if want pluggable; then
  t0=$(now)
  # a program that installs an allocator of its own says so to gsan run by
  # setting PyTorch's allocator variables itself (PyTorch refuses a
  # pluggable allocator when its configuration names another backend)
  limited env -u PYTORCH_CUDA_ALLOC_CONF PYTORCH_NO_CUDA_MEMORY_CACHING=1 "$GSAN" run -- "$PY" $F/pluggable.py \
    >"$WORK/pluggable.out" 2>&1
  bug pluggable "$WORK/pluggable.out" $? $F/pluggable.py "global-buffer-overflow pluggable.py:40, 40000-byte tensor" "$t0"
fi

if want bounds; then
  # gsan run's default for PyTorch (the environment's choice left out)
  for w in clean overflow uaf; do
    t0=$(now)
    limited env -u PYTORCH_NO_CUDA_MEMORY_CACHING -u PYTORCH_CUDA_ALLOC_CONF "$GSAN" run -- "$PY" \
      $F/tensor_bounds.py $w >"$WORK/tensor_bounds_$w.out" 2>&1
    rc=$?
    case $w in
      clean)
        clean tensor_bounds_clean "$WORK/tensor_bounds_clean.out" $rc $F/tensor_bounds.py "no report" "$t0" ;;
      *)
        pre=$(echo $w | tr a-z A-Z)
        if [ $rc = 1 ] && "$FILECHECK" --check-prefixes=CHECK,$pre $F/tensor_bounds.py <"$WORK/tensor_bounds_$w.out" \
          >"$WORK/tensor_bounds_$w.out.filecheck" 2>&1; then r=PASS; else r=FAIL; fi
        case $w in
          overflow) want_="global-buffer-overflow tensor_bounds.py:42, 4000-byte tensor" ;;
          *) want_="use-after-free tensor_bounds.py:49, 4000-byte tensor freed" ;;
        esac
        row tensor_bounds_$w "$want_" "$(summary "$WORK/tensor_bounds_$w.out"), exit $rc" $r $(($(now) - t0)) ;;
    esac
  done
fi

if want train; then
  # natively with PyTorch's caching allocator, under gsan with its default
  t0=$(now)
  limited env -u PYTORCH_NO_CUDA_MEMORY_CACHING -u PYTORCH_CUDA_ALLOC_CONF $NATIVE "$PY" bench/torch_train.py \
    >"$WORK/train_native.out" 2>&1
  rn=$?
  limited env -u PYTORCH_NO_CUDA_MEMORY_CACHING -u PYTORCH_CUDA_ALLOC_CONF "$GSAN" run -- "$PY" bench/torch_train.py \
    >"$WORK/train_gsan.out" 2>&1
  rg=$?
  r=PASS
  [ "$rn$rg" = 00 ] && ! grep -q 'GPUSanitizer' "$WORK/train_gsan.out" &&
    grep -q '^allocator: cudaMallocAsync' "$WORK/train_gsan.out" || r=FAIL
  got=
  for m in "conv eager" "block eager" "conv compiled" "block compiled"; do
    got="$got${got:+, }$m $(ratio "$m" train_gsan train_native)"
  done
  row train_step "no report; gsan/native per step" "$(summary "$WORK/train_gsan.out"); $got; exit $rn/$rg" $r \
    $(($(now) - t0))
fi

if want triton; then
  t0=$(now)
  limited "$GSAN" run -- "$PY" tests/bugs/triton_overflow.py >"$WORK/triton_overflow.out" 2>&1
  bug triton_overflow "$WORK/triton_overflow.out" $? tests/bugs/triton_overflow.py \
    "global-buffer-overflow triton_overflow.py:21" "$t0"
fi

if want nvrtc; then
  # built as their lit RUN lines build them: only the host code goes through
  # gsan nvcc; the kernels are NVRTC's PTX, instrumented when loaded
  for t in nvrtc_overflow clean_nvrtc; do
    t0=$(now)
    if ! "$GSAN" nvcc -g -arch=native -o "$WORK/$t" tests/bugs/$t.cu -lcuda -lnvrtc >"$WORK/$t.build.out" 2>&1; then
      row $t "built by gsan nvcc" "build failed (see $t.build.out)" FAIL $(($(now) - t0))
      continue
    fi
    case $t in
      nvrtc_overflow)
        limited "$GSAN" run -- "$WORK/$t" >"$WORK/$t.out" 2>&1
        bug $t "$WORK/$t.out" $? tests/bugs/$t.cu "global-buffer-overflow nvrtc_overflow.cu:35 in fill" "$t0" ;;
      *)
        limited "$GSAN" run --opt verbosity=1 --opt jit_cache=0 -- "$WORK/$t" >"$WORK/$t.out" 2>&1
        rc=$?
        r=FAIL
        if [ $rc = 0 ] && "$FILECHECK" --implicit-check-not=GPUSanitizer tests/bugs/$t.cu <"$WORK/$t.out" \
          >"$WORK/$t.out.filecheck" 2>&1; then r=PASS; fi
        row $t "instrumented at load twice, no report" \
          "$(grep -c 'jit: .*instrumented' "$WORK/$t.out") loads instrumented, $(summary "$WORK/$t.out"), exit $rc" \
          $r $(($(now) - t0)) ;;
    esac
  done
fi

if want cupy; then
  t0=$(now)
  limited "$GSAN" run -- "$PY" $F/cupy_oob.py >"$WORK/cupy_oob.out" 2>&1
  rc=$?
  if [ $rc = 77 ]; then
    row cupy_oob "global-buffer-overflow in fill" "$(sed -n 's/^SKIP: //p' "$WORK/cupy_oob.out" | head -n 1)" SKIP \
      $(($(now) - t0))
  else
    bug cupy_oob "$WORK/cupy_oob.out" $rc $F/cupy_oob.py "global-buffer-overflow in fill" "$t0"
  fi
fi

if want pools; then
  for t in cupy_pool jax_pool; do
    t0=$(now)
    limited "$GSAN" run -- "$PY" $F/$t.py >"$WORK/$t.out" 2>&1
    rc=$?
    if [ $rc = 77 ]; then
      row $t "no report" "$(sed -n 's/^SKIP: //p' "$WORK/$t.out" | head -n 1)" SKIP $(($(now) - t0))
    else
      clean $t "$WORK/$t.out" $rc $F/$t.py "no report" "$t0"
    fi
  done
fi

# Triton's cubins made under gsan in this run, and those with gsan's site table
if want compile || want two_procs || want pluggable || want triton; then
  n=$(find "$GSAN_CACHE" -path '*/triton/*' -name '*.cubin' 2>/dev/null | wc -l)
  m=$(find "$GSAN_CACHE" -path '*/triton/*' -name '*.cubin' -exec grep -l -a __gsan_sites_ {} + 2>/dev/null | wc -l)
  if [ "$n" -gt 0 ] && [ "$m" = "$n" ]; then r=PASS; else r=FAIL; fi
  row triton_instrumented "every Triton cubin under gsan" "$m of $n cubins carry gsan's site table" $r 0
fi

cat "$WORK/results.txt"
echo "work and logs: $WORK; results: $RESULTS${OUT:+ (and in $OUT)}"
! grep -q "$(printf '\tFAIL\t')" "$ROWS"
