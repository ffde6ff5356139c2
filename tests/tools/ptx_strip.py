#!/usr/bin/env python3
"""Prints a PTX file without comments and without any whitespace outside
strings: two files that print the same are equal "up to whitespace". Written
independently of gsan's lexer so that the round-trip test checks it."""
import sys


def strip(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            i = n if j < 0 else j + 2
        elif c.isspace():
            i += 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


if __name__ == '__main__':
    with open(sys.argv[1], encoding='latin-1') as f:
        sys.stdout.write(strip(f.read()))
