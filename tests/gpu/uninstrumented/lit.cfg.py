# lit configuration for the programs gsan cannot recompile (issue 8): each
# .cu file is built with plain nvcc as SASS only (-gencode
# arch=compute_90,code=sm_90: no PTX for gsan to instrument) and run under
# gsan run, where only the canaries and guard gaps of gsan's allocator see
# its overflows. The bug suite's configuration (tests/bugs/lit.cfg.py: gsan
# run, FileCheck, the "gpu" feature) with its own name and build directory.
# Without a GPU they are UNSUPPORTED; tests/nvcc/uninstrumented_build.test
# still builds every one.
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import suite  # noqa: E402  (tests/gpu/suite.py)

suite.setup(lit_config, config, HERE, 'uninstrumented')
config.substitutions.append(('%sass_only', '-gencode arch=compute_90,code=sm_90'))
