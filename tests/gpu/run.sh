#!/bin/sh
# The GPU bug suite, side by side with compute-sanitizer (needs a GPU):
#  - gsan: every program in tests/bugs through lit, built by gsan nvcc and run
#    under gsan run; it passes when its output matches its CHECK lines (kind,
#    access, source line) and its exit status is right;
#  - compute-sanitizer: the same program built by plain nvcc -lineinfo and run
#    under `compute-sanitizer --tool memcheck --leak-check full`; a bug counts as
#    found when it reports any error (it is not held to the kind or the line).
# Writes the matrix to docs/results/detection.md (RESULTS= to change; GSAN_REV= names
# the commit where the checkout has no .git) and logs
# under ${OUT:-build/gpu}. Usage: sh tests/gpu/run.sh
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
LOGDIR=${OUT:-build/gpu}
RESULTS=${RESULTS:-docs/results/detection.md}
W=build/gpu/native
mkdir -p "$LOGDIR" "$W"
PATH=/usr/local/cuda/bin:$PATH
make -s all >"$LOGDIR/make.log" 2>&1 || { echo "run.sh: make failed (see $LOGDIR/make.log)" >&2; exit 1; }
command -v compute-sanitizer >/dev/null 2>&1 || { echo "run.sh: compute-sanitizer is not on PATH" >&2; exit 1; }
JOBS=$(nproc 2>/dev/null || echo 4)

# gsan, through lit
python3 -c "from lit.main import main; main()" -v -j "$JOBS" --param build="$TOP/build" --param gpu=1 tests/bugs \
  >"$LOGDIR/lit.log" 2>&1
sed -n 's/^\([A-Z]*\): gsan-bugs :: \([^ ]*\)\.\(cu\|py\) .*/\2 \1/p' "$LOGDIR/lit.log" | sort >"$LOGDIR/gsan.txt"

# compute-sanitizer, on natively built programs
ls tests/bugs/*.cu | xargs -P "$JOBS" -I{} sh -c \
  'n=$(basename {} .cu); nvcc -g -lineinfo -arch=native -o '"$W"'/$n {} -lcuda $(sed -n "s|^// JIT-LINK:||p" {}) >'"$W"'/$n.build 2>&1 || echo "$n: native build failed"'
: >"$LOGDIR/compute-sanitizer.log"
: >"$LOGDIR/cs.txt"
: >"$LOGDIR/skipped.txt"
# PyTorch programs run under python3, with the environment their RUN line gives
HAVE_TORCH=0
python3 -c 'import torch, triton' >/dev/null 2>&1 && HAVE_TORCH=1
# programs that need two GPUs are left out of the matrix on a machine with one
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
for src in tests/bugs/*.cu tests/bugs/*.py; do
  case $src in */lit.cfg.py) continue ;; *.py) n=$(basename "$src" .py) ;; *) n=$(basename "$src" .cu) ;; esac
  if [ "$NGPU" -lt 2 ] && grep -q 'REQUIRES:.*multi-gpu' "$src"; then
    echo "$n needs-2-gpus" >>"$LOGDIR/skipped.txt"
    continue
  fi
  out=$W/$n.cs
  errs=
  case $src in
    *.py)
      if [ $HAVE_TORCH = 1 ]; then
        nocache=
        grep -q 'PYTORCH_NO_CUDA_MEMORY_CACHING=1' "$src" && nocache=PYTORCH_NO_CUDA_MEMORY_CACHING=1
        env $nocache timeout 300 compute-sanitizer --tool memcheck --leak-check full python3 "$src" >"$out" 2>&1
        errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$out" | tail -n 1)
      fi ;;
    *)
      if [ -x "$W/$n" ]; then
        timeout 300 compute-sanitizer --tool memcheck --leak-check full "$W/$n" >"$out" 2>&1
        errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$out" | tail -n 1)
      fi ;;
  esac
  echo "$n ${errs:-?}" >>"$LOGDIR/cs.txt"
  { echo "== $n"; cat "$out" 2>/dev/null; } >>"$LOGDIR/compute-sanitizer.log"
