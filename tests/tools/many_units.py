"""Builds one cubin from N instrumented translation units, as nvcc -rdc links
a program of many .cu files: N copies of a PTX module, each with its kernels
renamed (the mangled _Z<len>NAME -> _Z<len>NAME<k>, so every copy hashes to
its own module id and links beside the others), each
through gsan ptx and ptxas -c, then nvlink. The cubin carries N site tables.
Usage: many_units.py N IN.ptx NAME GSAN OUT.cubin"""
import os
import subprocess
import sys


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    n, src, name, gsan, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
    text = open(src).read()
    mangled = f"_Z{len(name)}{name}"
    if mangled not in text:
        sys.exit(f"many_units.py: {src} has no '{mangled}'")
    objs = []
    for k in range(n):
        base = f"{out}.{k}"
        with open(base + ".ptx", "w") as f:
            new = f"{name}{k}"
            f.write(text.replace(mangled, f"_Z{len(new)}{new}"))
        subprocess.run([gsan, "ptx", "-q", base + ".ptx", "-o", base + ".inst.ptx"], check=True)
        subprocess.run(["ptxas", "-c", "-arch=sm_90", base + ".inst.ptx", "-o", base + ".o.cubin"], check=True)
        objs.append(base + ".o.cubin")
    subprocess.run(["nvlink", "-arch=sm_90", "-o", out] + objs, check=True)
    for k in range(n):
        for ext in (".ptx", ".inst.ptx", ".o.cubin"):
            os.remove(f"{out}.{k}{ext}")


if __name__ == "__main__":
    main()
