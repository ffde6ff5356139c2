#!/usr/bin/env python3
"""The table of `bench/corpus.sh --profile`: where gsan's time goes.

  corpus_profile.py LOGDIR NAME...

Reads, per program, LOGDIR/NAME.ncu-native and NAME.ncu-gsan (Nsight
Compute's --csv output of one run: per launch its GPU time, instructions
executed, registers a thread and achieved occupancy) and the timed runs
NAME.{native,gsan,rt}.I (as bench/corpus.sh writes them; rt: the native
build under `gsan run`, the runtime alone), and prints, per program, the
program's time gsan/native (its own timer, medians) beside the
profiled launches' GPU time gsan/native: where the two agree the time is in
the kernels, where the program's is larger it is on the host (the launch
path, synchronising calls). Then per kernel: launches profiled, mean GPU
time natively and under gsan, instructions, registers and occupancy, and
which copy ran (lb: launch-bounds copy, lp: proven copy, own: the
instrumented kernel itself). Also written to LOGDIR/profile.md."""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import read_runs, timer_sum  # noqa: E402

PREFIXES = (('__gsan_lb_', 'lb'), ('__gsan_lp_', 'lp'))
TIME_UNIT = {'nsecond': 1e-9, 'ns': 1e-9, 'usecond': 1e-6, 'us': 1e-6, 'msecond': 1e-3, 'ms': 1e-3,
             'second': 1.0, 's': 1.0}


def launches(path):
    """[(kernel, copy, seconds, instructions, registers, occupancy%)] in
    launch order, from ncu's csv (the program's own output lines skipped)"""
    if not os.path.exists(path):
        return []
    rows = []
    with open(path, errors='replace') as f:
        lines = [ln for ln in f if ln.startswith('"')]
    header = None
    by_id = {}
    for r in csv.reader(lines):
        if r and r[0] == 'ID':
            header = {k: i for i, k in enumerate(r)}
            continue
        if not header or len(r) < len(header):
            continue
        try:
            i = int(r[header['ID']])
        except ValueError:
            continue
        e = by_id.setdefault(i, {'name': r[header['Kernel Name']]})
        name, unit, val = r[header['Metric Name']], r[header['Metric Unit']], r[header['Metric Value']]
        try:
            v = float(val.replace(',', ''))
        except ValueError:
            continue
        if name == 'gpu__time_duration.sum':
            v *= TIME_UNIT.get(unit, 1e-9)
        e[name] = v
    for i in sorted(by_id):
        e = by_id[i]
        name, copy = e['name'], 'native'
        for p, c in PREFIXES:
            if name.startswith(p):
                name, copy = name[len(p):], c
                break
        rows.append((name, copy, e.get('gpu__time_duration.sum'), e.get('smsp__inst_executed.sum'),
                     e.get('launch__registers_per_thread'), e.get('sm__warps_active.avg.pct_of_peak_sustained_active')))
    return rows


def program_time(logdir, name, tool):
    runs = read_runs(logdir, name, tool)
    t = []
    for r in runs:
        if r['rc'] != 0:
            continue
        n, s = timer_sum(r['text'])
        t.append(s if n else r['wall'])
    return statistics.median(t) if t else None


def ratio(a, b):
    return '%.3fx' % (a / b) if a is not None and b else '-'


def fmt_s(s):
    if s is None:
        return '-'
    return '%.1f us' % (s * 1e6) if s < 1e-3 else '%.2f ms' % (s * 1e3)


def kernels(rows, tool):
    """per kernel: launches, times, instructions, registers, occupancy, copies"""
    k = {}
    for name, copy, t, inst, regs, occ in rows:
        e = k.setdefault(name, {'n': 0, 't': [], 'inst': [], 'regs': {}, 'occ': [], 'copies': {}})
        e['n'] += 1
        if t is not None:
            e['t'].append(t)
        if inst is not None:
            e['inst'].append(inst)
        if occ is not None:
            e['occ'].append(occ)
        c = copy if tool == 'gsan' and copy != 'native' else ('own' if tool == 'gsan' else 'native')
        e['copies'][c] = e['copies'].get(c, 0) + 1
        if regs is not None:
            e['regs'].setdefault(c, int(regs))
    return k


def main():
    logdir, names = sys.argv[1], sys.argv[2:]
    out = ['| program | time gsan/native | runtime alone/native | profiled launches | GPU time gsan/native '
           '| instructions gsan/native |',
           '|---|---|---|---|---|---|']
    detail = []
    for n in names:
        nat, gs = launches(os.path.join(logdir, n + '.ncu-native')), launches(os.path.join(logdir, n + '.ncu-gsan'))
        tn, tg = program_time(logdir, n, 'native'), program_time(logdir, n, 'gsan')
        rt = ratio(program_time(logdir, n, 'rt'), tn)
        if not nat or not gs:
            out.append('| %s | %s | %s | - | no profile (see %s.ncu-*) | - |' % (n, ratio(tg, tn), rt, n))
            continue
        m = min(len(nat), len(gs))
        gn = sum(r[2] or 0 for r in nat[:m])
        gg = sum(r[2] or 0 for r in gs[:m])
        inn = sum(r[3] or 0 for r in nat[:m])
        ing = sum(r[3] or 0 for r in gs[:m])
        out.append('| %s | %s | %s | %d | %s | %s |' % (n, ratio(tg, tn), rt, m, ratio(gg, gn), ratio(ing, inn)))
        kn, kg = kernels(nat[:m], 'native'), kernels(gs[:m], 'gsan')
        detail.append('\n%s (time %s natively, %s under gsan):' % (n, fmt_s(tn), fmt_s(tg)))
        detail.append('| kernel | launches | GPU time native | gsan/native | instructions gsan/native '
                      '| registers native -> gsan | occupancy native -> gsan | copies that ran |')
        detail.append('|---|---|---|---|---|---|---|---|')
        for name in sorted(kn, key=lambda x: -sum(kn[x]['t'])):
            a, b = kn[name], kg.get(name)
            if not b:
                continue
            mean = lambda v: statistics.mean(v) if v else None  # noqa: E731
            regs_g = ', '.join('%s %d' % (c, r) for c, r in sorted(b['regs'].items()))
            copies = ', '.join('%s %d' % (c, k) for c, k in sorted(b['copies'].items()))
            detail.append('| `%s` | %d | %s | %s | %s | %s -> %s | %s -> %s | %s |' % (
                name[:60], a['n'], fmt_s(mean(a['t'])), ratio(mean(b['t']), mean(a['t'])),
                ratio(mean(b['inst']), mean(a['inst'])), a['regs'].get('native', '-'), regs_g or '-',
                '%.0f%%' % mean(a['occ']) if a['occ'] else '-', '%.0f%%' % mean(b['occ']) if b['occ'] else '-',
                copies))
    text = '\n'.join(out + detail) + '\n'
    sys.stdout.write(text)
    with open(os.path.join(logdir, 'profile.md'), 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
