# lit configuration for the GPU stress tests (issue 7): the bug suite's
# configuration (tests/bugs/lit.cfg.py: gsan nvcc, gsan run, FileCheck, the
# "gpu" feature), with its own name and build directory. Without a GPU they
# are UNSUPPORTED; tests/nvcc/stress_build.test still builds every one.
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import suite  # noqa: E402  (tests/gpu/suite.py)

suite.setup(lit_config, config, HERE, 'stress', excludes=['stress.h'])
config.environment['GSAN_CACHE'] = os.path.join(config.test_exec_root, 'nvcc-cache')
