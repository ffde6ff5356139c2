#!/usr/bin/env python3
"""The table of bench/run.sh: reads each workload's three logs (native, gsan,
compute-sanitizer; the lines bench/workloads/bench.h prints, gsan's
print_stats lines) and the build times, and writes the results file.
Usage: perf_table.py LOGDIR RESULTS REPS CS_REPS CS NAME..."""
import datetime
import math
import os
import re
import subprocess
import sys


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip() or '?'
    except OSError:
        return '?'


def parse(path):
    """What one run printed: time, checksum, validity, memory, kernels, stats."""
    r = {'ms': None, 'sum': None, 'valid': None, 'memory': None, 'kernels': {}, 'stats': {}, 'errors': None}
    if not os.path.exists(path):
        return r
    for line in open(path, errors='replace'):
        f = line.split()
        if len(f) >= 8 and f[0] == 'bench' and f[2] == 'ms':
            r['ms'], r['sum'] = float(f[3]), f[7]
        elif len(f) >= 10 and f[0] == 'kernel' and f[2] == 'regs':
            r['kernels'][f[1]] = (int(f[3]), int(f[5]))
        elif len(f) == 7 and f[0] == 'copy' and f[3] == 'regs':
            r.setdefault('copies', {}).setdefault(f[1], {})[f[2]] = (int(f[4]), int(f[6]))
        elif len(f) == 2 and f[0] == 'valid':
            r['valid'] = f[1] == '1'
        elif len(f) == 2 and f[0] == 'memory':
            r['memory'] = int(f[1])
        m = re.search(r'ERROR SUMMARY: (\d+) error', line)
        if m:
            r['errors'] = int(m.group(1))
        if 'ERROR: GPUSanitizer:' in line:
            r['reports'] = r.get('reports', 0) + 1
        m = re.search(r'gsan: stats: (\d+) kernel launches, (\d+) of them through launch-bounds copies, (\d+) of those proven', line)
        if m:
            r['stats'].update(launches=int(m.group(1)), copied=int(m.group(2)), proven=int(m.group(3)))
        m = re.search(r'gsan: stats: device \d+: peak live: (\d+) allocations, (\d+) bytes asked for, (\d+) bytes mapped', line)
        if m:
            r['stats'].update(peak_allocs=int(m.group(1)), asked=int(m.group(2)), mapped=int(m.group(3)))
        m = re.search(r'gsan: stats: device \d+: fixed: (\d+) bytes of slot tables, (\d+) bytes of spare granules, (\d+) bytes', line)
        if m:
            r['stats'].update(tables=int(m.group(1)), spare=int(m.group(2)), ring=int(m.group(3)))
    return r


def ran_copy(gs, k):
    """What gsan's launches of kernel k ran, and its registers and occupancy:
    its proven copy when every launch through a copy was proven, its
    launch-bounds copy when it has no proven copy or none was proven, the
    kernel itself when it has no copy (a mix: the launch-bounds copy, the
    larger, marked so)."""
    copies = gs.get('copies', {}).get(k, {})
    st = gs['stats']
    own = gs['kernels'].get(k, (None, None))
    if not gs.get('copies'):
        return ('not reported (the kernel\'s own)', own[0], own[1])
    if 'lb' not in copies:
        return ('kernel', own[0], own[1])
    if 'lp' in copies and st.get('copied') and st.get('proven') == st.get('copied'):
        return ('proven',) + copies['lp']
    if 'lp' in copies and st.get('proven'):
        return ('launch-bounds (some launches proven)',) + copies['lb']
    return ('launch-bounds',) + copies['lb']


def mib(b):
    return '%.1f' % (b / 1048576.0)


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def header(title, command, cs_on):
    """the first lines of a results file: what ran (the script's BENCH_CMD,
    with its settings and workloads, else command), when, where"""
    command = os.environ.get('BENCH_CMD') or command
    now = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    return ['# ' + title, '',
            'Command: `%s`  ' % command, 'Date: %s  ' % now,
            'Device: %s  ' % sh('nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1'),
            'Toolkit: %s  ' % sh('nvcc --version | tail -n 2 | head -n 1'),
            'compute-sanitizer: %s  ' % (sh('compute-sanitizer --version | tail -n 1') if cs_on else 'not run'),
            'gsan: git %s' % (os.environ.get('GSAN_REV') or sh('git rev-parse --short HEAD')), '']


