#!/usr/bin/env python3
"""Circles of files: object files that use each other's functions or data
round a loop.

    file_cycles.py [--max N] OBJ...

Reads each object's defined and undefined global symbols with nm; file A
uses file B when A needs a symbol B defines. Prints every strongly connected
component of that graph with more than one file (largest first, one line
each: its size and its files) and exits 1 when one has more than N files
(default 3), 0 otherwise. Static functions and header inlines are not seen:
they do not tie files together.
"""
import os
import subprocess
import sys


def symbols(obj):
    out = subprocess.run(["nm", "-g", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] not in ("U", "w", "v"):
            defined.add(parts[2])
    return defined, undefined


def components(nodes, edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def main(argv):
    limit = 3
    if len(argv) >= 2 and argv[0] == "--max":
        limit = int(argv[1])
        argv = argv[2:]
    if not argv:
        print("usage: file_cycles.py [--max N] OBJ...", file=sys.stderr)
        return 2
    names = [os.path.splitext(os.path.basename(o))[0] for o in argv]
    table = {n: symbols(o) for n, o in zip(names, argv)}
    owner = {}
    for n, (defined, _) in table.items():
        for s in defined:
            owner.setdefault(s, n)
    edges = {n: {owner[s] for s in table[n][1] if s in owner and owner[s] != n} for n in names}
    circles = sorted((c for c in components(names, edges) if len(c) > 1), key=lambda c: (-len(c), c))
    for c in circles:
        print(f"{len(c)} files: {' '.join(c)}")
    worst = max((len(c) for c in circles), default=1)
    print(f"largest circle: {worst} of {len(names)} files (limit {limit})")
    return 1 if worst > limit else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
