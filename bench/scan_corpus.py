#!/usr/bin/env python3
"""Helper of bench/scan_corpus.sh: `gsan scan` over HeCBench's CUDA programs.

  scan_corpus.py prepare HECBENCH WORK   extract src/*-cuda (less the programs
      kept apart) into WORK/src, and derive each program's nvcc flags from its
      Makefile (make -n) into WORK/flags/NAME (one argument a line)
  scan_corpus.py report WORK OUT.md COMMAND...   read WORK/out/ and the triage
      file and write the results; the last line is the totals

Nothing from HeCBench is written outside WORK (an ignored build folder)."""
import json
import os
import re
import shlex
import statistics
import subprocess
import sys

# kept apart for independent measurement: never run or tuned on here
EXCLUDED = {"backprop", "bfs", "b+tree", "cfd", "gaussian", "heartwall", "hotspot", "hotspot3D", "hybridsort",
            "kmeans", "lavaMD", "leukocyte", "lud", "myocyte", "nn", "nw", "particlefilter", "pathfinder", "srad",
            "streamcluster"}


def git(gitdir, *args, **kw):
    return subprocess.run(["git", "--git-dir=" + gitdir] + list(args), capture_output=True, **kw)


def extract(src, work):
    """the -cuda folders of src (a checkout or a git directory) into work/src;
    returns the program names"""
    dest = os.path.join(work, "src")
    os.makedirs(dest, exist_ok=True)
    names = []
    if os.path.isdir(os.path.join(src, "src")) and not os.path.isdir(os.path.join(src, "objects")):
        for d in sorted(os.listdir(os.path.join(src, "src"))):
            if d == "include" and not os.path.isdir(os.path.join(dest, d)):
                subprocess.run(["cp", "-r", os.path.join(src, "src", d), dest], check=True)
            if d.endswith("-cuda") and d[:-5] not in EXCLUDED:
                names.append(d[:-5])
                if not os.path.isdir(os.path.join(dest, d)):
                    subprocess.run(["cp", "-r", os.path.join(src, "src", d), dest], check=True)
        return names
    gitdir = src if os.path.isdir(os.path.join(src, "objects")) else os.path.join(src, ".git")
    r = git(gitdir, "ls-tree", "--name-only", "HEAD", "src/")
    if r.returncode:
        sys.exit("scan_corpus: %s is neither a HeCBench checkout nor its git directory" % src)
    for path in r.stdout.decode().split():
        d = os.path.basename(path)
        if d == "include" and not os.path.isdir(os.path.join(dest, d)):
            # headers the programs share (../include/SDKBitMap.h)
            a = git(gitdir, "archive", "HEAD", path)
            if a.returncode == 0:
                subprocess.run(["tar", "-x", "-C", work], input=a.stdout, check=True)
            continue
        if not d.endswith("-cuda") or d[:-5] in EXCLUDED:
            continue
        names.append(d[:-5])
        if os.path.isdir(os.path.join(dest, d)):
            continue
        a = git(gitdir, "archive", "HEAD", path)
        if a.returncode == 0:
            subprocess.run(["tar", "-x", "-C", work], input=a.stdout, check=True)
            continue
        # a mirror without some large data blobs: every file that is there
        extract_files(gitdir, path, work)
    return names


def extract_files(gitdir, path, work, wanted=None):
    """the files under path at HEAD, one blob at a time (those whose name
    matches wanted, if given), into work; blobs the mirror lacks are skipped"""
    t = git(gitdir, "ls-tree", "-r", "HEAD", path)
    for line in t.stdout.decode().splitlines():
        meta, name = line.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind != "blob" or (wanted and not re.search(wanted, name)):
            continue
        b = git(gitdir, "cat-file", "blob", sha)
        if b.returncode:
            continue
        out = os.path.join(work, name)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if mode == "120000":
            if not os.path.lexists(out):
                os.symlink(b.stdout.decode(), out)
        else:
            with open(out, "wb") as f:
                f.write(b.stdout)


