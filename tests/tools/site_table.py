#!/usr/bin/env python3
"""Prints the site table that gsan ptx put in an instrumented PTX file
(__gsan_sites_<id>, layout in include/gsan/abi.h): for each function, the
variables its checks are bounded by, in the order first seen.
Usage: site_table.py INSTRUMENTED.ptx"""
import re
import struct
import sys

text = open(sys.argv[1]).read()
m = re.search(r'__gsan_sites_[0-9a-f]+\[\d+\] = \{([^}]*)\}', text)
blob = bytes(int(x) for x in m.group(1).split(','))
magic, version, nsites, strings, module_id = struct.unpack_from('<IIIIQ', blob, 0)


def string(off):
    return blob[strings + off:blob.index(0, strings + off)].decode()


roots = {}
for i in range(nsites):
    func, _file, _line, _ptx_line, _col, root_name = struct.unpack_from('<6I', blob, 24 + 40 * i)
    names = roots.setdefault(string(func), [])
    if root_name and string(root_name) not in names:
        names.append(string(root_name))
for func, names in roots.items():
    print('function %s: roots %s' % (func, ' '.join(names) or '-'))
