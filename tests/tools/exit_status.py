#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the given status (lit's
internal shell has no $?). Usage: exit_status.py STATUS COMMAND [ARGS...]"""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
if got != want:
    print('exit status %d, expected %d: %s' % (got, want, ' '.join(sys.argv[2:])))
    sys.exit(1)
