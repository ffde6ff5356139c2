# lit configuration for binary mode's GPU tests (docs/binary.md): programs
# built by plain nvcc as SASS only (no PTX, so nothing for gsan to
# instrument), run under gsan run --binary. The bug suite's configuration
# (tests/bugs/lit.cfg.py: gsan, FileCheck, the "gpu" feature) with its own
# name and build directory, and %sm, the SASS architecture (--param sm=,
# default 90). Without a GPU they are UNSUPPORTED; tests/nvcc/binary_build.test
# still builds every one.
import os

HERE = os.path.dirname(os.path.abspath(__file__))
lit_config.load_config(config, os.path.join(HERE, '..', '..', 'bugs', 'lit.cfg.py'))
config.name = 'gsan-binary'
config.test_source_root = HERE
config.test_exec_root = os.path.join(os.path.dirname(config.test_exec_root), 'binary')
config.excludes = ['lit.cfg.py', 'binary.h']
config.suffixes = ['.cu']
config.substitutions.append(('%tools', os.path.join(HERE, '..', '..', 'tools')))
config.substitutions.append(('%sm', lit_config.params.get('sm', '90')))
