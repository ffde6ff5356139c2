#!/usr/bin/env python3
"""The table of bench/uninstrumented.sh: SASS-only workloads natively, under
gsan run, under gsan run --binary and under compute-sanitizer, then which
binary-mode bug programs each tool reports. The logs are read with
perf_table.py's parser (the lines bench/workloads/bench.h prints, the tools'
error lines).
Usage: uninstrumented_table.py LOGDIR RESULTS REPS CS_REPS CS 'NAME...' 'BUG...'"""
import os
import re
import sys

from perf_table import geomean, header, parse


def report_kinds(path):
    """the kinds of gsan's reports in a log, in order"""
    if not os.path.exists(path):
        return []
    return re.findall(r'ERROR: GPUSanitizer: (\S+)', open(path, errors='replace').read())


def main():
    logdir, results, reps, cs_reps, cs_on, names, bugs = sys.argv[1:8]
    names, bugs, cs_on = names.split(), bugs.split(), cs_on == '1'
    rows, problems, ratios = [], [], {'gsan': [], 'binary': [], 'cs': []}
    for n in names:
        r = {k: parse(os.path.join(logdir, '%s.%s' % (n, k))) for k in ('native', 'gsan', 'binary', 'cs')}
        nat = r['native']
        if nat['ms'] is None:
            problems.append('%s: no native time (see %s.native)' % (n, n))
            continue
        cells = []
        for k in ('gsan', 'binary', 'cs'):
            if k == 'cs' and not cs_on:
                cells.append('not run')
                continue
            x = r[k]['ms'] / nat['ms'] if r[k]['ms'] else None
            ratios[k].append(x)
            cells.append('%.2fx' % x if x else '—')
            if x is None:
                problems.append('%s: no time under %s (see %s.%s)' % (n, k, n, k))
            elif r[k]['sum'] != nat['sum']:
                problems.append('%s: %s checksum %s differs from native %s' % (n, k, r[k]['sum'], nat['sum']))
            if r[k].get('reports') or r[k]['errors']:
                problems.append('%s: %s reported errors on a correct program (see %s.%s)' % (n, k, n, k))
        blog = os.path.join(logdir, '%s.binary' % n)
        patched = os.path.exists(blog) and 'binary mode: patched a module' in open(blog, errors='replace').read()
        if not patched:
            problems.append('%s: gsan --binary patched no module (see %s.binary)' % (n, n))
        rows.append('| %s | %.2f | %s | %s | %s |' % (n, nat['ms'], cells[0], cells[1], cells[2]))
    mrows = []
    for b in bugs:
        kinds = report_kinds(os.path.join(logdir, '%s.binary' % b))
        cs = parse(os.path.join(logdir, '%s.cs' % b))['errors'] if cs_on else None
        mrows.append('| %s | %s | %s |' % (b, ', '.join(sorted(set(kinds))) or 'nothing',
                                             'not run' if not cs_on else ('%d error(s)' % cs if cs else 'nothing')))
    g = {k: geomean(v) for k, v in ratios.items()}
    out = header('Code gsan did not compile: gsan run, gsan run --binary and compute-sanitizer against native',
                 'sh bench/uninstrumented.sh', cs_on) + [
           'Each workload (bench/workloads) is built once by `nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90`',
           '(SASS only: nothing gsan can instrument) and times itself with CUDA events: the median of %s' % reps,
           'repetitions after 2 warm-ups (compute-sanitizer: %s after 1), in ms per repetition. "gsan" is' % cs_reps,
           '`gsan run` with its default options, "gsan --binary" is `gsan run --binary` (every global access',
           'patched through the Sanitizer API, docs/binary.md), compute-sanitizer is `--tool memcheck`; each',
           'column is the time over native. Every checksum must equal the native one.', '',
           '| workload | native ms | gsan | gsan --binary | compute-sanitizer |', '|---|---:|---:|---:|---:|'] + rows
    out += ['', '## Bugs in SASS-only code (tests/gpu/binary)', '',
            'What each tool reports on the binary-mode test programs (gsan with halt_on_error=0).', '',
            '| program | gsan run --binary | compute-sanitizer |', '|---|---|---|'] + mrows
    if problems:
        out += ['', '## Problems', ''] + ['- ' + p for p in problems]
    fmt = lambda x, f: f % x if x else '?'
    out += ['', 'geomean: gsan %s, gsan --binary %s, compute-sanitizer %s' % (
        fmt(g['gsan'], '%.2fx'), fmt(g['binary'], '%.2fx'), fmt(g['cs'], '%.1fx') if cs_on else 'not run')]
    os.makedirs(os.path.dirname(results) or '.', exist_ok=True)
    open(results, 'w').write('\n'.join(out) + '\n')
    print('\n'.join(out[out.index('| workload | native ms | gsan | gsan --binary | compute-sanitizer |'):]))
    return 0 if not problems else 1


if __name__ == '__main__':
    sys.exit(main())
