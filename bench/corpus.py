#!/usr/bin/env python3
"""The table of bench/corpus.sh.

  corpus.py LOGDIR RESULTS REPS CS CS_TIMEOUT HECBENCH_REV NAME...

Reads LOGDIR/NAME.{native,gsan,cs}.I (a run's output) and .I.t ("rc seconds")
and writes RESULTS (markdown). A program's time is the sum of the times it
prints of itself (`timer_sum`) when its native runs print any, else the wall
time; the median of its runs. Exit status 1 when a program that ran natively
failed under gsan, printed a different verdict (PASS/FAIL) or gsan reported an
error in it (these programs are meant to be correct)."""
import math
import os
import re
import statistics
import subprocess
import sys
from datetime import datetime, timezone

UNIT = {'s': 1.0, 'sec': 1.0, 'secs': 1.0, 'seconds': 1.0, 'second': 1.0, 'ms': 1e-3, 'msec': 1e-3,
        'milliseconds': 1e-3, 'us': 1e-6, 'usec': 1e-6, 'microseconds': 1e-6, 'ns': 1e-9, 'nanoseconds': 1e-9}
NUM = r'([0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)'
U = r'(seconds|second|secs|sec|s|msec|ms|milliseconds|usec|us|microseconds|ns|nanoseconds)'
# "... time ...: 12.5 (us)", "... time 3.2 ms", "... time (ms): 4.1", "... time = 1.5 s"
AFTER = re.compile(NUM + r'\s*\(?' + U + r'\)?(?![A-Za-z/])')
BEFORE = re.compile(r'\(' + U + r'\)\s*[:=]?\s*' + NUM)


def timer_sum(text):
    """(count, seconds): the lines that name a time of the program's own with a
    unit, and the sum of those times. A line with several times (a per-kernel
    breakdown) counts its first."""
    n, total = 0, 0.0
    for line in text.splitlines():
        low = line.lower()
        k = re.search(r'\b(times?|elapsed|runtime)\b', low)
        if not k or 'gsan' in low or 'sanitizer' in low:
            continue
        rest = low[k.start():]
        m = BEFORE.search(rest)
        if m:
            v, u = float(m.group(2)), m.group(1)
        else:
            m = AFTER.search(rest)
            if not m:
                continue
            v, u = float(m.group(1)), m.group(2)
        n += 1
        total += v * UNIT[u]
    return n, total


def verdicts(text):
    return sorted(set(re.findall(r'\b(PASS(?:ED)?|FAIL(?:ED|URE)?)\b', text)))


def read_runs(logdir, name, tool):
    runs = []
    i = 1
    while os.path.exists(os.path.join(logdir, '%s.%s.%d.t' % (name, tool, i))):
        base = os.path.join(logdir, '%s.%s.%d' % (name, tool, i))
        rc, secs = open(base + '.t').read().split()
        try:
            text = open(base, errors='replace').read()
        except OSError:
            text = ''
        runs.append({'rc': int(rc), 'wall': float(secs), 'text': text})
        i += 1
    return runs


def out_of(cmd):
    """cmd's output lines; none when it cannot run"""
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()
    except OSError:
        return []


def med(xs):
    return statistics.median(xs) if xs else None


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float('nan')


def fmt_s(x):
    if x is None:
        return '-'
    if x >= 1:
        return '%.2f s' % x
    if x >= 1e-3:
        return '%.2f ms' % (x * 1e3)
    return '%.1f us' % (x * 1e6)


