#!/bin/sh
# The GPU bug suite, side by side with compute-sanitizer (needs a GPU):
#  - gsan: every program in tests/bugs through lit, built by gsan nvcc and run
#    under gsan run; it passes when its output matches its CHECK lines (kind,
#    access, source line) and its exit status is right;
#  - gsan --binary: the same program built by plain nvcc as SASS only (nothing
#    for gsan to instrument) and run under gsan run --binary; a bug counts as
#    found when a report of the kind its CHECK lines name is printed;
#  - compute-sanitizer: that SASS-only build run under `compute-sanitizer
#    --tool memcheck --leak-check full`; a bug counts as found when it reports
#    an error of the bug's kind (an invalid access to the memory the bug is
#    in, a device-heap error, a leak, a failed API call; not held to the line),
#    and the matrix says how many reported any error at all.
# The compute-sanitizer and binary-mode runs go PJOBS (8) programs at a time.
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

# compute-sanitizer and gsan's binary mode, on natively built programs: SASS
# only, for this GPU (no PTX: nothing gsan could instrument, as closed
# libraries ship)
SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ')
SM=${SM:-90}
ls tests/bugs/*.cu | xargs -P "$JOBS" -I{} sh -c \
  'n=$(basename {} .cu); nvcc -g -lineinfo -gencode arch=compute_'"$SM"',code=sm_'"$SM"' -o '"$W"'/$n {} -lcuda $(sed -n "s|^// JIT-LINK:||p" {}) >'"$W"'/$n.build 2>&1 || echo "$n: native build failed"'
: >"$LOGDIR/skipped.txt"
# PyTorch programs run under python3, with the environment their RUN line gives
HAVE_TORCH=0
python3 -c 'import torch, triton' >/dev/null 2>&1 && HAVE_TORCH=1
# programs that need two GPUs are left out of the matrix on a machine with one
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
: >"$W/programs.txt"
for src in tests/bugs/*.cu tests/bugs/*.py; do
  case $src in */lit.cfg.py) continue ;; *.py) n=$(basename "$src" .py) ;; *) n=$(basename "$src" .cu) ;; esac
  if [ "$NGPU" -lt 2 ] && grep -q 'REQUIRES:.*multi-gpu' "$src"; then
    echo "$n needs-2-gpus" >>"$LOGDIR/skipped.txt"
    continue
  fi
  echo "$src" >>"$W/programs.txt"
done
# Each program under compute-sanitizer and, when it is CUDA C++, under gsan
# run --binary: PJOBS programs at a time (a detection run, not a timing), each
# writing its own files in $W: N.cs (compute-sanitizer's output), N.cs.txt
# (its error count and the kinds of error it printed), N.bin (gsan's output),
# N.bin.txt (gsan's exit status and the kinds it reported; a status of 128 or
# more is a crash, 124 a timeout).
export W HAVE_TORCH
xargs -P "${PJOBS:-8}" -n 1 sh -c '
src=$1
case $src in *.py) n=$(basename "$src" .py) ;; *) n=$(basename "$src" .cu) ;; esac
out=$W/$n.cs
rm -f "$out" "$out.txt" "$W/$n.bin" "$W/$n.bin.txt"
case $src in
  *.py)
    if [ "$HAVE_TORCH" = 1 ]; then
      nocache=
      grep -q "PYTORCH_NO_CUDA_MEMORY_CACHING=1" "$src" && nocache=PYTORCH_NO_CUDA_MEMORY_CACHING=1
      env $nocache timeout 300 compute-sanitizer --tool memcheck --leak-check full python3 "$src" >"$out" 2>&1
    fi ;;
  *)
    if [ -x "$W/$n" ]; then
      timeout 300 compute-sanitizer --tool memcheck --leak-check full "$W/$n" >"$out" 2>&1
      timeout 300 build/bin/gsan run --binary -- "$W/$n" >"$W/$n.bin" 2>&1
      rc=$?
      kinds=$(sed -n "s/.*ERROR: GPUSanitizer: \([a-z-]*\).*/\1/p" "$W/$n.bin" | sort -u | paste -sd, -)
      echo "$rc ${kinds:--}" >"$W/$n.bin.txt"
    else
      echo "norun -" >"$W/$n.bin.txt"
    fi ;;
esac
if [ -f "$out" ]; then
  errs=$(sed -n "s/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p" "$out" | tail -n 1)
  # what it reported: an access to global, shared or local memory, a device
  # heap error, a leak, an API call that failed, a hardware exception
  kinds=$(sed -n -e "s/.*Invalid __global__ .*/global/p" -e "s/.*Invalid __shared__ .*/shared/p" \
    -e "s/.*Invalid __local__ .*/local/p" -e "s/.*Malloc\/Free [Ee]rror.*/heap/p" -e "s/.*Leaked [0-9]* bytes.*/leak/p" \
    -e "s/.*Program hit .*/api/p" -e "s/.*Out-of-range Shared or Local Address.*/shared-or-local/p" \
    -e "s/.*\(Illegal Address\|Hardware Stack Overflow\|Misaligned\).*/hardware/p" "$out" | sort -u | paste -sd, -)
  echo "${errs:-?} ${kinds:--}" >"$out.txt"
