# lit configuration for binary mode's GPU tests (docs/binary.md): programs
# built by plain nvcc as SASS only (no PTX, so nothing for gsan to
# instrument), run under gsan run --binary. The bug suite's configuration
# (tests/bugs/lit.cfg.py: gsan, FileCheck, the "gpu" feature) with its own
# name and build directory, and %sm, the SASS architecture (--param sm=,
# default 90). Without a GPU they are UNSUPPORTED; tests/nvcc/binary_build.test
# still builds every one.
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import suite  # noqa: E402  (tests/gpu/suite.py)

suite.setup(lit_config, config, HERE, 'binary', excludes=['binary.h'])
config.substitutions.append(('%sm', lit_config.params.get('sm', '90')))