def make_flags(pdir):
    """the arguments of the first nvcc command of the program's build that
    compiles a .cu file (make -n, nothing run), and where they came from"""
    for mk in ("Makefile", "makefile", "Makefile.nvidia"):
        if os.path.exists(os.path.join(pdir, mk)):
            break
    else:
        return None, "no Makefile"
    try:
        r = subprocess.run(["make", "-n", "-B", "-k", "-f", mk], cwd=pdir, capture_output=True, timeout=30,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "make -n timed out"
    for line in r.stdout.decode(errors="replace").splitlines():
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if not words or not os.path.basename(words[0]).startswith("nvc"):
            continue
        if any(w.endswith(".cu") for w in words):
            return words[1:], mk + " (make -n)"
    # make -n stopped before a compile (a rule for a file that is not there):
    # the flags the Makefile's compile rule would use
    try:
        r = subprocess.run(["make", "-s", "-f", mk, "--eval", "gsan-scan-flags: ; @echo $(CC) $(CFLAGS)",
                            "gsan-scan-flags"], cwd=pdir, capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
        words = shlex.split(r.stdout.decode(errors="replace").strip().splitlines()[-1])
        if r.returncode == 0 and words and os.path.basename(words[0]).startswith("nvc"):
            return words[1:], mk + " ($(CFLAGS))"
    except (subprocess.TimeoutExpired, ValueError, IndexError):
        pass
    return None, "no nvcc command compiling a .cu file in make -n, no nvcc $(CC)"


def sibling(src, work, d):
    """a folder of src/ that a program's build reaches into (-I../X-sycl,
    #include "../X-omp/y.h"): extracted beside it, if it is not one kept apart"""
    dest = os.path.join(work, "src", d)
    base = re.sub(r"-[a-z]+$", "", d)
    if os.path.isdir(dest) or base in EXCLUDED or "/" in d or d in ("", ".", ".."):
        return
    if os.path.isdir(os.path.join(src, "src", d)) and not os.path.isdir(os.path.join(src, "objects")):
        subprocess.run(["cp", "-r", os.path.join(src, "src", d), dest])
        return
    gitdir = src if os.path.isdir(os.path.join(src, "objects")) else os.path.join(src, ".git")
    extract_files(gitdir, "src/" + d, work, r"\.(h|hpp|cuh|hh|inc|inl|def|cu|cpp|c)$")


INCLUDE = re.compile(rb'#\s*include\s*[<"]([^">]+\.(?:cu|cpp|cc|cxx))[">]')
INCLUDE_UP = re.compile(rb'#\s*include\s*[<"]\.\./([^/">]+)/')


def prepare(src, work):
    names = extract(src, work)
    os.makedirs(os.path.join(work, "flags"), exist_ok=True)
    os.makedirs(os.path.join(work, "files"), exist_ok=True)
    open(os.path.join(work, "included.tsv"), "w").close()
    with open(os.path.join(work, "programs.txt"), "w") as lst, \
            open(os.path.join(work, "flags-source.tsv"), "w") as srcs:
        for n in names:
            pdir = os.path.join(work, "src", n + "-cuda")
            cus = sorted(os.path.relpath(os.path.join(dp, f), pdir) for dp, _, fs in os.walk(pdir) for f in fs
                         if f.endswith(".cu"))
            if not cus:
                srcs.write("%s\t(no .cu file)\n" % n)
                continue
            # a .cu (or .cpp) file another file of the program #includes
            # (main.cu: #include "kernels.cu"; mcmd's main.cpp includes every
            # other .cpp, a unity build) is not a translation unit: it is
            # analysed inside the file that includes it, not alone
            included = set()
            for dp, _, fs in os.walk(pdir):
                for f in fs:
                    if re.search(r"\.(cu|cuh|h|hpp|cpp|cc|c|inc)$", f):
                        with open(os.path.join(dp, f), "rb") as fh:
                            for m in INCLUDE.findall(fh.read()):
                                included.add(os.path.basename(m.decode(errors="replace")))
            units = [c for c in cus if os.path.basename(c) not in included] or cus
            # the program's host translation units (main.cpp holds main and
            # calls the launchers of kernels.cu): analysed with the .cu files,
            # which gsan scan joins into one program
            hosts = sorted(os.path.relpath(os.path.join(dp, f), pdir) for dp, _, fs in os.walk(pdir) for f in fs
                           if re.search(r"\.(cpp|cc|cxx)$", f))
            units += [h for h in hosts if os.path.basename(h) not in included]
            with open(os.path.join(work, "files", n), "w") as f:
                for c in units:
                    f.write(c + "\n")
            with open(os.path.join(work, "included.tsv"), "a") as f:
                for c in cus + hosts:
                    if c not in units:
                        f.write("%s\t%s\n" % (n, c))
            flags, how = make_flags(pdir)
            ups = set()
            for i, w in enumerate(flags or []):
                p = w[2:] if w.startswith("-I") and len(w) > 2 else (flags[i + 1] if w == "-I" and i + 1 < len(flags)
                                                                     else "")
                if p.startswith("../"):
                    ups.add(p[3:].split("/")[0])
            for dp, _, fs in os.walk(pdir):
                for f in fs:
                    if re.search(r"\.(cu|cuh|h|hpp|cpp)$", f):
                        with open(os.path.join(dp, f), "rb") as fh:
                            ups.update(m.decode(errors="replace") for m in INCLUDE_UP.findall(fh.read()))
            for u in sorted(ups):
                sibling(src, work, u)
            with open(os.path.join(work, "flags", n), "w") as f:
                for w in flags or []:
                    f.write(w.replace("\n", " ") + "\n")
            srcs.write("%s\t%s\t%s\n" % (n, how, shlex.join(flags or [])))
            lst.write(n + "\n")


# ---- the report ----
SUMMARY = re.compile(r"^gsan scan: (\d+) findings?, (\d+) unknown in (\d+) access")
PROGRESS = re.compile(r"^\[\d+/\d+\] (.*?): (?:(\d+) findings?, (\d+) unknown in (\d+) access\w* \(([\d.]+) s\)"
                      r"|not analysed: (.*?)(?: \(([\d.]+) s\))?)$")
DIAG = re.compile(r"^(.*?):(\d+):(\d+): (warning|remark): (.*) \[(gsan-scan-[a-z-]+)\]$")
ERROR = re.compile(r"^(.*?):(\d+):(\d+): (?:fatal )?error: (.*)$")


def category(text):
    why = text.split("stays in bounds: ", 1)[1] if "stays in bounds: " in text else text.split(": ", 1)[-1]
    why = re.sub(r"; under some launch: .*", "; under some launch: ...", why)
    why = re.sub(r"under some launch: .*", "under some launch: ...", why)
    why = re.sub(r" ?\((?:at )?line \d+\)", "", why)
    why = re.sub(r"'[^']*'", "'X'", why)
    why = re.sub(r"\b(line|lines) \d+", r"\1 N", why)
    why = re.sub(r"\d+", "N", why)
    return re.sub(r"\s+", " ", why).strip()


def error_cause(msg):
    """a compiler error without its names, unless it is a header not found"""
    m = re.match(r"'([^']*)' file not found", msg)
    if m:
        return "'%s' file not found" % m.group(1)
    return re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'X'", msg))


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def load_triage(path):
    t = {}
    for line in read(path).splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) >= 3:
            t[(parts[0], parts[1])] = parts[2].strip()
    return t


def report(work, out_md, command):
    names = read(os.path.join(work, "programs.txt")).split()
    meta = dict(l.split("=", 1) for l in read(os.path.join(work, "meta.txt")).splitlines() if "=" in l)
    triage = load_triage(meta.get("triage", ""))
    rows, cats, findings, crashes, timeouts, parse_fail, file_secs = [], {}, [], [], [], [], []
    causes = {}
    for n in names:
        o = read(os.path.join(work, "out", n + ".txt"))
        e = read(os.path.join(work, "out", n + ".err"))
        st = read(os.path.join(work, "out", n + ".rc")).split()
        rc = int(st[0]) if st else -1
        secs = float(st[1]) if len(st) > 1 else 0.0
        acc = fnd = unk = 0
        for line in o.splitlines():
            m = SUMMARY.match(line)
            if m:
                fnd, unk, acc = int(m.group(1)), int(m.group(2)), int(m.group(3))
        lines = o.splitlines()
        for i, line in enumerate(lines):
            m = DIAG.match(line)
            if not m:
                continue
            rel = os.path.relpath(m.group(1), ".") if not m.group(1).startswith("/") else m.group(1)
            rel = re.sub(r"^\./", "", rel)
            where = "%s:%s" % (rel, m.group(2))
            if m.group(4) == "remark":
                c = category(m.group(5))
                cats.setdefault(c, [0, "%s/%s" % (n, where), m.group(5)])[0] += 1
            else:
                wit = ""
                for nxt in lines[i + 1:]:
                    if DIAG.match(nxt):
                        break
                    if nxt.startswith("note: witness: "):
                        wit = nxt[len("note: witness: "):]
                        break
                findings.append((n, where, m.group(6), m.group(5), wit, triage.get((n, where), "")))
        files = []
        for line in e.splitlines():
            m = PROGRESS.match(line)
            if m:
                files.append((m.group(1), m.group(5) or m.group(7), m.group(6)))
        asan = "ERROR: AddressSanitizer" in e or "runtime error:" in e
        crash = asan or (rc not in (0, 1, 2, 124, 137))
        timeout = rc in (124, 137)
        failed = [f for f in files if f[2]]
        if rc == 2 and not files:
            failed = [("(all)", None, "not analysed")]
        cause = ""
        if crash:
            sig = "ASan/UBSan error" if asan else ("signal %d" % (rc - 128) if rc > 128 else "exit %d" % rc)
            tail = [l for l in e.splitlines() if l.strip()][-3:]
            crashes.append((n, sig, " | ".join(tail)[:300]))
        if timeout:
            last = [f[0] for f in files]
            timeouts.append((n, "after %s" % (last[-1] if last else "no file finished")))
        if failed:
            # the first error printed before each "not analysed" line
            first_err, firsts = None, []
            for l in e.splitlines():
                m = ERROR.match(l)
                if m and first_err is None:
                    first_err = m
                if ": not analysed: " in l and l.startswith("gsan scan: "):
                    if first_err:
                        firsts.append("%s:%s: %s" % (re.sub(r"^\./", "", first_err.group(1)), first_err.group(2),
                                                     first_err.group(4)))
                        why = error_cause(first_err.group(4))
                    else:
                        firsts.append(l[len("gsan scan: "):])
                        why = "not analysed: " + l.split(": not analysed: ", 1)[1]
                    causes.setdefault(why, [0, "%s/%s" % (n, firsts[-1])])[0] += 1
                    first_err = None
                elif l.startswith("gsan scan: cannot open"):
                    firsts.append(l[len("gsan scan: "):])
                    causes.setdefault("cannot open", [0, "%s: %s" % (n, l)])[0] += 1
            parse_fail.append((n, len(failed), max(len(files), len(failed), 1), firsts[0] if firsts else "?"))
        # decided = accesses - unknowns, file by file: a remark about code none
        # of whose accesses is counted (a function not analysed at all) is no
        # access, and does not make another file's accesses undecided
        per = [PROGRESS.match(l) for l in e.splitlines()]
        per = [(int(m.group(4)), int(m.group(3))) for m in per if m and m.group(4)]
        decided = sum(max(0, a - u) for a, u in per) if per else max(0, acc - unk)
        ok = [f for f in files if not f[2] and f[1]]
        if ok:
            file_secs += [float(f[1]) for f in ok]
        elif not files and rc in (0, 1):
            file_secs.append(secs)
        in_part = sum(1 for l in e.splitlines() if l.startswith("gsan scan: ") and ": analysed in part: " in l)
        rows.append((n, acc, decided, fnd, unk, secs, rc, crash, timeout, len(failed), in_part))

    P = len(rows)
    A = sum(r[1] for r in rows)
    D = sum(r[2] for r in rows)
    F = sum(r[3] for r in rows)
    T = sum(1 for f in findings if f[5] == "confirmed")
    X = sum(1 for f in findings if f[5] == "false")
    C, O = len(crashes), len(timeouts)
    pct = 100.0 * D / A if A else 0.0
    med = statistics.median(file_secs) if file_secs else 0.0
    w = []
    w.append("# gsan scan on HeCBench's CUDA programs")
    w.append("")
    w.append("Written by `bench/scan_corpus.sh` (not by hand); the raw output of each program is in "
             "`build/corpus-scan/out/` of the machine that ran it.")
    w.append("")
    w.append("- command: `%s`" % " ".join(command))
    w.append("- gsan commit: `%s`; date: %s; machine: %s" % (meta.get("commit", "?"), meta.get("date", "?"),
                                                           meta.get("cpu", "?")))
    w.append("- corpus: HeCBench `%s`, `src/*-cuda/` less the %d programs kept apart for independent measurement "
             "(%s)" % (meta.get("hecbench", "?"), len(EXCLUDED), ", ".join(sorted(EXCLUDED))))
    included = [l.split("\t") for l in read(os.path.join(work, "included.tsv")).splitlines() if "\t" in l]
    srcinfo = [l.split("\t") for l in read(os.path.join(work, "flags-source.tsv")).splitlines()]
    nocu = [x[0] for x in srcinfo if len(x) > 1 and x[1] == "(no .cu file)"]
    noflags = [x[0] for x in srcinfo if len(x) > 1 and x[1] != "(no .cu file)" and "make" not in x[1]
               and "Makefile" not in x[1]]
    noflags += [x[0] for x in srcinfo if len(x) > 1 and x[1].startswith("no ")]
    w.append("- each program: one `gsan scan FILE.cu... -- FLAGS` in its folder over its .cu, .cpp and .cc files "
             "that are translation units (%d .cu and .cpp files that another file of their program `#include`s are analysed "
             "inside it, not alone), with the flags of the first nvcc (or nvc++) command of `make -n` that "
             "compiles a .cu file, else the Makefile's `$(CC) $(CFLAGS)` (`build/corpus-scan/flags-source.tsv`); "
             "%d programs with no flags found (no Makefile, or none that names nvcc) are analysed with none "
             "(%s); %d folders with no .cu file are not programs here (%s); "
             % (len(included), len(sorted(set(noflags))), ", ".join(sorted(set(noflags))), len(nocu),
                ", ".join(nocu)) +
             "the flags of the first nvcc command of `make -n` that compiles a .cu file; "
             "timeout %s s a program; solver budget the default (`--rlimit=4000000` resource units and "
             "`--timeout=60000` ms per question); %s programs at a time" % (meta.get("timeout", "?"),
                                                                             meta.get("jobs", "?")))
    w.append("- decided = accesses - unknowns (proved in bounds, or a finding), counted file by file and never below 0 "
             "(%d unknown remarks are about code none of whose accesses is counted, such as a function the model does not "
             "analyse at all); crash: a signal, an exit other than 0/1/2, or a sanitizer report; not analysed: files that "
             "do not parse or cannot be read (exit 2); analysed in part: files with errors whose functions without "
             "one were analysed (exit 2)" % (sum(r[4] for r in rows) - sum(r[1] - r[2] for r in rows)))
    w.append("")
    w.append("## Totals")
    w.append("")
    w.append("| programs | accesses | decided | findings | unknowns | crashes | timeouts | programs with files "
             "not analysed | files not analysed | files analysed in part | median s/file |")
    w.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    w.append("| %d | %d | %d (%.1f%%) | %d | %d | %d | %d | %d | %d | %d | %.2f |" % (
        P, A, D, pct, F, sum(r[4] for r in rows), C, O, len(parse_fail), sum(p[1] for p in parse_fail),
        sum(r[10] for r in rows), med))
    w.append("")
    w.append("## Unknowns by reason")
    w.append("")
    w.append("Remark texts with names, numbers and line numbers taken out.")
    w.append("")
    w.append("| count | reason | example |")
    w.append("| ---: | --- | --- |")
    for c, (k, ex, txt) in sorted(cats.items(), key=lambda kv: (-kv[1][0], kv[0])):
        w.append("| %d | %s | %s |" % (k, c.replace("|", "\\|"), ex))
    w.append("")
    w.append("## Findings")
    w.append("")
    w.append("Verdicts from `bench/scan_triage.tsv` (confirmed on a GPU, false, unconfirmed); blank: not triaged.")
    w.append("")
    w.append("| program | file:line | tag | message | witness | verdict |")
    w.append("| --- | --- | --- | --- | --- | --- |")
    for f in findings:
        w.append("| %s | %s | %s | %s | `%s` | %s |" % (f[0], f[1], f[2], f[3].replace("|", "\\|"),
                                                      f[4].replace("|", "\\|"), f[5]))
    w.append("")
    w.append("## Crashes and timeouts")
    w.append("")
    if not crashes and not timeouts:
        w.append("None.")
    for c in crashes:
        w.append("- crash: %s: %s: %s" % c)
    for t in timeouts:
        w.append("- timeout: %s: %s" % t)
    w.append("")
    w.append("## Files not analysed (exit 2)")
    w.append("")
    w.append("By the first error of each file (names taken out, but for headers not found):")
    w.append("")
    w.append("| files | first error | example |")
    w.append("| ---: | --- | --- |")
    for c, (k, ex) in sorted(causes.items(), key=lambda kv: (-kv[1][0], kv[0])):
        w.append("| %d | %s | %s |" % (k, c.replace("|", "\\|")[:160], ex.replace("|", "\\|")[:200]))
    w.append("")
    w.append("By program:")
    w.append("")
    w.append("| program | files not analysed | of | first error |")
    w.append("| --- | ---: | ---: | --- |")
    for p in parse_fail:
        w.append("| %s | %d | %d | %s |" % (p[0], p[1], p[2], p[3].replace("|", "\\|")[:200]))
    w.append("")
    w.append("## Per program")
    w.append("")
    w.append("| program | accesses | decided | findings | unknowns | seconds | exit | files not analysed | "
             "files analysed in part |")
    w.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        w.append("| %s | %d | %d | %d | %d | %.1f | %s | %d | %d |" % (r[0], r[1], r[2], r[3], r[4], r[5],
                                                                    "timeout" if r[8] else r[6], r[9], r[10]))
    w.append("")
    w.append("corpus: %d programs, %d accesses, %.1f%% decided, %d findings (%d confirmed on a GPU, %d false), "
             "%d crashes, %d timeouts" % (P, A, pct, F, T, X, C, O))
    with open(out_md, "w") as f:
        f.write("\n".join(w) + "\n")
    print(w[-1])


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 4 and sys.argv[1] == "report":
        report(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)