fi
' sh <"$W/programs.txt"
: >"$LOGDIR/compute-sanitizer.log"
: >"$LOGDIR/cs.txt"
: >"$LOGDIR/binary.txt"
: >"$LOGDIR/binary.log"
while read -r src; do
  case $src in *.py) n=$(basename "$src" .py) ;; *) n=$(basename "$src" .cu) ;; esac
  if [ -f "$W/$n.cs.txt" ]; then echo "$n $(cat "$W/$n.cs.txt")"; else echo "$n ? -"; fi >>"$LOGDIR/cs.txt"
  { echo "== $n"; cat "$W/$n.cs" 2>/dev/null; } >>"$LOGDIR/compute-sanitizer.log"
  case $src in *.py) continue ;; esac
  echo "$n $(cat "$W/$n.bin.txt" 2>/dev/null || echo 'norun -')" >>"$LOGDIR/binary.txt"
  { echo "== $n (exit $(cut -d' ' -f1 "$W/$n.bin.txt" 2>/dev/null))"; cat "$W/$n.bin" 2>/dev/null; } >>"$LOGDIR/binary.log"
done <"$W/programs.txt"

# the matrix
SM=$SM python3 - "$LOGDIR/gsan.txt" "$LOGDIR/cs.txt" "$RESULTS" "$LOGDIR/skipped.txt" "$LOGDIR/binary.txt" <<'PY'
import datetime, os, re, subprocess, sys
gsan = dict(l.split() for l in open(sys.argv[1]) if l.strip())
cs = {l.split()[0]: l.split()[1:] for l in open(sys.argv[2]) if l.strip()}
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
binary = {l.split()[0]: l.split()[1:] for l in open(sys.argv[5]) if l.strip()}
def expected_kind(name):
    """the kind of the program's first expected report, as its CHECK lines give it"""
    path = 'tests/bugs/%s.cu' % name
    if not os.path.exists(path):
        path = 'tests/bugs/%s.py' % name
    for line in open(path):
        m = re.match(r'\s*//\s*[A-Z-]*:\s*.*ERROR: GPUSanitizer: ([a-z-]+)', line)
        if m:
            return m.group(1)
    return None
b_found, b_other, b_fp, b_crash, b_bugs, b_clean, cs_not_b = 0, 0, 0, 0, 0, 0, []
def binary_cell(name, bug, cs_found):
    global b_found, b_other, b_fp, b_crash, b_bugs, b_clean
    if name not in binary:
        return 'not run (Python)' if os.path.exists('tests/bugs/%s.py' % name) else 'not run'
    rc, kinds = binary[name][0], binary[name][1].split(',') if binary[name][1] != '-' else []
    if rc == 'norun':
        return 'did not build'
    rc = int(rc)
    if rc >= 124:
        b_crash += 1
        if bug and cs_found:
            cs_not_b.append(name)
        return '**crashed (exit %d)**' % rc if rc != 124 else '**timed out**'
    if not bug:
        b_clean += 1
        b_fp += bool(kinds)
        return 'clean' if not kinds else 'false positive (%s)' % ', '.join(kinds)
    b_bugs += 1
    want = expected_kind(name)
    if want in kinds:
        b_found += 1
        return 'found'
    if cs_found:
        cs_not_b.append(name)
    if kinds:
        b_other += 1
        return 'other: %s' % ', '.join(kinds)
    return 'missed'
# compute-sanitizer's errors (run.sh's N.cs.txt) that are of a bug's kind:
# gsan's kind -> the kinds of compute-sanitizer's messages that say the same
CS_KINDS = {'global-buffer-overflow': {'global', 'hardware'}, 'use-after-free': {'global', 'hardware', 'api'},
            'wild-pointer': {'global', 'hardware'}, 'shared-buffer-overflow': {'shared', 'shared-or-local'},
            'local-buffer-overflow': {'local', 'shared-or-local'}, 'use-after-scope': {'local', 'shared-or-local'},
            'device-heap-buffer-overflow': {'global', 'heap'}, 'device-heap-use-after-free': {'global', 'heap'},
            'device-heap-double-free': {'heap'}, 'device-heap-invalid-free': {'heap'}, 'detected': {'leak'},
            'memcpy-param-overflow': {'api', 'global'}, 'memset-param-overflow': {'api', 'global'},
            'double-free': {'api'}, 'invalid-free': {'api'}}
