#!/usr/bin/env python3
"""Checks that every global symbol of gsan-scan's objects carries its file's
prefix (issue 21): compiles each DIR/*.c into OUT/ as scan.mk compiles
gsan-scan's sources (C11, libclang's headers), lists the symbols each object
defines with external linkage (nm -g --defined-only), and prints one line per
symbol of FILE.o that is neither FILE nor FILE_... (main: only in scan_main.o),
then a summary. Exit status 1 when a symbol lacks its prefix.
Usage: prefix_check.py DIR OUT"""
import glob
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

src, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)


# the newest libclang with the C API gsan-scan needs (17 or newer), as scan.mk picks it
def llvm_version(path):
    m = re.search(r'/llvm-(\d+)/', path)
    return int(m.group(1)) if m else 0


llvm = sorted((d for d in glob.glob('/usr/lib/llvm-*/include/clang-c') if llvm_version(d) >= 17), key=llvm_version)
flags = ['-std=c11', '-D_GNU_SOURCE', '-c'] + (['-I' + os.path.dirname(llvm[-1])] if llvm else [])
sources = sorted(glob.glob(os.path.join(src, '*.c')))
if not sources:
    sys.exit('prefix_check.py: no .c files in %s' % src)


def compile_one(c):
    obj = os.path.join(out, os.path.basename(c)[:-2] + '.o')
    subprocess.run([os.environ.get('CC', 'cc')] + flags + [c, '-o', obj], check=True)
    return obj


with ThreadPoolExecutor(2) as pool:
    objects = list(pool.map(compile_one, sources))

total = bad = 0
for obj in objects:
    stem = os.path.basename(obj)[:-2]
    nm = subprocess.run(['nm', '-g', '--defined-only', obj], check=True, capture_output=True, text=True).stdout
    for line in nm.splitlines():
        name = line.split()[-1]
        total += 1
        if name == stem or name.startswith(stem + '_') or (name == 'main' and stem == 'scan_main'):
            continue
        print('%s.o: %s is not named %s_...' % (stem, name, stem))
        bad += 1
print('%d global symbols in %d objects, %s' % (total, len(objects), 'each named after its file' if not bad else '%d not named after their file' % bad))
sys.exit(1 if bad else 0)
