#!/usr/bin/env python3
# ptx_synth.py -- builds the large synthetic PTX module that bench/ptx_speed.sh
# times `gsan ptx` on.
#
# Role: the project's speed target is stated for PTX modules of 20 MB and more,
# but the test kernels in tests/ptx/kernels compile to a few KB each. This
# script glues nvcc-generated PTX files together, many times over, into one
# module that ptxas still accepts:
#
#   * one header (.version/.target/.address_size) is kept;
#   * every module-level symbol (.entry/.func names, module-scope .global
#     and .shared variables, $str literals, and all their uses, including
#     function-pointer initialisers) gets a per-copy suffix "_cN";
#   * module-scope .const variables are the exception: ptxas allows 64 KB of
#     constant data per module, which 20 MB worth of copies would exceed, so
#     each input's .const variables are declared once (suffix "_mI", I = the
#     input's position) and shared by all copies of that input;
#   * .extern .func declarations (vprintf, malloc, free) keep their names and
#     are emitted once;
#   * the .file tables of all inputs are merged into one table (a file path
#     gets one index) and every .loc / inlined_at is renumbered to it, so the
#     line information of every copy is kept, as in a real -lineinfo build;
#   * the .debug_str sections (strings named by `.loc ... function_name`) are
#     merged into one section with per-input label names; copies of one input
#     share its strings.
#
# Usage: ptx_synth.py -o OUT.ptx [--min-bytes N] IN.ptx...
# Whole rounds (one copy of every input) are appended until OUT reaches
# --min-bytes (default 20,000,000). A summary line goes to standard error.
import argparse
import re
import sys

IDENT = re.compile(r'[A-Za-z_$%][A-Za-z0-9_$]*')
FILE_RE = re.compile(r'^\s*\.file\s+(\d+)\s+(.*?)\s*$')
LOC_RE = re.compile(r'^(\s*\.loc\s+)(\d+)(\s.*)$')
INLINED_RE = re.compile(r'(inlined_at\s+)(\d+)')
INFO_LABEL = re.compile(r'\$L__info_string(\d+)\b')
FUNC_NAME = re.compile(
    r'\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][A-Za-z0-9_$]*)')
HEADER_RE = re.compile(r'^\s*\.(version|target|address_size)\b')
MARK = '\x00'  # placeholder for the per-copy suffix in a module template


def code_part(line):
    """The line without its // comment and string literals (for brace counting)."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    i = line.find('//')
    return line if i < 0 else line[:i]


def split_items(lines):
    """Splits a PTX module into top-level items: lists of lines, each one
    declaration or definition, ending at ';' or at the closing '}' at depth 0.
    Blank lines and comments at depth 0 are dropped; .file lines and header
    directives come back as one-line items."""
    items, cur, depth = [], [], 0
    for line in lines:
        code = code_part(line).strip()
        if not cur:
            if not code:
                continue
            if FILE_RE.match(line) or HEADER_RE.match(line):
                items.append([line])
                continue
        cur.append(line)
        depth += code.count('{') + code.count('(') - code.count('}') - code.count(')')
        if depth == 0 and (code.endswith(';') or code.endswith('}')):
            items.append(cur)
            cur = []
    if cur:
        sys.exit('ptx_synth: unterminated top-level item: %r' % cur[0])
    return items


class Module:
    def __init__(self, path, index):
        self.path = path
        with open(path) as f:
            lines = f.read().split('\n')
        self.header = []      # .version/.target/.address_size lines
        self.files = {}       # old .file index -> rest of the .file line
        self.externs = []     # .extern .func declarations, unrenamed
        self.debug_str = []   # lines inside .section .debug_str { }
        body, symbols = [], set()
        self.consts, const_items = set(), []  # shared by all copies
        for item in split_items(lines):
            first = item[0]
            words = code_part(first).split()
            fm = FILE_RE.match(first)
            if fm:
                self.files[int(fm.group(1))] = fm.group(2)
            elif HEADER_RE.match(first):
                self.header.append(first.strip())
            elif words[:2] == ['.section', '.debug_str']:
                self.debug_str.extend(
                    l for l in item[1:]
                    if l.strip() not in ('{', '}') and l.strip())
            elif words[0] == '.section':
                sys.exit('ptx_synth: %s: unhandled section %s' % (path, words[1]))
            elif '.extern' in words and '.func' in words:
                self.externs.append('\n'.join(item))
            elif '.entry' in words or '.func' in words:
                m = FUNC_NAME.search(' '.join(code_part(l) for l in item[:2]))
                if not m:
                    sys.exit('ptx_synth: %s: no function name in %r' % (path, first))
                symbols.add(m.group(1))
                body.append(item)
            elif words[0] in ('.global', '.const', '.shared', '.visible',
                              '.extern', '.weak'):
                # the name is the first word that is not a directive or number
                toks = re.findall(r'\.?[A-Za-z_$%][A-Za-z0-9_$]*', code_part(first))
                name = next((t for t in toks if not t.startswith('.')
                             and t not in ('align',)), None)
                if not name:
                    sys.exit('ptx_synth: %s: no variable name in %r' % (path, first))
                if '.const' in words:
                    self.consts.add(name)
                    const_items.append(item)
                else:
                    symbols.add(name)
                    body.append(item)
            else:
                sys.exit('ptx_synth: %s: unhandled top-level item %r' % (path, first))
        self.symbols = symbols
        self.body = body
        self.tag = 'm%d' % index
        self.const_decls = ''.join(
            '\n'.join(self.rename(l) for l in item) + '\n' for item in const_items)

    def rename(self, line):
        """MARK after every per-copy symbol; .const names get the input's tag."""
        def sub(g):
            w = g.group(0)
            if w in self.symbols:
                return w + MARK
            if w in self.consts:
                return w + '_' + self.tag
            return w
        return IDENT.sub(sub, line)

    def template(self, file_map):
        """The module's items as one text, .loc renumbered to file_map, debug
        labels made unique per input, and MARK after every symbol use."""
        out = []
        for item in self.body:
            for line in item:
                m = LOC_RE.match(line)
                if m:
                    line = (m.group(1) + str(file_map[int(m.group(2))]) + m.group(3))
                    line = INLINED_RE.sub(
                        lambda g: g.group(1) + str(file_map[int(g.group(2))]), line)
                    line = INFO_LABEL.sub(
                        lambda g: '$L__info_string_%s_%s' % (self.tag, g.group(1)),
                        line)
                else:
                    line = self.rename(line)
                out.append(line)
            out.append('')
        return '\n'.join(out) + '\n'

    def debug_lines(self):
        return [INFO_LABEL.sub(
            lambda g: '$L__info_string_%s_%s' % (self.tag, g.group(1)), l)
            for l in self.debug_str]


