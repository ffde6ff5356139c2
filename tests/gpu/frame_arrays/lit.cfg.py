# lit configuration for the frame-local arrays experiment (docs/ptx.md,
# "Frame-local arrays"; gsan ptx --frame-arrays, off by default): correct
# programs whose locals are laid out in ways per-array bounds could get wrong
# (struct fields, arrays of structs, unions, a field's address passed to a
# function, an array indexed backwards from an interior pointer, several
# arrays), built with the option at -O3 and -G, must run without a report;
# the planted bug (a histogram's index reaching into the next array) must be
# reported. The bug suite's configuration (tests/gpu/suite.py); without a GPU
# they are UNSUPPORTED. tests/gpu/frame_arrays.sh measures the false
# positives over every correct program of the suites.
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import suite  # noqa: E402  (tests/gpu/suite.py)

suite.setup(lit_config, config, HERE, 'frame_arrays')
