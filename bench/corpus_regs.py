#!/usr/bin/env python3
"""The table of `bench/corpus.sh --registers`: each kernel's registers natively
and in gsan's copies, from ptxas -v in the two builds' logs.

  corpus_regs.py LOGDIR RESULTS HECBENCH_REV NAME...

Reads LOGDIR/NAME.build-native and NAME.build-gsan (the output of each
program's own Makefile with EXTRA_CFLAGS='-Xptxas -v'): every "Compiling entry
function 'K' for 'sm_90'" and the "Used N registers" after it. gsan's copies
are named by a prefix (__gsan_lb_: the launch-bounds copy, which runs by
default; __gsan_lp_: the proven copy; none: the instrumented kernel itself,
launched when the runtime cannot give bounds). The warps one multiprocessor
of compute capability 9.0 can hold by registers alone: 65,536 registers,
given to a warp in units of 256, at most 64 warps (the block size and shared
memory may allow fewer; they are not counted here). Writes RESULTS
(markdown); its last line is
  registers: K kernels with a launch-bounds copy, L of them holding fewer warps than natively
"""
import os
import re
import subprocess
import sys
from datetime import datetime, timezone

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\d+a?)'")
USED = re.compile(r'Used (\d+) registers')
PREFIX = (('__gsan_lb_', 'lb'), ('__gsan_lp_', 'lp'))


def warps(regs):
    """warps per multiprocessor by registers alone (sm_90)"""
    per_warp = (regs * 32 + 255) // 256 * 256
    return min(64, 65536 // per_warp) if per_warp else 64


def entries(path):
    """{kernel: registers} of the last sm_ target ptxas -v named in the log"""
    out = {}
    if not os.path.exists(path):
        return out
    name = None
    for line in open(path, errors='replace'):
        m = ENTRY.search(line)
        if m:
            name = m.group(1)
            continue
        m = USED.search(line)
        if m and name:
            out[name] = int(m.group(1))
            name = None
    return out


def git(*args):
    try:
        return subprocess.run(['git'] + list(args), capture_output=True, text=True).stdout.strip()
    except OSError:
        return ''


def main():
    logdir, results, hb, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    rows, missing = [], []
    for n in names:
        nat = entries(os.path.join(logdir, n + '.build-native'))
        gs = entries(os.path.join(logdir, n + '.build-gsan'))
        if not nat or not gs:
            missing.append(n)
            continue
        copies = {}
        for k, r in gs.items():
            base, kind = k, 'own'
            for p, c in PREFIX:
                if k.startswith(p):
                    base, kind = k[len(p):], c
                    break
            copies.setdefault(base, {})[kind] = r
        for k in sorted(nat):
            c = copies.get(k, {})
            rows.append((n, k, nat[k], c.get('lb'), c.get('lp'), c.get('own')))
    with_lb = [r for r in rows if r[3] is not None]
    fewer = [r for r in with_lb if warps(r[3]) < warps(r[2])]
    fewer_lp = [r for r in rows if r[4] is not None and warps(r[4]) < warps(r[2])]
    out = ['# Registers: the performance corpus natively and under gsan', '',
           'Command: `%s` (written by the script, not by hand)  ' % os.environ.get('BENCH_CMD', 'sh bench/corpus.sh --registers'),
           'gsan commit: %s  ' % (git('rev-parse', '--short', 'HEAD') or 'unknown'),
           'Date: %s  ' % datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
           'Compiler: %s  ' % (subprocess.run(['nvcc', '--version'], capture_output=True, text=True).stdout.strip().splitlines() or ['?'])[-1],
           'Corpus: HeCBench `%s`, the programs of `bench/corpus.list`, each built by its own Makefile (`ARCH=sm_90`, '
           '`EXTRA_CFLAGS="-Xptxas -v"`) with nvcc and with `gsan nvcc`; no GPU used' % hb, '',
           'Registers a thread, as ptxas reports them for each kernel: natively, and in gsan\'s copies: **lb** the '
           'launch-bounds copy (what a launch runs by default), **lp** the proven copy (run when the launch\'s facts '
           'hold), **own** the instrumented kernel itself (run when the runtime cannot give bounds). **warps** is what '
           'one sm_90 multiprocessor can hold by registers alone (65,536 registers in units of 256 a warp, at most 64); '
           'the block size and shared memory may allow fewer. A copy that holds fewer warps than the native kernel '
           'hides memory latency worse: one of the costs of the checks that `bench/corpus.sh` measures on a GPU.', '',
           '| program | kernel | native | lb | lp | own | warps native -> lb |', '|---|---|---|---|---|---|---|']
    for n, k, r, lb, lp, own in rows:
        w = '%d -> %s' % (warps(r), warps(lb) if lb is not None else '-')
        if lb is not None and warps(lb) < warps(r):
            w = '**%s**' % w
        out.append('| %s | `%s` | %d | %s | %s | %s | %s |' % (n, k if len(k) <= 70 else k[:40] + '...' + k[-27:], r,
                   lb if lb is not None else '-', lp if lp is not None else '-', own if own is not None else '-', w))
    out.append('')
    if missing:
        out.append('Not built (see the build logs): ' + ', '.join(missing))
        out.append('')
    out.append('Of %d kernels, %d have a launch-bounds copy; %d of those hold fewer warps than the native kernel '
               '(%d proven copies do).' % (len(rows), len(with_lb), len(fewer), len(fewer_lp)))
    out.append('')
    out.append('registers: %d kernels with a launch-bounds copy, %d of them holding fewer warps than natively'
               % (len(with_lb), len(fewer)))
    os.makedirs(os.path.dirname(results) or '.', exist_ok=True)
    with open(results, 'w') as f:
        f.write('\n'.join(out) + '\n')
    print(out[-1])


if __name__ == '__main__':
    main()