def main():
    logdir, results, reps, cs, cs_timeout, hb = sys.argv[1:7]
    names = sys.argv[7:]
    cs, cs_timeout = cs == '1', float(cs_timeout)
    cat = {}
    for line in open('bench/corpus.list'):
        f = line.split()
        if f and not f[0].startswith('#'):
            cat[f[0]] = f[1]
    rows, problems, excluded = [], [], []
    for n in names:
        nat, gs, cr = (read_runs(logdir, n, t) for t in ('native', 'gsan', 'cs'))
        args = open(os.path.join(logdir, n + '.args')).read().strip() if os.path.exists(
            os.path.join(logdir, n + '.args')) else ''
        if os.path.exists(os.path.join(logdir, n + '.skipped')):
            excluded.append((n, 'not run: the time budget (BUDGET) was spent'))
            continue
        if not nat:
            excluded.append((n, 'did not build natively'))
            continue
        if any(r['rc'] for r in nat):
            excluded.append((n, 'exit %d natively' % next(r['rc'] for r in nat if r['rc'])))
            continue
        cnt = timer_sum(nat[0]['text'])[0]
        timed = cnt > 0

        def metric(r):
            c, s = timer_sum(r['text'])
            return s if timed and c == cnt else None

        row = {'name': n, 'cat': cat.get(n, '?'), 'args': args, 'timed': timed}
        row['nat_wall'] = med([r['wall'] for r in nat])
        row['nat_t'] = med([metric(r) for r in nat]) if timed else row['nat_wall']
        why = None
        if not gs:
            why = 'did not build with gsan nvcc'
        elif any(r['rc'] for r in gs):
            why = 'exit %d under gsan' % next(r['rc'] for r in gs if r['rc'])
        elif any('GPUSanitizer:' in r['text'] for r in gs):
            line = next(l for r in gs for l in r['text'].splitlines() if 'GPUSanitizer:' in l)
            why = 'gsan reported: ' + line.strip()[:160]
        elif verdicts(gs[0]['text']) != verdicts(nat[0]['text']):
            why = 'printed %s under gsan, %s natively' % (verdicts(gs[0]['text']), verdicts(nat[0]['text']))
        elif timed and any(metric(r) is None for r in gs):
            why = 'printed its times differently under gsan'
        if why:
            problems.append((n, why))
            continue
        row['gsan_wall'] = med([r['wall'] for r in gs])
        row['gsan_t'] = med([metric(r) for r in gs]) if timed else row['gsan_wall']
        row['cs_t'] = row['cs_note'] = None
        if cs and cr:
            r = cr[0]
            if r['rc'] in (124, 137):
                # cut off: its own timer never finished, so the whole cut-off
                # run counts against the native wall time, a lower bound
                row['cs_note'] = 'cut off at %.0f s' % r['wall']
                row['cs_lb'] = r['wall'] / row['nat_wall']
            elif r['rc']:
                row['cs_note'] = 'exit %d' % r['rc']
            else:
                m = re.search(r'ERROR SUMMARY: (\d+) error', r['text'])
                if m and int(m.group(1)):
                    row['cs_note'] = '%s errors reported' % m.group(1)
                row['cs_t'] = metric(r) if timed else r['wall']
                row['cs_wall'] = r['wall']
                if timed and row['cs_t'] is None:
                    row['cs_note'] = 'times printed differently'
        rows.append(row)

    for r in rows:
        r['g'] = r['gsan_t'] / r['nat_t'] if r['nat_t'] else float('nan')
        r['gw'] = r['gsan_wall'] / r['nat_wall']
        if r.get('cs_lb'):
            r['c'] = r['cs_lb']
        elif r['cs_t'] and r['nat_t']:
            r['c'] = r['cs_t'] / r['nat_t']
        else:
            r['c'] = None
    ok = [r for r in rows if r['nat_t'] and r['nat_t'] > 0]
    gm = gmean([r['g'] for r in ok])
    cs_rows = [r for r in ok if r['c']]
    cgm = gmean([r['c'] for r in cs_rows])
    cut = sum(1 for r in cs_rows if r.get('cs_lb') or (r['cs_note'] or '').startswith('cut off'))
    worst = max(ok, key=lambda r: r['g']) if ok else None

    rev = os.environ.get('GSAN_REV') or subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True,
                                                       text=True).stdout.strip() or 'unknown'
    dev, nvcc = out_of(['nvidia-smi', '--query-gpu=name,driver_version', '--format=csv,noheader']), out_of(
        ['nvcc', '--version'])
    runs = sorted(f for f in os.listdir(logdir) if f.startswith('run-') and f.endswith('.txt'))
    parts = []
    if len(runs) > 1 or os.environ.get('BENCH_CMD', '').find('--report') >= 0:
        for f in runs:
            kv = dict(l.split(': ', 1) for l in open(os.path.join(logdir, f)).read().splitlines() if ': ' in l)
            parts.append('- `%s` at %s, %s, %s: %d programs' % (kv.get('command', '?'), kv.get('commit', '?'),
                                                           kv.get('date', '?'), kv.get('device', '?'),
                                                           len(kv.get('programs', '').split())))
    now = datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    w = ['# Performance corpus: public programs nobody here wrote', '',
         'Command: `%s` (written by the script, not by hand)  ' % os.environ.get('BENCH_CMD', 'sh bench/corpus.sh')]
    if parts:
        w += ['Put together at gsan commit %s, %s, from the logs of the parts below  ' % (rev, now)]
    else:
        w += ['gsan commit: %s  ' % rev, 'Date: %s  ' % now,
              'Device: %s; %s  ' % (dev[0] if dev else 'unknown', nvcc[-2] if len(nvcc) >= 2 else '')]
    w += [
         'Corpus: HeCBench `%s`, the %d programs of `bench/corpus.list`, each built by its own Makefile '
         '(`ARCH=sm_90`) with nvcc and with `gsan nvcc`' % (hb, len(names)), '']
    if parts:
        w += ['Measured in parts, each on one machine, their logs then put together:', ''] + parts + ['']
    w += [
         'Each program ran %s times natively and %s times under `gsan run` (default options), alternating, and once '
         'under `compute-sanitizer --tool memcheck`%s. **time** is the sum of the times the program prints of itself '
         '(its own timer around its kernels; marked `T`), or the wall time of the whole run where it prints none '
         '(marked `W`); medians. **wall** is the whole run, process start to exit, gsan\'s start-up included.' % (
             reps, reps, ' (cut off after CS_TIMEOUT seconds: such a run counts as at least its time over the '
                         'native wall time)' if cs else ''), '',
         '| program | kind | args | native time | gsan/native | compute-sanitizer/native | native wall | gsan/native wall | note |',
         '|---|---|---|---|---|---|---|---|---|']
    for r in rows:
        c = '-' if r['c'] is None else ('>= %.1fx' % r['c'] if r.get('cs_lb') else '%.1fx' % r['c'])
        w.append('| %s | %s | `%s` | %s %s | %.3fx | %s | %s | %.3fx | %s |' % (
            r['name'], r['cat'], r['args'] or ' ', fmt_s(r['nat_t']), 'T' if r['timed'] else 'W', r['g'], c,
            fmt_s(r['nat_wall']), r['gw'], r['cs_note'] or ''))
    w.append('')
    if problems:
        w += ['## Failed under gsan (%d)' % len(problems), '']
        w += ['- %s: %s' % p for p in problems]
        w.append('')
    if excluded:
        w += ['## Not measured (%d)' % len(excluded), '']
        w += ['- %s: %s' % e for e in excluded]
        w.append('')
    if ok:
        w.append('Wall time, gsan/native, geometric mean: %.3fx. compute-sanitizer figures from %d programs%s.' % (
            gmean([r['gw'] for r in ok]), len(cs_rows), ', %d of them lower bounds (cut off)' % cut if cut else ''))
        w.append('')
        w.append('corpus geomean: gsan %.3f, compute-sanitizer %.1f over %d programs; worst gsan %.3f (%s)' % (
            gm, cgm, len(ok), worst['g'], worst['name']))
    os.makedirs(os.path.dirname(results) or '.', exist_ok=True)
    with open(results, 'w') as f:
        f.write('\n'.join(w) + '\n')
    print('\n'.join(w[-3:] if ok else w))
    for p in problems:
        print('corpus: %s: %s' % p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
