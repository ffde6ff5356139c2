# lit configuration for the programs gsan cannot recompile (issue 8): each
# .cu file is built with plain nvcc as SASS only (-gencode
# arch=compute_90,code=sm_90: no PTX for gsan to instrument) and run under
# gsan run, where only the canaries and guard gaps of gsan's allocator see
# its overflows. The bug suite's configuration (tests/bugs/lit.cfg.py: gsan
# run, FileCheck, the "gpu" feature) with its own name and build directory.
# Without a GPU they are UNSUPPORTED; tests/nvcc/uninstrumented_build.test
# still builds every one.
import os

HERE = os.path.dirname(os.path.abspath(__file__))
lit_config.load_config(config, os.path.join(HERE, '..', '..', 'bugs', 'lit.cfg.py'))
config.name = 'gsan-uninstrumented'
config.test_source_root = HERE
config.test_exec_root = os.path.join(os.path.dirname(config.test_exec_root), 'uninstrumented')
config.excludes = ['lit.cfg.py']
config.suffixes = ['.cu']
config.substitutions.append(('%tools', os.path.join(HERE, '..', '..', 'tools')))
config.substitutions.append(('%sass_only', '-gencode arch=compute_90,code=sm_90'))
