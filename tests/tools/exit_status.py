#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the given status (lit's
internal shell has no $?). A status -N means killed by signal N.
Usage: exit_status.py [--output FILE] STATUS COMMAND [ARGS...]
With --output, the command's stdout and stderr go to FILE (else nowhere)."""
import subprocess
import sys

args = sys.argv[1:]
out = subprocess.DEVNULL
if args[:1] == ['--output']:
    out = open(args[1], 'wb')
    args = args[2:]
want = int(args[0])
got = subprocess.run(args[1:], stdout=out, stderr=subprocess.STDOUT if out is not subprocess.DEVNULL else out).returncode
if got != want:
    print('exit status %d, expected %d: %s' % (got, want, ' '.join(args[1:])))
    sys.exit(1)
