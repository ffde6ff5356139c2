# lit configuration for the planted-bug and correct programs: each .cu file is
# built with gsan nvcc and run under gsan run, and its output must match its
# CHECK lines. They need a GPU (feature "gpu": nvidia-smi finds one, or
# --param gpu=1), two for those that ask for "multi-gpu"; without them they are
# UNSUPPORTED, and tests/nvcc/bugs_build.test
# still builds every one of them.
import glob
import os
import re
import shutil
import subprocess

import lit.formats

HERE = os.path.dirname(os.path.abspath(__file__))
config.name = 'gsan-bugs'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.cu', '.py']
config.excludes = ['lit.cfg.py']
config.test_source_root = HERE
build = os.path.abspath(lit_config.params.get('build', os.path.join(HERE, '..', '..', 'build')))
# --param ptx_options=...: gsan ptx options for every gsan nvcc build (an
# experiment over the whole suite, e.g. --frame-arrays: tests/gpu/frame_arrays.sh).
# Such a run builds under a directory of its own (build/bugs.frame-arrays), so
# that it can run beside the default one (tests/gpu/run.sh) without either
# overwriting the other's programs or compiled-module cache.
ptx_options = lit_config.params.get('ptx_options', '')
variant = re.sub(r'[^A-Za-z0-9]+', '-', ptx_options).strip('-')
config.test_exec_root = os.path.join(build, 'bugs' + ('.' + variant if variant else ''))


def have_gpu():
    if lit_config.params.get('gpu') is not None:
        return lit_config.params['gpu'] == '1'
    smi = shutil.which('nvidia-smi')
    try:
        return bool(smi) and subprocess.run([smi, '-L'], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def gpu_count():
    smi = shutil.which('nvidia-smi')
    try:
        r = subprocess.run([smi, '-L'], capture_output=True, text=True, timeout=30) if smi else None
        return r.stdout.count('GPU ') if r and r.returncode == 0 else 0
    except (OSError, subprocess.SubprocessError):
        return 0


if have_gpu():
    config.available_features.add('gpu')
    # the multi-GPU programs (feature "multi-gpu"): two devices visible
    if gpu_count() >= 2:
        config.available_features.add('multi-gpu')
# PyTorch with Triton: the framework tests (.py)
try:
    if subprocess.run(['python3', '-c', 'import torch, triton'], capture_output=True, timeout=120).returncode == 0:
        config.available_features.add('torch')
except (OSError, subprocess.SubprocessError):
    pass
# the release build: these programs run under libgsan, not the sanitizer build
config.substitutions.append(('%gsan', os.path.join(build, 'bin', 'gsan')))
config.substitutions.append(('%arch', lit_config.params.get('arch', 'native')))
config.substitutions.append(('%python', 'python3'))
filecheck = shutil.which('FileCheck') or (glob.glob('/usr/lib/llvm-*/bin/FileCheck') or ['FileCheck'])[-1]
config.substitutions.append(('%FileCheck', filecheck))
config.environment['PATH'] = os.pathsep.join(['/usr/local/cuda/bin', os.environ.get('PATH', '')])
config.environment['GSAN_CACHE'] = os.path.join(config.test_exec_root, 'nvcc-cache')
if ptx_options:
    config.environment['GSAN_PTX_OPTIONS'] = ptx_options
for var in ('LD_LIBRARY_PATH', 'HOME', 'CUDA_VISIBLE_DEVICES', 'TRITON_CACHE_DIR'):
    if var in os.environ:
        config.environment[var] = os.environ[var]
