#!/bin/sh
# gsan scan's findings on the public corpus, replayed on a GPU: each row of
# bench/scan_triage.tsv that gives a replay (the witness as the program's
# command line, fifth column) is built from its HeCBench folder twice, with
# nvcc (for compute-sanitizer) and with gsan nvcc, and run at that input under
# compute-sanitizer's memcheck and under gsan run. Writes
# docs/results/scan-confirm.md: per finding, whether each tool reported an
# error at the finding's line, and the first error it reported.
#
#   CORPUS=DIR sh bench/scan_confirm.sh      (on the GPU machine)
#   TRIAGE=FILE    the findings to replay (default bench/scan_triage.tsv)
#   GSAN_REV=REV   the commit to name (default: git's HEAD, which a copy of the
#                  tree on another machine may not have)
#
# CORPUS holds the programs as HeCBench lays them out (DIR/NAME-cuda/, with
# DIR/include/ where a program needs it): bench/scan_corpus.sh extracts them
# into build/corpus-scan/src/; to take them to a machine without the
# repository's build folder, copy the folders the triage names into an
# ignored folder of the checkout (nothing of HeCBench is ever committed).
# Each program is built by its own Makefile (make CC=... ARCH=sm_90), in a
# copy under build/scan-confirm/, and run with a 120 s limit.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
CORPUS=${CORPUS:-build/corpus-scan/src}
CORPUS=$(cd "$CORPUS" && pwd) || { echo "scan_confirm: no corpus folder $CORPUS" >&2; exit 2; }
OUT_MD=${RESULTS:-docs/results/scan-confirm.md}
TRIAGE=${TRIAGE:-bench/scan_triage.tsv}
LOGDIR=${OUT:-build/scan-confirm/logs}
W=build/scan-confirm
ARCH=${ARCH:-sm_90}
PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$W" "$LOGDIR"
LOGDIR=$(cd "$LOGDIR" && pwd)
make -s -j"$(nproc)" all >"$LOGDIR/make.log" 2>&1 || { echo "scan_confirm: make failed (see $LOGDIR/make.log)" >&2; exit 1; }
command -v compute-sanitizer >/dev/null 2>&1 || { echo "scan_confirm: compute-sanitizer is not on PATH" >&2; exit 1; }
GSAN=$TOP/build/bin/gsan

# the first line a tool reported an error with, or "none"
first_report() { # file pattern
  l=$(grep -m1 -E "$2" "$1" | sed 's/[|]/\\|/g' | cut -c1-160)
  echo "${l:-none}"
}

rows=$W/rows.txt
: >"$rows"
grep -v '^#' "$TRIAGE" | awk -F '\t' 'NF >= 5 && $5 != "" { print }' | while IFS="$(printf '\t')" read -r prog where verdict evidence replay; do
  [ "$replay" = "(none)" ] && replay=
  src=$CORPUS/$prog-cuda
  [ -d "$src" ] || { printf '%s\t%s\t%s\tmissing\t-\tmissing\t-\n' "$prog" "$where" "$replay" >>"$rows"; continue; }
  for kind in native gsan; do
    d=$W/$kind/$prog-cuda
    if [ ! -d "$d" ]; then
      mkdir -p "$W/$kind"
      cp -r "$src" "$d"
      [ -d "$CORPUS/include" ] && [ ! -d "$W/$kind/include" ] && cp -r "$CORPUS/include" "$W/$kind/include"
      if [ $kind = native ]; then cc=nvcc; extra="-lineinfo"; else cc="$GSAN nvcc"; extra="-g"; fi
      # gsan's copy in recover mode: a failed check skips the access and the
      # kernel goes on, so each finding of a run is reported at its own line
      (cd "$d" && make -s clean >/dev/null 2>&1; GSAN_PTX_OPTIONS=--recover make -s CC="$cc" ARCH="$ARCH" EXTRA_CFLAGS="$extra" >"$LOGDIR/$prog.$kind.build" 2>&1) ||
        echo "build failed" >>"$LOGDIR/$prog.$kind.build"
    fi
  done
  # one run of each tool per program and command line, shared by its findings
  run=$prog.$(printf '%s' "$replay" | cksum | cut -d' ' -f1)
  exe=$(sed -n 's/^program *= *//p' "$src/Makefile" | head -1)
  exe=${exe:-main}
  if [ ! -f "$LOGDIR/$run.cs" ]; then
    # shellcheck disable=SC2086
    (cd "$W/native/$prog-cuda" && timeout 120 compute-sanitizer --tool memcheck ./$exe $replay) >"$LOGDIR/$run.cs" 2>&1
    # shellcheck disable=SC2086
    (cd "$W/gsan/$prog-cuda" && GSAN_OPTIONS=halt_on_error=0 timeout 120 "$GSAN" run -- ./$exe $replay) >"$LOGDIR/$run.gsan" 2>&1
  fi
  # did the tool report an error at the finding's line (file:line in its
  # report), and what was the first error it reported
  at=$(basename "${where%:*}"):${where##*:}
  cs_at=no; grep -q "$at\b" "$LOGDIR/$run.cs" && grep -q -E '^========= (Invalid|Out of bounds|Address)' "$LOGDIR/$run.cs" && cs_at=yes
  g_at=no; grep -q "$at\b" "$LOGDIR/$run.gsan" && grep -q 'ERROR: GPUSanitizer: ' "$LOGDIR/$run.gsan" && g_at=yes
  cs=$(first_report "$LOGDIR/$run.cs" '^========= (Invalid|Out of bounds|Address|Malloc|Cuda API error|Program hit)')
  g=$(first_report "$LOGDIR/$run.gsan" 'ERROR: GPUSanitizer: ')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$prog" "$where" "$replay" "$cs_at" "$cs" "$g_at" "$g" >>"$rows"
done

{
  echo "# gsan scan's findings replayed on a GPU"
  echo
  echo "Written by \`sh bench/scan_confirm.sh\` at gsan ${GSAN_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}," \
    "$(date -u '+%Y-%m-%d %H:%M UTC'), on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)" \
    "(driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1))."
  echo "Each finding of \`bench/scan_triage.tsv\` that gives a replay: the HeCBench program built by its own Makefile"
  echo "(nvcc -lineinfo for compute-sanitizer, \`gsan nvcc -g\` in recover mode for gsan, run with halt_on_error=0, so"
  echo "that a failed check skips its access and the run goes on to the next) and run at the witness's input."
  echo "For each tool: whether it reported an error at the finding's line (its report names that file:line), and the"
  echo "first error it reported in that run (none: it reported none). One run of each tool per program and command line."
  echo
  echo "| program | finding | replay | compute-sanitizer at the line | its first error | gsan at the line | its first error |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  awk -F '\t' '{ printf "| %s | %s | `%s` | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }' "$rows"
  echo
  n=$(wc -l <"$rows")
  g=$(awk -F '\t' '$6 == "yes"' "$rows" | wc -l)
  c=$(awk -F '\t' '$4 == "yes"' "$rows" | wc -l)
  echo "replayed: $n findings; reported at their line by gsan run: $g, by compute-sanitizer: $c"
} >"$OUT_MD"
tail -n 3 "$OUT_MD"