def main():
    logdir, results, reps, cs_reps, cs_on = sys.argv[1:6]
    names = sys.argv[6:]
    cs_on = cs_on == '1'
    builds = {}
    if os.path.exists(os.path.join(logdir, 'builds.txt')):
        for line in open(os.path.join(logdir, 'builds.txt')):
            f = line.split()
            if len(f) == 3:
                builds[f[0]] = (float(f[1]), float(f[2]))
    rows, krows, mrows, brows, problems = [], [], [], [], []
    g_ratios, c_ratios = [], []
    for n in names:
        nat, gs, cs = (parse(os.path.join(logdir, '%s.%s' % (n, k))) for k in ('native', 'gsan', 'cs'))
        if nat['ms'] is None:
            problems.append('%s: no native time (see %s.native)' % (n, n))
            continue
        gx = gs['ms'] / nat['ms'] if gs['ms'] else None
        cx = cs['ms'] / nat['ms'] if cs_on and cs['ms'] else None
        g_ratios.append(gx)
        c_ratios.append(cx)
        same = gs['sum'] == nat['sum']
        if gs['ms'] is None:
            problems.append('%s: gsan did not finish (see %s.gsan)' % (n, n))
        elif not same:
            problems.append('%s: gsan checksum %s differs from native %s' % (n, gs['sum'], nat['sum']))
        if gs.get('reports'):
            problems.append('%s: gsan reported %d error(s) on a correct program (see %s.gsan)' % (n, gs['reports'], n))
        if cs_on and cs['errors']:
            problems.append('%s: compute-sanitizer reported %d error(s) (see %s.cs)' % (n, cs['errors'], n))
        if not nat['valid']:
            problems.append('%s: the native result failed its own check' % n)
        if cs_on and cs['sum'] is not None and cs['sum'] != nat['sum']:
            problems.append('%s: compute-sanitizer checksum %s differs from native %s' % (n, cs['sum'], nat['sum']))
        ran = {k: ran_copy(gs, k) for k in nat['kernels']}
        regs = ', '.join('%d→%d' % (nat['kernels'][k][0], ran[k][1]) for k in nat['kernels'])
        rows.append('| %s | %.2f | %s | %s | %s | %s | %s |' % (
            n, nat['ms'], '%.2f' % gs['ms'] if gs['ms'] else '—', '%.2fx' % gx if gx else '—',
            ('%.1fx' % cx if cx else '—') if cs_on else 'not run', 'same' if same else 'DIFFERENT', regs))
        for k, (r0, o0) in nat['kernels'].items():
            what, r1, o1 = ran[k]
            krows.append('| %s | %s | %s | %d | %s | %d | %s | %s |' % (
                n, k, what, r0, r1 if r1 is not None else '—', o0, o1 if o1 is not None else '—',
                'yes' if o1 is not None and o1 < o0 else 'no'))
        st = gs['stats']
        if nat['memory'] is not None and gs['memory'] is not None and st:
            mrows.append('| %s | %s | %s | %s | %d | %s | %s | %s |' % (
                n, mib(nat['memory']), mib(gs['memory']), mib(gs['memory'] - nat['memory']),
                st.get('peak_allocs', 0), mib(st.get('asked', 0)), mib(st.get('mapped', 0) - st.get('asked', 0)),
                mib(st.get('tables', 0) + st.get('spare', 0))))
        if n in builds:
            b0, b1 = builds[n]
            brows.append('| %s | %.1f | %.1f | %.2fx |' % (n, b0, b1, b1 / b0 if b0 else 0))
    gg, gc = geomean(g_ratios), geomean(c_ratios)
    worst = max(((r, n) for r, n in zip(g_ratios, names) if r), default=(None, None))
    out = header('Performance: gsan and compute-sanitizer against native', 'sh bench/run.sh', cs_on) + [
           'Each workload (bench/workloads) is built by `nvcc -O3 -std=c++17 -arch=sm_90` (native and',
           'compute-sanitizer) and by `gsan nvcc` with the same flags, and times itself with CUDA events: the median',
           'of %s repetitions after 2 warm-ups (compute-sanitizer: %s after 1), in ms per repetition. gsan runs' % (reps, cs_reps),
           'under `gsan run`, compute-sanitizer as `compute-sanitizer --tool memcheck`. "result" compares the',
           "checksum of gsan's result with the native one; registers are per kernel, native → the copy gsan's",
           'launches ran (below).', '',
           '| workload | native ms | gsan ms | gsan | compute-sanitizer | result | registers |',
           '|---|---:|---:|---:|---:|---|---|'] + rows
    out += ['', '## Registers and occupancy per kernel', '',
            'Occupancy: resident warps per SM at the launch configuration (cudaOccupancyMaxActiveBlocksPerMultiprocessor).',
            "Under gsan a launch runs the kernel's launch-bounds copy, or its proven copy when the launch's facts hold",
            '(docs/abi.md); "ran" is the copy the workload\'s launches ran, from the launch counts of `print_stats`:',
            'the proven copy when all of them were proven, the launch-bounds copy when the kernel has no proven copy',
            'or none was proven.', '',
            '| workload | kernel | ran | registers native | registers gsan | occupancy native | occupancy gsan | lost |',
            '|---|---|---|---:|---:|---:|---:|---|'] + krows
    out += ['', '## Memory', '',
            'Device memory in use (cudaMemGetInfo, with the buffers live) natively and under gsan, in MiB; from',
            "gsan's own accounting (print_stats): the peak of live allocations, the bytes they asked for, the",
            'physical memory mapped behind them beyond that (per-allocation overhead), and the fixed part (slot',
            'tables and spare granules).', '',
            '| workload | native MiB | gsan MiB | difference | peak allocations | asked MiB | per-allocation MiB | fixed MiB |',
            '|---|---:|---:|---:|---:|---:|---:|---:|'] + mrows
    out += ['', '## Build time', '', 'Seconds of `nvcc` and of `gsan nvcc` for one workload, one after the other (workloads are built in parallel, BUILD_JOBS).', '',
            '| workload | nvcc s | gsan nvcc s | ratio |', '|---|---:|---:|---:|'] + brows
    if problems:
        out += ['', '## Problems', ''] + ['- ' + p for p in problems]
    out += ['']
    if worst[0]:
        out += ['worst: gsan %.2fx (%s)' % worst]
    out += ['geomean: gsan %s, compute-sanitizer %s' % ('%.2fx' % gg if gg else '?', '%.1fx' % gc if gc else 'not run')]
    os.makedirs(os.path.dirname(results) or '.', exist_ok=True)
    open(results, 'w').write('\n'.join(out) + '\n')
    print('\n'.join(['| workload | native ms | gsan ms | gsan | compute-sanitizer | result | registers |'] + rows))
    print('\n'.join(out[-(len(problems) + 3 if problems else 2):]))
    return 0 if not problems else 1


if __name__ == '__main__':
    sys.exit(main())
