#!/bin/sh
# Test dependencies: LLVM's FileCheck and lit. Installs them when run as root
# (Debian/Ubuntu), otherwise prints the command to run.
set -eu
need_fc=0; need_lit=0; need_dev=0
# headers and libraries the runtime's readers link against
[ -f /usr/include/gelf.h ] && [ -f /usr/include/zstd.h ] || need_dev=1
ls /usr/lib/llvm-*/bin/FileCheck >/dev/null 2>&1 || command -v FileCheck >/dev/null 2>&1 || need_fc=1
python3 -c 'import lit' >/dev/null 2>&1 || need_lit=1
command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || {
  echo "gsan: the tests need the CUDA toolkit (nvcc, ptxas): install it and put /usr/local/cuda/bin on PATH" >&2
  exit 1
}
if [ $need_fc = 1 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "gsan: installing FileCheck (llvm tools)"
    apt-get update -qq >/dev/null
    # the image's own LLVM (14) first; the newest packaged one otherwise
    pkg=llvm-14-tools
    apt-cache show "$pkg" >/dev/null 2>&1 ||
      pkg=$(apt-cache search --names-only '^llvm-[0-9]+-tools$' | sort -t- -k2 -n | tail -n 1 | cut -d' ' -f1)
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
  else
    echo "gsan: FileCheck is missing: run  sudo apt-get install llvm-14-tools" >&2
    exit 1
  fi
fi
if [ $need_dev = 1 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "gsan: installing libelf-dev and libzstd-dev"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libelf-dev libzstd-dev >/dev/null
  else
    echo "gsan: libelf and libzstd headers are missing: run  sudo apt-get install libelf-dev libzstd-dev" >&2
    exit 1
  fi
fi
if [ $need_lit = 1 ]; then
  if [ "$(id -u)" = 0 ] || [ -n "${VIRTUAL_ENV:-}" ]; then
    echo "gsan: installing lit"
    # a Debian-managed python refuses plain pip installs (PEP 668)
    python3 -m pip install -q lit 2>/dev/null || python3 -m pip install -q --break-system-packages lit
  else
    echo "gsan: lit is missing: run  python3 -m pip install --user lit" >&2
    exit 1
  fi
fi