def cs_of_kind(name):
    e, kinds = cs[name][0], set(cs[name][1].split(',')) if len(cs[name]) > 1 and cs[name][1] != '-' else set()
    want = expected_kind(name)
    return e not in ('?', '0') and (not kinds or bool(kinds & CS_KINDS.get(want, kinds))), kinds
rows, nb, nc, g_found, c_found, c_any, g_fp, c_fp = [], 0, 0, 0, 0, 0, 0, 0
for name in sorted(cs):
    bug = not name.startswith('clean_')
    g = gsan.get(name, 'MISSING')
    e = cs[name][0]
    if bug:
        nb += 1
        gcell = 'found' if g == 'PASS' else 'missed (%s)' % g
        g_found += g == 'PASS'
        of_kind, kinds = cs_of_kind(name)
        ccell = ('found (%s errors)' % e if of_kind else 'other: %s (%s errors)' % (', '.join(sorted(kinds)), e)) \
            if e not in ('?', '0') else ('missed' if e == '0' else 'did not run')
        c_found += of_kind
        c_any += e not in ('?', '0')
    else:
        nc += 1
        gcell = 'clean' if g == 'PASS' else 'false positive (%s)' % g
        g_fp += g != 'PASS'
        ccell = 'clean' if e == '0' else ('false positive (%s errors)' % e if e != '?' else 'did not run')
        c_fp += e not in ('0',)
    bcell = binary_cell(name, bug, bug and cs_of_kind(name)[0])
    rows.append('| %s | %s | %s | %s | %s | %s |' % (name, 'bug' if bug else 'correct', gcell, bcell, ccell, what(name)))
out = ['# Detection matrix: gsan and compute-sanitizer on tests/bugs', '',
       'Command: `sh tests/gpu/run.sh`  ',
       'gsan commit: %s  ' % (os.environ.get('GSAN_REV') or sh('git rev-parse --short HEAD 2>/dev/null') or 'unknown'),
       'Date: %s  ' % datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
       'Device: %s  ' % sh('nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1'),
       'Toolkit: %s  ' % sh('nvcc --version | tail -n 2 | head -n 1'),
       'compute-sanitizer: %s' % sh('compute-sanitizer --version | tail -n 1'), '',
       'gsan: built by `gsan nvcc -g`, run by `gsan run`; a bug is found when the report matches the',
       "program's CHECK lines (kind, READ/WRITE and size, source line) and the exit status is right; a correct",
       'program passes when nothing is reported. gsan --binary: the same program built by plain nvcc as SASS only',
       '(`-gencode arch=compute_%s,code=sm_%s -g -lineinfo`: no PTX, nothing for gsan to instrument), run by' % (os.environ.get('SM', '?'), os.environ.get('SM', '?')),
       '`gsan run --binary`; a bug is found when a report of the kind its CHECK lines name is printed ("other" when',
       'only other kinds are); an exit status of 124 or more is a timeout or a crash. compute-sanitizer: the same',
       'SASS-only build, run under `compute-sanitizer --tool memcheck --leak-check full`; a bug is found when it',
       "reports an error of the bug's kind (an invalid access to the memory the bug is in, a device-heap error, a",
       'leak, a failed API call; "other" when it reports only errors of other kinds, such as the leak of a program',
       "that does not free its buffers). The .py programs are PyTorch with Triton kernels, run by python3 under",
       'gsan run and compute-sanitizer. Programs ran 8 at a time (a detection run, not a timing).', '',
       '| program | | gsan | gsan --binary | compute-sanitizer | what it does |', '|---|---|---|---|---|---|'] + rows + [
       '', 'compute-sanitizer: detected %d/%d bugs with their kind (%d with any error), %d false positives on %d correct programs' % (c_found, nb, c_any, c_fp, nc),
       'compute-sanitizer found with their kind, gsan --binary did not: %s' % (', '.join(cs_not_b) or 'none'),
       'gsan --binary (SASS only): detected %d/%d bugs with their kind (%d more reported as another kind), %d false positives on %d correct programs, %d crashes' % (b_found, b_bugs, b_other, b_fp, b_clean, b_crash),
       'gsan: detected %d/%d bugs, %d false positives on %d correct programs' % (g_found, nb, g_fp, nc)]
if skipped:
    out[-4:-4] = ['Not run (they need two GPUs, this machine has fewer): %s' % ', '.join(skipped), '']
os.makedirs(os.path.dirname(sys.argv[3]) or '.', exist_ok=True)
open(sys.argv[3], 'w').write('\n'.join(out) + '\n')
print('\n'.join(out[-(len(rows) + 7):]))
PY
cp "$RESULTS" "$LOGDIR/detection.md"
grep -q '^gsan: detected \([0-9]*\)/\1 bugs, 0 false' "$RESULTS"
