#!/usr/bin/env python3
"""The part of FileCheck the GPU scripts need, where LLVM is not installed:
CHECK lines in order ({{regex}} allowed), CHECK-NOT anywhere, EXIT status.
Usage: match_checks.py SOURCE OUTPUT STATUS; prints PASS or what failed."""
import re
import sys


def pattern(text):
    parts = re.split(r'\{\{(.*?)\}\}', text.strip())
    return ''.join(re.escape(p) if i % 2 == 0 else '(?:%s)' % p for i, p in enumerate(parts))


def main():
    src, out, status = open(sys.argv[1]).read(), open(sys.argv[2], errors='replace').read(), int(sys.argv[3])
    pos = 0
    for kind, text in re.findall(r'//\s*(CHECK-NOT|CHECK|EXIT):\s*(.*)', src):
        if kind == 'EXIT':
            if status != int(text):
                print('FAIL: exit status %d, expected %s' % (status, text))
                return
        elif kind == 'CHECK-NOT':
            if re.search(pattern(text), out):
                print('FAIL: found %r' % text)
                return
        else:
            m = re.compile(pattern(text)).search(out, pos)
            if not m:
                print('FAIL: missing %r' % text)
                return
            pos = m.end()
    print('PASS')


if __name__ == '__main__':
    main()
