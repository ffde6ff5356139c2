#!/bin/sh
# stack_capture.sh -- what one host stack capture costs, by unwinder, on this
# machine's CPU (no GPU needed). gsan captures the stack at every allocation
# and free; src/runtime/rt_unwind.c says which unwinder it uses and why.
# Run as: sh bench/stack_capture.sh
#
# 1. builds bench/stack_capture.c (with src/runtime/rt_unwind.c, gsan's own
#    capture) and its library bench/stack_capture_lib.c with cc -O2 into OUT,
#    and runs it: one capture's cost by unwinder and depth;
# 2. make -s all and the fake driver of the CPU tests, builds
#    bench/stack_capture_alloc.c and runs it under build/bin/gsan run against
#    that driver, with malloc_context_size 32 (the default) and 0 (no
#    capture): what the capture is of gsan's own part of an allocation; and,
#    with BASE, under the libgsan of that git revision as well (before);
# 3. prints the tables and writes RESULTS.
#
# Environment:
#   REPS     repetitions per figure; each figure is their median (default 21)
#   CALLS    captures per repetition (default 2000)
#   DEPTHS   stack depths in frames, space separated (default "10 15 20 30")
#   OUT      where the build and logs go (default build/bench)
#   RESULTS  where the report goes (default docs/results/stack-capture.md)
#   BASE     a git revision whose libgsan to time too (default: none)
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${OUT:-$TOP/build/bench}
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
cd "$TOP"
REPS=${REPS:-21}
CALLS=${CALLS:-2000}
DEPTHS=${DEPTHS:-10 15 20 30}
RESULTS=${RESULTS:-docs/results/stack-capture.md}
# the command with every setting it ran with
cmd="REPS=$REPS CALLS=$CALLS DEPTHS=\"$DEPTHS\"${BASE:+ BASE=$BASE} sh bench/stack_capture.sh"
CC=${CC:-cc}

die() { echo "stack_capture.sh: $*" >&2; exit 1; }

sh tests/deps.sh build >&2 || die "the build dependencies are missing (tests/deps.sh build)"
WARN="-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE"
DEP_INC= DEP_LIB=
if [ -n "${DEPS_DIR:-}" ]; then
    DEP_INC="-I$DEPS_DIR/include"
    DEP_LIB="-Wl,-rpath,$(cd "$DEPS_DIR" && pwd)/lib"
fi
# shellcheck disable=SC2086
"$CC" $WARN -O2 -g -fPIC -shared bench/stack_capture_lib.c -o "$OUTDIR/libstack_capture_lib.so" \
    || die "building the library failed"
# shellcheck disable=SC2086
"$CC" $WARN -Iinclude $DEP_INC -O2 -g bench/stack_capture.c src/runtime/rt_unwind.c -o "$OUTDIR/stack_capture" \
    -L"$OUTDIR" -lstack_capture_lib -Wl,-rpath,"$OUTDIR" $DEP_LIB -ldl -lpthread \
    || die "building the benchmark failed"

echo "stack_capture.sh: $OUTDIR/stack_capture $REPS $CALLS $DEPTHS" >&2
# shellcheck disable=SC2086
"$OUTDIR/stack_capture" "$REPS" "$CALLS" $DEPTHS > "$OUTDIR/stack_capture.out" \
    || die "the benchmark failed (output: $OUTDIR/stack_capture.out)"

make -s all build/lib/fake/libcuda.so.1 > "$OUTDIR/stack_capture-make.log" 2>&1 \
    || { tail -n 20 "$OUTDIR/stack_capture-make.log" >&2; die "make failed (log: $OUTDIR/stack_capture-make.log)"; }
# shellcheck disable=SC2086
"$CC" $WARN -I"${CUDA_HOME:-/usr/local/cuda}/include" -O2 -g bench/stack_capture_alloc.c -o "$OUTDIR/stack_capture_alloc" \
    -ldl || die "building stack_capture_alloc failed"
