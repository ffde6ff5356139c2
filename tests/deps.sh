#!/bin/sh
# Dependencies. `deps.sh build`: what libgsan compiles against (libelf, libdw,
# libzstd and libunwind headers, or a prepared DEPS_DIR with include/ and lib/
# for machines that cannot install packages). `deps.sh test`: that, and the
# CUDA toolkit, LLVM's FileCheck and lit, and clang with libFuzzer. What is
# missing is installed when run as root (Debian/Ubuntu), otherwise the command
# to run is printed.
set -eu
what=${1:-test}
root=0
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && root=1

apt_install() { # package... ; a one-line reason on failure
  if [ $root = 1 ]; then
    echo "gsan: installing $*"
    apt-get update -qq >/dev/null || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "gsan: missing $*: run  sudo apt-get install $*" >&2
    exit 1
  fi
}

# build: libelf, libdw, libzstd and libunwind headers (libunwind's library
# too: libgsan loads libunwind.so.8 at run time)
if [ -n "${DEPS_DIR:-}" ]; then
  [ -f "$DEPS_DIR/include/gelf.h" ] && [ -f "$DEPS_DIR/include/zstd.h" ] && [ -f "$DEPS_DIR/include/elfutils/libdwfl.h" ] &&
    [ -f "$DEPS_DIR/include/libunwind.h" ] && [ -e "$DEPS_DIR/lib/libunwind.so.8" ] || {
    echo "gsan: DEPS_DIR=$DEPS_DIR has no include/gelf.h, include/zstd.h, include/elfutils/libdwfl.h," \
      "include/libunwind.h (with the libunwind-*.h beside it) and lib/libunwind.so.8" >&2
    exit 1
  }
else
  unwind_h=$(ls /usr/include/libunwind.h /usr/include/*/libunwind.h 2>/dev/null | head -n 1)
  if ! { [ -f /usr/include/gelf.h ] && [ -f /usr/include/zstd.h ] && [ -f /usr/include/elfutils/libdwfl.h ] &&
    [ -n "$unwind_h" ]; }; then
    apt_install libelf-dev libdw-dev libzstd-dev libunwind-dev
  fi
fi
[ "$what" = build ] && exit 0

# test: the CUDA toolkit, FileCheck, lit
command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || {
  echo "gsan: the tests need the CUDA toolkit (nvcc, ptxas): install it and put /usr/local/cuda/bin on PATH" >&2
  exit 1
}
if ! { ls /usr/lib/llvm-*/bin/FileCheck >/dev/null 2>&1 || command -v FileCheck >/dev/null 2>&1; }; then
  # the image's own LLVM (14) first; the newest packaged one otherwise
  pkg=llvm-14-tools
  apt-cache show "$pkg" >/dev/null 2>&1 ||
    pkg=$(apt-cache search --names-only '^llvm-[0-9]+-tools$' | sort -t- -k2 -n | tail -n 1 | cut -d' ' -f1)
  apt_install "$pkg"
fi
# the fuzzers (tests/fuzz): clang with libFuzzer and the sanitizers' runtimes,
# which newer Debian and Ubuntu ship apart (libclang-rt-N-dev)
fuzz_ok() {
  echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }' |
    ${FUZZ_CC:-clang} -x c -fsanitize=fuzzer,address,undefined - -o /dev/null >/dev/null 2>&1
}
if ! fuzz_ok; then
  command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 || apt_install clang
  v=$(${FUZZ_CC:-clang} --version | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -n 1)
  fuzz_ok || { apt-cache show "libclang-rt-$v-dev" >/dev/null 2>&1 && apt_install "libclang-rt-$v-dev"; } || true
  fuzz_ok || { echo "gsan: ${FUZZ_CC:-clang} cannot build libFuzzer harnesses (-fsanitize=fuzzer): install clang's compiler-rt" >&2; exit 1; }
fi
if ! python3 -c 'import lit' >/dev/null 2>&1; then
  if [ $root = 1 ] || [ -n "${VIRTUAL_ENV:-}" ]; then
    echo "gsan: installing lit"
    # a Debian-managed python refuses plain pip installs (PEP 668)
    python3 -m pip install -q lit 2>/dev/null || python3 -m pip install -q --break-system-packages lit
  else
    echo "gsan: lit is missing: run  python3 -m pip install --user lit" >&2
    exit 1
  fi
fi
# gsan scan: the newest libclang Debian offers (17 or newer, for the C API's
# operator kinds) and Z3's C API; jsonschema for the SARIF test
if ! ls /usr/lib/llvm-*/include/clang-c/Index.h 2>/dev/null | sed 's|/usr/lib/llvm-\([0-9]*\)/.*|\1|' | awk '$1 >= 17 { ok = 1 } END { exit !ok }'; then
  pkg=$(apt-cache search --names-only '^libclang-[0-9]+-dev$' 2>/dev/null | sort -t- -k2 -n | tail -n 1 | cut -d' ' -f1)
  [ -n "$pkg" ] || { [ $root = 1 ] && apt-get update -qq >/dev/null 2>&1; pkg=$(apt-cache search --names-only '^libclang-[0-9]+-dev$' | sort -t- -k2 -n | tail -n 1 | cut -d' ' -f1); }
  apt_install "${pkg:-libclang-dev}"
fi
[ -f /usr/include/z3.h ] || apt_install libz3-dev
if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
  if [ $root = 1 ]; then
    apt_install python3-jsonschema
  else
    echo "gsan: jsonschema is missing: run  sudo apt-get install python3-jsonschema" >&2
    exit 1
  fi
fi
