# What the GPU suites beside the bug suite (stress, binary, uninstrumented)
# share in their lit.cfg.py: the bug suite's configuration
# (tests/bugs/lit.cfg.py: gsan nvcc, gsan run, FileCheck, the "gpu" feature)
# under the suite's own name and build directory, its .cu files as tests,
# and %tools.
import os

GPU = os.path.dirname(os.path.abspath(__file__))


def setup(lit_config, config, here, name, excludes=()):
    lit_config.load_config(config, os.path.join(GPU, '..', 'bugs', 'lit.cfg.py'))
    config.name = 'gsan-' + name
    config.test_source_root = here
    # build/<name>, or build/<name>.<variant> beside build/bugs.<variant> (ptx_options)
    bugs_root = config.test_exec_root
    config.test_exec_root = os.path.join(os.path.dirname(bugs_root),
                                         name + os.path.basename(bugs_root)[len('bugs'):])
    config.excludes = ['lit.cfg.py'] + list(excludes)
    config.suffixes = ['.cu']
    config.substitutions.append(('%tools', os.path.join(GPU, '..', 'tools')))