alloc_ns() { # gsan, then its options
    g=$1
    shift
    echo "stack_capture.sh: $g run $* -- $OUTDIR/stack_capture_alloc $REPS" >&2
    LD_LIBRARY_PATH=build/lib/fake "$g" run "$@" -- "$OUTDIR/stack_capture_alloc" "$REPS" \
        || die "stack_capture_alloc failed under $g run"
}
with=$(alloc_ns build/bin/gsan --opt malloc_context_size=32)
without=$(alloc_ns build/bin/gsan --opt malloc_context_size=0)
base_row=
if [ -n "${BASE:-}" ]; then
    rm -rf "$OUTDIR/base"
    mkdir -p "$OUTDIR/base"
    git archive "$BASE" | tar -x -C "$OUTDIR/base" || die "no git revision $BASE"
    make -s -C "$OUTDIR/base" build/bin/gsan build/lib/libgsan.so > "$OUTDIR/stack_capture-base.log" 2>&1 \
        || die "building $BASE's libgsan failed (log: $OUTDIR/stack_capture-base.log)"
    base_row="| git $(git rev-parse --short "$BASE") ($BASE), its defaults | $(alloc_ns "$OUTDIR/base/build/bin/gsan") |"
fi
{
    cat "$OUTDIR/stack_capture.out"
    echo
    echo "gsan's own part of an allocation, on the CPU: \`bench/stack_capture_alloc.c\` under \`gsan run\`"
    echo "against the fake driver of the CPU tests (\`build/lib/fake/libcuda.so.1\`), batches of 1000"
    echo "\`cuMemAlloc\` of 256 B then their 1000 \`cuMemFree\`, 10 frames below \`main\`; median of $REPS"
    echo "batches, ns of the thread's CPU time per call:"
    echo
    echo "| libgsan | ns per call |"
    echo "|---|---:|"
    [ -z "$base_row" ] || echo "$base_row"
    echo "| this tree, malloc_context_size=32 (the default: stacks captured) | $with |"
    echo "| this tree, malloc_context_size=0 (no stacks) | $without |"
} > "$OUTDIR/stack_capture.md"
cat "$OUTDIR/stack_capture.md"

load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
os=$(sed -n 's/^PRETTY_NAME="\(.*\)"/\1/p' /etc/os-release 2>/dev/null | head -n 1)
glibc=$(ldd --version 2>/dev/null | head -n 1)
ccv=$("$CC" --version | head -n 1)
pkg() { dpkg-query -W -f '${Package} ${Version}' "$1" 2>/dev/null || echo "$1: not known to dpkg"; }
if [ -n "${GSAN_REV:-}" ]; then
    rev=$GSAN_REV
else
    rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    if [ -n "$(git status --porcelain -- src/runtime bench 2>/dev/null)" ]; then rev="$rev (with local changes)"; fi
fi
{
    echo "# Host stack capture: what one capture costs, by unwinder"
    echo
    echo "Command: \`$cmd\`"
    echo
    echo "- date: $(date -u)"
    echo "- machine: ${cpu:-unknown CPU}, $(nproc) cores; ${os:-unknown OS}, Linux $(uname -r); load average"
    echo "  $load at the end (the machine is shared: other work runs beside)"
    echo "- $glibc; $ccv"
    echo "- $(pkg libunwind8); $(pkg libgcc-s1); LLVM's libunwind.so.1: $(pkg libunwind-14)"
    echo "- gsan: git $rev"
    echo "- program: \`bench/stack_capture.c\` and its library \`bench/stack_capture_lib.c\`, \`cc -O2\`: the"
    echo "  stack is frames of the program, then of the library, then the capture (as a program's"
    echo "  allocation reaches gsan through cudart); each unwinder loaded with \`dlopen(RTLD_LOCAL)\`"
    echo "- each figure: median over $REPS repetitions of $CALLS captures, ns per capture, after one"
    echo "  capture that fills the caches, timed as the measuring thread's CPU time"
    echo "  (\`CLOCK_THREAD_CPUTIME_ID\`: other work on the machine does not count); a new thread's"
    echo "  single captures by \`CLOCK_MONOTONIC\`; \"same frames\": every return address equal to glibc"
    echo "  \`backtrace()\`'s from the same frame, at every depth"
    echo
    cat "$OUTDIR/stack_capture.md"
} > "$RESULTS"
echo "stack_capture.sh: wrote $RESULTS" >&2
