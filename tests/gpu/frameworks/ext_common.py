"""The frameworks tests' PyTorch extension (ext/oob_ext.cpp, ext/oob_ext.cu),
built by torch.utils.cpp_extension.load, the JIT build, with its CUDA code
compiled by gsan nvcc: PyTorch runs the compiler PYTORCH_NVCC names (run.sh
sets it to build/bin/gsan-nvcc), and writes it into the build's ninja file,
from which nvcc_used() reads it back.

Run as a program, it builds the extension and says with which nvcc (exit 0),
or why it cannot be built here (exit 77: no ninja), or that the build failed
(exit 1). The tests import load() and get the built module."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [os.path.join(HERE, 'ext', 'oob_ext.cpp'), os.path.join(HERE, 'ext', 'oob_ext.cu')]
SKIP = 77


def build_dir():
    return os.environ.get('GSAN_FW_EXT_DIR') or os.path.join(HERE, '..', '..', '..', 'build', 'frameworks', 'ext')


def why_not():
    """Why the extension cannot be built here, or None. cpp_extension runs
    `ninja`: the ninja package's binary is put on PATH when only the package
    is there."""
    if shutil.which('ninja'):
        return None
    try:
        import ninja
        os.environ['PATH'] = ninja.BIN_DIR + os.pathsep + os.environ.get('PATH', '')
        return None if shutil.which('ninja') else 'the ninja package has no ninja binary'
    except ImportError:
        return 'ninja is not installed (torch.utils.cpp_extension.load needs it: pip install ninja)'


def nvcc_used():
    """The nvcc the extension's build ran: the `nvcc = ...` line of its ninja file."""
    try:
        with open(os.path.join(build_dir(), 'build.ninja')) as f:
            for line in f:
                if line.startswith('nvcc = '):
                    return line.split('=', 1)[1].strip()
    except OSError:
        pass
    return None


def load(verbose=False):
    """The extension module, built first when needed (up to date: no rebuild)."""
    reason = why_not()
    if reason:
        print('SKIP: ' + reason, flush=True)
        sys.exit(SKIP)
    import torch
    from torch.utils import cpp_extension
    # the device's own architecture only, as the GPU tests build theirs
    if not os.environ.get('TORCH_CUDA_ARCH_LIST'):
        os.environ['TORCH_CUDA_ARCH_LIST'] = '%d.%d' % torch.cuda.get_device_capability()
    d = build_dir()
    os.makedirs(d, exist_ok=True)
    mod = cpp_extension.load(name='gsan_oob_ext', sources=SOURCES, build_directory=d, verbose=verbose)
    nvcc = nvcc_used()
    print('extension built by: %s' % nvcc, flush=True)
    if not nvcc or os.path.basename(nvcc) != 'gsan-nvcc':
        print('FAIL: the extension was not built by gsan nvcc (PYTORCH_NVCC=%s): its kernels are not checked'
              % os.environ.get('PYTORCH_NVCC'), flush=True)
        sys.exit(3)
    return mod


if __name__ == '__main__':
    try:
        load(verbose=True)
    except SystemExit:
        raise
    except Exception as e:  # the build's own output is above
        print('FAIL: the extension did not build: %s' % e, flush=True)
        sys.exit(1)
    print('extension built', flush=True)
