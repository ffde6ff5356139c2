"""Writes docs/results/frameworks.md for run.sh (beside it) from what the run
left: the rows file (test, expected, got, result, seconds; tab-separated) and
the outputs in LOGDIR. Environment: LOGDIR, ROWS, RESULTS, rev, cmd, DATE,
DEVICE, VERSIONS, NVCC, LAUNCH. Prints the tables."""
import os
import re

OUTPUTS = ('ext_build.out', 'ext_oob.out', 'ext_uaf.out', 'compile_native.out', 'compile_native_nocache.out',
           'compile_gsan.out', 'compile_gsan_cache.out', 'two_procs.out', 'two_procs.logs', 'pluggable.out',
           'triton_overflow.out')
# the compile runs: file, and what it was
RUNS = (('compile_native.out', 'native, caching on'), ('compile_native_nocache.out', 'native, caching off'),
        ('compile_gsan.out', 'gsan, caching off'), ('compile_gsan_cache.out', 'gsan, caching on'))
KEY = re.compile(r'GPUSanitizer|^ *#0 |is located|built by|: ok|matches eager|median|compile and|^SKIP|^FAIL|'
                 r'not reached|rank [01] pid|caching allocator|under gsan:|exit status|==[0-9]+==gsan:|'
                 r'Traceback|[A-Za-z]+Error\b|error:')


def lines(logdir, name):
    try:
        with open(os.path.join(logdir, name), errors='replace') as f:
            return f.read().splitlines()
    except OSError:
        return []


def key_lines(logdir, name, limit=40):
    found = [l for l in lines(logdir, name) if KEY.search(l)]
    more = ['... (%d more in %s)' % (len(found) - limit, name)] if len(found) > limit else []
    return found[:limit] + more


def median_ms(logdir, name, model):
    for l in lines(logdir, name):
        m = re.match(r'%s: median ([0-9.]+) ms per step' % model, l)
        if m:
            return float(m.group(1))
    return None


def cell(text):
    return text.replace('|', '\\|')


def main():
    env = os.environ
    logdir = env['LOGDIR']
    with open(env['ROWS']) as f:
        rows = [l.rstrip('\n').split('\t') for l in f if l.strip()]
    counts = {k: sum(r[3] == k for r in rows) for k in ('PASS', 'FAIL', 'SKIP')}
    table = ['| test | expected | got | result | seconds |', '|---|---|---|---|---|']
    table += ['| %s |' % ' | '.join(cell(c) for c in r) for r in rows]
    table += ['', '%d passed, %d failed, %d skipped' % (counts['PASS'], counts['FAIL'], counts['SKIP'])]
    timing = []
    if any(lines(logdir, name) for name, _ in RUNS):
        timing = ['| model | %s | gsan / native (each default) | gsan / native (caching on both) |'
                  % ' | '.join('%s (ms)' % what for _, what in RUNS), '|---|---|---|---|---|---|---|']
        for model in ('mlp', 'attention'):
            v = [median_ms(logdir, name, model) for name, _ in RUNS]
            ms = ['%.4f' % x if x else '?' for x in v]
            ratio = ['%.2fx' % (a / b) if a and b else '?' for a, b in ((v[2], v[0]), (v[3], v[0]))]
            timing.append('| %s | %s |' % (model, ' | '.join(ms + ratio)))
    md = ['# The Python GPU stack under gsan: PyTorch, Triton, torch.compile', '',
          'Command: `%s`  ' % env.get('cmd', '?'),
          'Date: %s  ' % env.get('DATE', '?'),
          'Device: %s (nvidia-smi: name, driver)  ' % (env.get('DEVICE') or 'unknown'),
          'Software: %s; %s  ' % (env.get('VERSIONS', '?'), env.get('NVCC') or 'nvcc unknown'),
          'gsan: git %s' % env.get('rev', '?'), '',
          'Each test runs under `gsan run` (tests/gpu/frameworks/run.sh says what each does). A planted bug',
          "passes when gsan exits with its exitcode (1) and the output matches the test's CHECK lines (kind,",
          'access, kernel, source line, region); a correct program passes when nothing is reported and it exits 0.',
          'two_procs ran as `%s` under `gsan run --opt log_path=DIR/gsan.%%p.log`.' % env.get('LAUNCH', '?'), '']
    md += table
    if timing:
        md += ['', '## torch.compile: time per training step', '',
               'CUDA events around 20 steps (forward and backward), the median of 7 such runs, after 3 warm-up',
               "steps that compile. The native runs have Inductor and Triton caches of their own; gsan's runs compile",
               "their Triton kernels through gsan's ptxas wrapper. Caching off: PYTORCH_NO_CUDA_MEMORY_CACHING=1, gsan",
               "run's default (each tensor its own cudaMalloc and cudaFree, and a cudaFree waits for the device);",
               "caching on: PyTorch's caching allocator (under gsan, PYTORCH_NO_CUDA_MEMORY_CACHING=0).", '']
        md += timing
    md += ['', '## Key output lines', '']
    for name in OUTPUTS:
        found = key_lines(logdir, name)
        if found:
            md += ['`%s`:' % name, '```'] + found + ['```', '']
    os.makedirs(os.path.dirname(env['RESULTS']) or '.', exist_ok=True)
    with open(env['RESULTS'], 'w') as f:
        f.write('\n'.join(md) + '\n')
    print('\n'.join(table + ([''] + timing if timing else [])))


if __name__ == '__main__':
    main()
