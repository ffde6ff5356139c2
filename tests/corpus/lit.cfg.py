# lit configuration for the PTX corpus that nvcc generates from
# tests/ptx/kernels; the test format is in corpus_format.py.
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus_format  # noqa: E402

config.name = 'gsan-corpus'
config.test_format = corpus_format.CorpusFormat()
build = os.path.abspath(lit_config.params.get('build', os.path.join(HERE, '..', '..', 'build')))
config.test_source_root = os.path.join(build, 'corpus')
config.test_exec_root = os.path.join(build, 'corpus-out')
config.gsan = os.path.join(build, 'bin', 'gsan-asan')
config.environment['PATH'] = os.pathsep.join(['/usr/local/cuda/bin', os.environ.get('PATH', '')])
