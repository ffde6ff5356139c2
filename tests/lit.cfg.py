# lit configuration for gsan's golden tests: each test file is the input plus
# the RUN lines that process it and the CHECK lines its output must match.
import glob
import os

import lit.formats

config.name = 'gsan'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.ptx', '.test']
config.excludes = ['kernels', 'corpus', 'inputs', 'triton', 'clang', 'bugs', 'regress', 'seeds']
config.test_source_root = os.path.dirname(__file__)
build = lit_config.params.get('build', os.path.join(os.path.dirname(__file__), '..', 'build'))
build = os.path.abspath(build)
config.test_exec_root = os.path.join(build, 'lit')

# the instrumenter under AddressSanitizer and UBSan: any memory error fails the test
gsan = os.path.join(build, 'bin', 'gsan-asan')
filecheck = (glob.glob('/usr/lib/llvm-*/bin/FileCheck') or ['FileCheck'])[-1]
config.substitutions.append(('%gsan', gsan))
config.substitutions.append(('%bin', os.path.join(build, 'bin')))
config.substitutions.append(('%FileCheck', filecheck))
config.substitutions.append(('%ptxas', 'ptxas'))
config.substitutions.append(('%python', 'python3'))
config.substitutions.append(('%corpus', os.path.join(build, 'corpus')))  # built by make check
config.substitutions.append(('%tools', os.path.join(os.path.dirname(__file__), 'tools')))
config.environment['PATH'] = os.pathsep.join(['/usr/local/cuda/bin', os.environ.get('PATH', '')])
# verify_asan_link_order=0: a test may preload a library into gsan-asan
# (LD_PRELOAD, which gsan run keeps after libgsan), and ASan otherwise
# insists on being first in the list; libgsan-asan.so comes before
# libasan.so (below)
config.environment['ASAN_OPTIONS'] = 'detect_leaks=1:abort_on_error=0:verify_asan_link_order=0'
config.environment['UBSAN_OPTIONS'] = 'print_stacktrace=1:halt_on_error=1'

# --param libgsan=asan (tests/run.sh): gsan run preloads libgsan-asan.so, the
# runtime under ASan and UBSan, and then ASan's runtime (GSAN_LIB lists both:
# the programs are not instrumented), as it does for a user whose
# LD_PRELOAD has libasan.so: ASan finds each function it intercepts with
# dlsym(RTLD_NEXT), which is libgsan's, from after libgsan. The sanitizers
# write their reports to lit-asan/reports/, where tests/run.sh looks for
# errors.
if lit_config.params.get('libgsan') == 'asan':
    import subprocess
    libasan = subprocess.check_output([os.environ.get('CC', 'cc'), '-print-file-name=libasan.so'], text=True).strip()
    libs = '%s:%s' % (os.path.join(build, 'lib', 'libgsan-asan.so'), libasan)
    config.test_exec_root = os.path.join(build, 'lit-asan')
    reports = os.path.join(config.test_exec_root, 'reports')
    config.substitutions = [(k, 'env GSAN_LIB=%s %s' % (libs, v)) if k == '%gsan' else (k, v) for k, v in config.substitutions]
    config.environment['ASAN_OPTIONS'] += ':log_path=' + os.path.join(reports, 'asan')
    config.environment['UBSAN_OPTIONS'] += ':log_path=' + os.path.join(reports, 'ubsan')

# the sanitizers' options as configured above, for a RUN line that changes
# one of them (env ASAN_OPTIONS=%asan_options:detect_leaks=0 ...)
config.substitutions.append(('%asan_options', config.environment['ASAN_OPTIONS']))

# tests that hand a directory to another user (chown), which only root can
if os.geteuid() == 0:
    config.available_features.add('root')

# binary mode (docs/binary.md): "sanitizer-api" when gsan was built with
# NVIDIA's Sanitizer API headers (the fake of its library is built then),
# "binary-mode" when its device patch was built too (that needs nvcc)
if os.path.exists(os.path.join(build, 'lib', 'fake', 'libsanitizer-public.so')):
    config.available_features.add('sanitizer-api')
if os.path.exists(os.path.join(build, 'lib', 'gsan_binary_patch.fatbin')):
    config.available_features.add('binary-mode')

# a CUDA driver on this machine ("cuda-driver"): libcuda.so.1 loads
import ctypes
try:
    ctypes.CDLL('libcuda.so.1')
    config.available_features.add('cuda-driver')
except OSError:
    pass