done

# the matrix
python3 - "$LOGDIR/gsan.txt" "$LOGDIR/cs.txt" "$RESULTS" "$LOGDIR/skipped.txt" <<'PY'
import datetime, os, re, subprocess, sys
gsan = dict(l.split() for l in open(sys.argv[1]) if l.strip())
cs = dict(l.split() for l in open(sys.argv[2]) if l.strip())
skipped = sorted(l.split()[0] for l in open(sys.argv[4]) if l.strip())
def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return '?'
def what(name):
    path = 'tests/bugs/%s.cu' % name
    if not os.path.exists(path):
        path = 'tests/bugs/%s.py' % name
    first = open(path).readline().lstrip('/# ').strip()
    return first.replace('|', '\\|')
rows, nb, nc, g_found, c_found, g_fp, c_fp = [], 0, 0, 0, 0, 0, 0
for name in sorted(cs):
    bug = not name.startswith('clean_')
    g = gsan.get(name, 'MISSING')
    e = cs[name]
    if bug:
        nb += 1
        gcell = 'found' if g == 'PASS' else 'missed (%s)' % g
        g_found += g == 'PASS'
        ccell = 'found (%s errors)' % e if e not in ('?', '0') else ('missed' if e == '0' else 'did not run')
        c_found += e not in ('?', '0')
    else:
        nc += 1
        gcell = 'clean' if g == 'PASS' else 'false positive (%s)' % g
        g_fp += g != 'PASS'
        ccell = 'clean' if e == '0' else ('false positive (%s errors)' % e if e != '?' else 'did not run')
        c_fp += e not in ('0',)
    rows.append('| %s | %s | %s | %s | %s |' % (name, 'bug' if bug else 'correct', gcell, ccell, what(name)))
out = ['# Detection matrix: gsan and compute-sanitizer on tests/bugs', '',
       'Command: `sh tests/gpu/run.sh`  ',
       'gsan commit: %s  ' % (os.environ.get('GSAN_REV') or sh('git rev-parse --short HEAD 2>/dev/null') or 'unknown'),
       'Date: %s  ' % datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
       'Device: %s  ' % sh('nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1'),
       'Toolkit: %s  ' % sh('nvcc --version | tail -n 2 | head -n 1'),
       'compute-sanitizer: %s' % sh('compute-sanitizer --version | tail -n 1'), '',
       'gsan: built by `gsan nvcc -g`, run by `gsan run`; a bug is found when the report matches the',
       "program's CHECK lines (kind, READ/WRITE and size, source line) and the exit status is right; a correct",
       'program passes when nothing is reported. compute-sanitizer: built by `nvcc -g -lineinfo`, run under',
       '`compute-sanitizer --tool memcheck --leak-check full`; a bug is found when it reports any error at all.',
       'The .py programs are PyTorch with Triton kernels, run by python3 under each tool.', '',
       '| program | | gsan | compute-sanitizer | what it does |', '|---|---|---|---|---|'] + rows + [
       '', 'compute-sanitizer: detected %d/%d bugs, %d false positives on %d correct programs' % (c_found, nb, c_fp, nc),
       'gsan: detected %d/%d bugs, %d false positives on %d correct programs' % (g_found, nb, g_fp, nc)]
if skipped:
    out[-2:-2] = ['Not run (they need two GPUs, this machine has fewer): %s' % ', '.join(skipped), '']
os.makedirs(os.path.dirname(sys.argv[3]) or '.', exist_ok=True)
open(sys.argv[3], 'w').write('\n'.join(out) + '\n')
print('\n'.join(out[-(len(rows) + 5):]))
PY
cp "$RESULTS" "$LOGDIR/detection.md"
grep -q '^gsan: detected \([0-9]*\)/\1 bugs, 0 false' "$RESULTS"
