#!/bin/sh
# Instruments PTX files with two gsan binaries and compares what they write:
# a change that must not alter the instrumenter's behaviour (a refactoring)
# is held to byte-identical output. Usage:
#
#   same_instrumented.sh OLD_GSAN NEW_GSAN [PTX...]
#
# Without PTX files: every .ptx of the golden tests (tests/ptx/golden,
# tests/ptx/inputs, tests/ptx/triton) and of the built corpus
# ($BUILD/corpus, made by `make corpus`; BUILD defaults to build). Each file
# is instrumented under every option set the golden tests run `gsan ptx`
# with, --stats added; the output file, standard output and error
# (--analyze, warnings, statistics) and exit status of the two binaries
# must all be the same. Prints one line per difference (the file, its
# options, what differs), then "N files, N identical"; exits 1 on any
# difference. A refactoring's check: build the old binary from the base
# commit in a worktree of its own and compare it with the new one.
set -u
if [ $# -lt 2 ]; then
  echo "usage: same_instrumented.sh OLD_GSAN NEW_GSAN [PTX...]" >&2
  exit 2
fi
old=$1 new=$2
shift 2
for g in "$old" "$new"; do
  [ -x "$g" ] || { echo "same_instrumented.sh: $g: not an executable" >&2; exit 2; }
done
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

list=$tmp/files
if [ $# -gt 0 ]; then
  for f in "$@"; do echo "$f"; done >"$list"
else
  {
    ls "$root"/tests/ptx/golden/*.ptx "$root"/tests/ptx/inputs/*.ptx "$root"/tests/ptx/triton/*.ptx
    [ -d "$build/corpus" ] && find "$build/corpus" -name '*.ptx' | sort
  } >"$list"
  [ -d "$build/corpus" ] || echo "same_instrumented.sh: no $build/corpus (make corpus): golden inputs only" >&2
fi

# the option sets of the golden tests' `gsan ptx` lines (one per line; "-"
# stands for none); --analyze and --roundtrip write no instrumented code
# but go through the same parser and analyses
opts='-
--recover
--no-elim
--no-launch-bounds
--no-launch-proofs
--module-id=1234abcd
--analyze
--roundtrip'

# run GSAN OPTS FILE OUT: the output file, standard output (--analyze
# writes there), standard error and exit status into OUT.*
run() {
  o=$2
  [ "$o" = - ] && o=
  : >"$4.out"
  # shellcheck disable=SC2086 # one option or none
  "$1" ptx --stats $o "$3" -o "$4.out" >"$4.std" 2>"$4.err"
  echo $? >"$4.rc"
}

total=0 same=0
while IFS= read -r f; do
  total=$((total + 1))
  ok=1
  for o in $opts; do
    run "$old" "$o" "$f" "$tmp/old"
    run "$new" "$o" "$f" "$tmp/new"
    for k in out std err rc; do
      if ! cmp -s "$tmp/old.$k" "$tmp/new.$k"; then
        case $k in out) what=output ;; std) what="standard output" ;; err) what="standard error" ;; *) what="exit status" ;; esac
        echo "differs: $f ($(echo "$o" | sed 's/^-$/no options/')): $what"
        ok=0
      fi
    done
    rm -f "$tmp"/old.* "$tmp"/new.*
  done
  same=$((same + ok))
done <"$list"
echo "$total files, $same identical"
[ "$same" = "$total" ]
