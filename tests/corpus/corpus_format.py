"""The lit test format for the PTX corpus (build/corpus/<config>/<kernel>.ptx):
each file is one test.
  1. parse and print back: equal to the input up to whitespace and comments,
     and accepted by ptxas;
  2. instrument: accepted by ptxas -arch=sm_90, and --stats accounts for every
     access (checked, or unchecked with a stated reason: never silently), every
     global access checked, every check with its stub."""
import os
import re
import subprocess
import sys

import lit.formats
import lit.Test

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'tools'))
import ptx_strip  # noqa: E402


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout + p.stderr


class CorpusFormat(lit.formats.base.TestFormat):
    def getTestsInDirectory(self, suite, path_in_suite, lit_config, local_config):
        # lit walks the subdirectories itself and asks again for each one
        root = suite.getSourcePath(path_in_suite)
        for f in sorted(os.listdir(root)):
            if f.endswith('.ptx') and os.path.isfile(os.path.join(root, f)):
                yield lit.Test.Test(suite, path_in_suite + (f,), local_config)

    def execute(self, test, lit_config):
        src = test.getSourcePath()
        gsan = test.config.gsan
        tmp = test.getExecPath()
        os.makedirs(os.path.dirname(tmp), exist_ok=True)
        rdc = os.path.basename(src).startswith('rdc_')  # built with -rdc=true: relocatable
        text = open(src, encoding='latin-1').read()
        target = re.search(r'^\.target\s+(sm_\d+a?)', text, re.M)
        # sm_90 assembles PTX written for any older target; arch-specific
        # PTX (sm_90a: wgmma, setmaxnreg) needs its own target
        arch = target.group(1) if target and target.group(1).endswith('a') else 'sm_90'
        ptxas = ['ptxas', '-arch=' + arch] + (['-c'] if rdc else [])
        log = []
        rt = tmp + '.rt.ptx'
        rc, out = run([gsan, 'ptx', '--roundtrip', src, '-o', rt])
        if rc:
            return lit.Test.FAIL, 'roundtrip failed:\n' + out
        a = ptx_strip.strip(open(src, encoding='latin-1').read())
        b = ptx_strip.strip(open(rt, encoding='latin-1').read())
        if a != b:
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            return lit.Test.FAIL, 'round trip differs at %d:\n in: %s\nout: %s\n' % (i, a[i - 40:i + 40], b[i - 40:i + 40])
        rc, out = run(ptxas + [rt, '-o', tmp + '.rt.cubin'])
        if rc:
            return lit.Test.FAIL, 'ptxas rejects the round trip:\n' + out
        log.append('round trip: equal up to whitespace, ptxas accepts')
        ins = tmp + '.gsan.ptx'
        rc, out = run([gsan, 'ptx', '--stats', '-q', src, '-o', ins])
        if rc:
            return lit.Test.FAIL, 'instrumentation failed:\n' + out
        log.append(out)
        rc, perr = run(ptxas + [ins, '-o', tmp + '.gsan.cubin'])
        if rc:
            return lit.Test.FAIL, 'ptxas rejects the instrumented file:\n' + perr + '\n'.join(log)
        m = re.search(r'^\s*total\s+(\d+)\s+(\d+)', out, re.M)
        num = lambda name: int(re.search(name + r':\s+(\d+)', out).group(1))
        seen, checked = int(m.group(1)), int(m.group(2))
        accounted = checked + num(r'unchecked \(no root\)') + num(r'unchecked \(extern size\)')
        if num(r'unchecked \(unsupported\)'):
            return lit.Test.FAIL, 'unsupported accesses in compiler output:\n' + out
        if accounted != seen:
            return lit.Test.FAIL, 'accesses not accounted for (%d seen, %d accounted):\n%s' % (seen, accounted, out)
        g = re.search(r'^\s*global\s+(\d+)\s+(\d+)', out, re.M)
        if g.group(1) != g.group(2):
            return lit.Test.FAIL, 'a global access is unchecked:\n' + out
        # every check has its failure stub, every stub its check
        text = open(ins, encoding='latin-1').read()
        branches = set(re.findall(r'bra(?:\.uni)?\s+\$L__gsan_fail_(\d+);', text))
        stubs = set(re.findall(r'^\$L__gsan_fail_(\d+):', text, re.M))
        if branches != stubs:
            return lit.Test.FAIL, 'checks and stubs differ: %s' % (branches ^ stubs)
        return lit.Test.PASS, '\n'.join(log)