def main():
    ap = argparse.ArgumentParser(description='glue PTX files into one big module')
    ap.add_argument('-o', dest='out', required=True)
    ap.add_argument('--min-bytes', type=int, default=20_000_000)
    ap.add_argument('inputs', nargs='+')
    args = ap.parse_args()

    mods = [Module(p, i) for i, p in enumerate(args.inputs)]
    header = mods[0].header
    for m in mods[1:]:
        if m.header != header:
            sys.exit('ptx_synth: %s: header %s differs from %s'
                     % (m.path, m.header, header))

    # one file table: the first module's files keep their numbers
    table, by_path = {}, {}
    for m in mods:
        m.file_map = {}
        for old, spec in sorted(m.files.items()):
            if spec not in by_path:
                new = old if m is mods[0] else max(table, default=0) + 1
                by_path[spec] = new
                table[new] = spec
            m.file_map[old] = by_path[spec]

    externs = []
    for m in mods:
        for e in m.externs:
            if e not in externs:
                externs.append(e)

    templates = [m.template(m.file_map) for m in mods]
    head = '//\n// Synthetic benchmark module built by bench/ptx_synth.py from:\n'
    head += ''.join('//   %s\n' % m.path for m in mods) + '//\n\n'
    head += '\n'.join(header) + '\n\n' + '\n'.join(externs) + '\n\n'
    head += ''.join(m.const_decls for m in mods) + '\n'
    tail = ''.join('\t.file\t%d %s\n' % (n, s) for n, s in sorted(table.items()))
    dbg = [l for m in mods for l in m.debug_lines()]
    if dbg:
        tail += '\t.section\t.debug_str\n\t{\n' + '\n'.join(dbg) + '\n\t}\n'

    size = len(head) + len(tail)
    copies = 0
    with open(args.out, 'w') as out:
        out.write(head)
        while copies == 0 or size < args.min_bytes:
            for t in templates:
                text = t.replace(MARK, '_c%d' % copies)
                out.write(text)
                size += len(text)
            copies += 1
        out.write(tail)
    nsym = sum(len(m.symbols) for m in mods)
    nconst = sum(len(m.consts) for m in mods)
    print('ptx_synth: %s: %d bytes, %d inputs x %d copies, %d symbols renamed'
          ' per copy, %d .const variables shared'
          % (args.out, size, len(mods), copies, nsym, nconst), file=sys.stderr)


if __name__ == '__main__':
    main()
