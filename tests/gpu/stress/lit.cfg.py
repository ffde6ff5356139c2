# lit configuration for the GPU stress tests (issue 7): the bug suite's
# configuration (tests/bugs/lit.cfg.py: gsan nvcc, gsan run, FileCheck, the
# "gpu" feature), with its own name and build directory. Without a GPU they
# are UNSUPPORTED; tests/nvcc/stress_build.test still builds every one.
import os

HERE = os.path.dirname(os.path.abspath(__file__))
lit_config.load_config(config, os.path.join(HERE, '..', '..', 'bugs', 'lit.cfg.py'))
config.name = 'gsan-stress'
config.test_source_root = HERE
config.test_exec_root = os.path.join(os.path.dirname(config.test_exec_root), 'stress')
config.excludes = ['lit.cfg.py', 'stress.h']
config.suffixes = ['.cu']
config.substitutions.append(('%tools', os.path.join(HERE, '..', '..', 'tools')))
config.environment['GSAN_CACHE'] = os.path.join(config.test_exec_root, 'nvcc-cache')
