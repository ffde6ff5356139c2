"""Writes docs/results/frameworks.md for run.sh (beside it) from what the run
left: the rows file (test, expected, got, result, seconds; tab-separated) and
the outputs in LOGDIR. Environment: LOGDIR, ROWS, RESULTS, rev, cmd, DATE,
DEVICE, VERSIONS, NVCC, LAUNCH. Prints the tables."""
import os
import re

OUTPUTS = ('ext_build.out', 'ext_oob.out', 'ext_uaf.out', 'compile_native.out', 'compile_native_nocache.out',
           'compile_gsan.out', 'compile_gsan_cache.out', 'two_procs.out', 'two_procs.logs', 'pluggable.out',
           'triton_overflow.out', 'tensor_bounds_clean.out', 'tensor_bounds_overflow.out', 'tensor_bounds_uaf.out',
           'train_native.out', 'train_gsan.out')
# the compile runs: file, and what it was
RUNS = (('compile_native.out', 'native, caching on'), ('compile_native_nocache.out', 'native, caching off'),
        ('compile_gsan.out', 'gsan, default'), ('compile_gsan_cache.out', 'gsan, caching on'))
# bench/torch_train.py's models and modes
TRAIN = ('conv eager', 'block eager', 'conv compiled', 'block compiled')
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
               "their Triton kernels through gsan's ptxas wrapper. Native caching off: PYTORCH_NO_CUDA_MEMORY_CACHING=1",
               "(each tensor its own cudaMalloc and cudaFree); gsan's default: PyTorch's cudaMallocAsync backend (each",
               "tensor its own stream-ordered allocation, an arena slot with exact bounds, freed without a wait);",
               "caching on: PyTorch's caching allocator (under gsan, PYTORCH_NO_CUDA_MEMORY_CACHING=0: bounds are its",
               "blocks).", '']
        md += timing
    train = {m: (median_ms(logdir, 'train_native.out', m), median_ms(logdir, 'train_gsan.out', m)) for m in TRAIN}
    if any(a and b for a, b in train.values()):
        md += ['', '## Training steps with exact per-tensor bounds', '',
               '`bench/torch_train.py`: a convolutional net (64 CIFAR-sized images) and a transformer block (16 x',
               '128 tokens of 256), a step being forward, backward and an SGD step; CUDA events around 20 steps, the',
               'median of 7 such runs, after 3 warm-up steps (which compile). Native: PyTorch as installed, its caching',
               "allocator on; gsan: `gsan run`'s default, each tensor its own allocation with exact bounds.", '',
               '| model, mode | native (ms) | gsan (ms) | gsan / native |', '|---|---|---|---|']
        worst = {}
        for m in TRAIN:
            a, b = train[m]
            ratio = b / a if a and b else None
            md.append('| %s | %s | %s | %s |' % (m, '%.3f' % a if a else '?', '%.3f' % b if b else '?',
                                                '%.2fx' % ratio if ratio else '?'))
            mode = m.split()[1]
            if ratio and (mode not in worst or ratio > worst[mode]):
                worst[mode] = ratio
        md += ['', 'training step, gsan/native, exact per-tensor bounds: eager %s, compiled %s' %
               tuple('%.2f' % worst[k] if k in worst else '?' for k in ('eager', 'compiled'))]
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
