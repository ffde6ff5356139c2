#!/usr/bin/env python3
"""Cuts a PTX file at many points and runs gsan ptx on each prefix: every run
must end with status 0 (a prefix that happens to be valid) or 2 (a clear
error), never a signal or a sanitizer report. Usage: truncate_all.py GSAN FILE N"""
import random
import subprocess
import sys
import tempfile


def main():
    gsan, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(path, 'rb').read()
    rnd = random.Random(len(data))
    cuts = sorted({rnd.randrange(1, len(data)) for _ in range(n)})
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for cut in cuts:
            src = d + '/cut.ptx'
            with open(src, 'wb') as f:
                f.write(data[:cut])
            p = subprocess.run([gsan, 'ptx', '-q', src, '-o', d + '/out.ptx'], capture_output=True, text=True)
            if p.returncode not in (0, 2) or 'Sanitizer' in p.stderr or 'runtime error' in p.stderr:
                bad += 1
                print('cut at %d: status %d\n%s' % (cut, p.returncode, p.stderr[-2000:]))
            elif p.returncode == 2 and ': error: ' not in p.stderr:
                bad += 1
                print('cut at %d: status 2 without a located error: %s' % (cut, p.stderr))
    print('%d cuts, %d bad' % (len(cuts), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
