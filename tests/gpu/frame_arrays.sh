#!/bin/sh
# The frame-local arrays experiment's false positives and findings (gsan ptx
# --frame-arrays: a local access bounded by its own array in the frame, not
# the whole frame; docs/ptx.md, "Frame-local arrays"). Needs a GPU.
#  1. the bug suite (tests/bugs) and the experiment's own programs
#     (tests/gpu/frame_arrays) through lit with --param ptx_options=--frame-arrays:
#     every correct program must stay clean, every bug be found as before;
#  2. every correct program of both built with -G (debug builds, where every
#     local is an array of the frame), and the benchmark workloads
#     (bench/workloads) at -g and -G, with and without the option, run under
#     gsan run (the workloads once each: --reps 1 --warmup 0): the reports
#     each prints;
#  3. how many local checks the option bounded by an array (gsan ptx --stats);
#  4. public programs with local arrays (tests/gpu/frame_arrays/public.txt,
#     from HeCBench), each built by its own Makefile with gsan nvcc without and
#     with the option and run by its own `run` target under gsan run for at
#     most PUBLIC_SECONDS (default 60): the reports each prints. HeCBench is found at FRAME_CORPUS (a folder holding
#     its src/<name>-cuda folders; default .corpus/hecbench, an ignored folder),
#     else taken from a git mirror of it at HECBENCH (default
#     /work/.mirror/zjin-lcf+HeCBench/repo) into .corpus/hecbench; without
#     either, part 4 is left out and says how to get it
#     (git clone https://github.com/zjin-lcf/HeCBench; FRAME_CORPUS=HeCBench).
# Writes docs/results/frame-arrays.md (RESULTS= to change; GSAN_REV= names the
# commit where the checkout has no .git) and logs under ${OUT:-build/gpu-frame}.
# Usage: sh tests/gpu/frame_arrays.sh
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
. "$TOP/tests/gpu/results_head.sh"
LOGDIR=${OUT:-build/gpu-frame}
RESULTS=${RESULTS:-docs/results/frame-arrays.md}
W=$LOGDIR/work
mkdir -p "$LOGDIR" "$W"
PATH=/usr/local/cuda/bin:$PATH
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
[ "$NGPU" -ge 1 ] || { echo "frame_arrays.sh: needs a GPU (nvidia-smi finds none)" >&2; exit 1; }
make -s all >"$LOGDIR/make.log" 2>&1 || { echo "frame_arrays.sh: make failed (see $LOGDIR/make.log)" >&2; exit 1; }
JOBS=$(nproc 2>/dev/null || echo 4)
GSAN=$TOP/build/bin/gsan

# 1. the suites through lit, every build with the option
python3 -c "from lit.main import main; main()" -v -j "$JOBS" --param build="$TOP/build" --param gpu=1 \
  --param ptx_options=--frame-arrays tests/bugs tests/gpu/frame_arrays >"$LOGDIR/lit.log" 2>&1
sed -n 's/^\([A-Z]*\): gsan-[a-z_]* :: \([^ ]*\)\.\(cu\|py\) .*/\2 \1/p' "$LOGDIR/lit.log" | sort >"$LOGDIR/lit.txt"

# 2. the correct programs at -G, without and with the option, and the
#    benchmark workloads (bench/workloads, correct programs of another suite)
#    at -g too (lit covers the suites' -g builds)
CLEAN=$(ls tests/bugs/clean_*.cu tests/gpu/frame_arrays/clean_*.cu bench/workloads/*.cu)
for src in $CLEAN; do
  if [ "$NGPU" -lt 2 ] && grep -q 'REQUIRES:.*multi-gpu' "$src"; then continue; fi
  echo "$src"
done >"$W/clean.list"
# variants: G (-G), GF (-G --frame-arrays); for the workloads also B (-g), F (-g --frame-arrays)
variants() { case $1 in bench/*) echo "B F G GF" ;; *) echo "G GF" ;; esac; }
for src in $(cat "$W/clean.list"); do for v in $(variants "$src"); do echo "$src $v"; done; done |
  xargs -P "$JOBS" -L 1 sh -c '
    src=$0 v=$1 n=$(basename $0 .cu); extra=$(sed -n "s|^// JIT-LINK:||p" $0)
    opt=; case $v in *F) opt="--frame-arrays --stats" ;; esac
    dbg=-g; case $v in G*) dbg=-G ;; esac
    env GSAN_PTX_OPTIONS="$opt" '"$GSAN"' nvcc $dbg -arch=native -I$(dirname $src) -o '"$W"'/$n.$v $src -lcuda $extra \
      >'"$W"'/$n.$v.build 2>&1 || echo "$n: $v build failed" >>'"$W"'/failed'
for src in $(cat "$W/clean.list"); do for v in $(variants "$src"); do echo "$src $v"; done; done |
  xargs -P 8 -L 1 sh -c '
    n=$(basename $0 .cu) v=$1 args=
    case $0 in bench/*) args="--reps 1 --warmup 0" ;; esac
    timeout 120 '"$GSAN"' run -- '"$W"'/$n.$v $args >'"$W"'/$n.$v.out 2>&1
    echo "$n $v $? $(grep -c "ERROR: GPUSanitizer" '"$W"'/$n.$v.out)" >'"$W"'/$n.$v.res'
cat "$W"/*.res 2>/dev/null | sort >"$LOGDIR/clean-G.txt"
# 4. public programs
CORPUS=${FRAME_CORPUS:-$TOP/.corpus/hecbench}
HECBENCH=${HECBENCH:-/work/.mirror/zjin-lcf+HeCBench/repo}
PUBLIC=$(sed -n 's/^\([A-Za-z0-9_-][A-Za-z0-9_-]*\)$/\1/p' tests/gpu/frame_arrays/public.txt)
if [ ! -d "$CORPUS/src" ] && [ -d "$HECBENCH" ]; then
  mkdir -p "$CORPUS"
  for p in $PUBLIC; do git --git-dir="$HECBENCH" archive HEAD "src/$p-cuda" 2>/dev/null | tar -x -C "$CORPUS"; done
fi
: >"$LOGDIR/public.txt"
if [ -d "$CORPUS/src" ]; then
  for p in $PUBLIC; do [ -d "$CORPUS/src/$p-cuda" ] && echo "$p"; done >"$W/public.list"
  # each program and variant a job: built, then each of its run target's
  # commands run for at most PUBLIC_SECONDS (a run cut short keeps the
  # reports it printed; its status says timeout)
  mkdir -p "$W/pub"
  for p in $(cat "$W/public.list"); do echo "$p base"; echo "$p fa"; done |
    xargs -P 12 -L 1 sh -c '
      p=$0 v=$1 d='"$W"'/pub/$0-$1; rm -rf $d; cp -r '"$CORPUS"'/src/$p-cuda $d
      opt=; [ $v = fa ] && opt="--frame-arrays --stats"
      env GSAN_PTX_OPTIONS="$opt" make -C $d CC="'"$GSAN"' nvcc" ARCH=sm_90 >$d.build 2>&1 || { echo "$p $v build-failed -" >'"$W"'/pub/$p.$v.res; exit 0; }
      make -C $d run LAUNCHER="timeout '"${PUBLIC_SECONDS:-60}"' '"$GSAN"' run --" >$d.out 2>&1
      st=$?; if grep -q "Error 124" $d.out; then st=timeout; elif [ $st = 0 ]; then st=ok; else st=failed; fi
      echo "$p $v $st $(grep -c "ERROR: GPUSanitizer" $d.out)" >'"$W"'/pub/$p.$v.res'
  cat "$W"/pub/*.res 2>/dev/null | sort >"$LOGDIR/public.txt"
fi

# 3. checks bounded by a frame array, per build (the --stats lines of each module)
arrays() { sed -n 's/^ *checks on frame arrays: *//p' "$1" | awk '{s += $1} END {print s + 0}'; }
local_checked() { sed -n 's/^ *local *[0-9]* *//p' "$1" | awk '{s += $1} END {print s + 0}'; }

{
  results_head "# Frame-local arrays (gsan ptx --frame-arrays): false positives and findings" "sh tests/gpu/frame_arrays.sh"
  echo "The experiment of docs/ptx.md, \"Frame-local arrays\": a local access whose address is the frame's"
  echo "depot plus a constant (where nvcc forms an array's address) bounded by that array, up to the next"
  echo "such constant, instead of the whole frame. Off by default; \`GSAN_PTX_OPTIONS=--frame-arrays\`."
  echo
  echo "## 1. The suites built with the option (-g, as their RUN lines build them)"
  echo
  echo "lit over tests/bugs and tests/gpu/frame_arrays with \`--param ptx_options=--frame-arrays\`:"
  echo "a correct program passes when it prints no report; a bug when its report matches its CHECK lines."
  echo
  echo "| program | | result | checks on frame arrays / local checks |"
  echo "|---|---|---|---|"
  fp=0 nclean=0 found=0 nbug=0
  while read -r n res; do
    src=$(ls tests/bugs/$n.cu tests/bugs/$n.py tests/gpu/frame_arrays/$n.cu 2>/dev/null | head -n 1)
    case $n in clean_*) kind=correct ;; *) kind=bug ;; esac
    st=
    [ -f "$W/$n.F.build" ] && st="$(arrays "$W/$n.F.build") / $(local_checked "$W/$n.F.build")"
    if [ "$res" = UNSUPPORTED ]; then
      r="not run (UNSUPPORTED)" # counted neither way
    elif [ $kind = correct ]; then
      nclean=$((nclean + 1))
      if [ "$res" = PASS ]; then r=clean; else r="**report or failure ($res)**"; fp=$((fp + 1)); fi
    else
      nbug=$((nbug + 1))
      if [ "$res" = PASS ]; then r=found; found=$((found + 1)); else r="**missed ($res)**"; fi
    fi
    echo "| $n | $kind | $r | $st |"
  done <"$LOGDIR/lit.txt"
  echo
  echo "Correct programs with a report or a failure: $fp of $nclean. Bugs found with their CHECK lines: $found of $nbug."
  echo
  echo "## 2. The correct programs built with -G, and the benchmark workloads"
  echo
  echo "Each built by \`gsan nvcc -G\` without the option and with it (the workloads of bench/workloads also"
  echo "by \`gsan nvcc -g\`, both ways) and run by \`gsan run\` (the workloads with their default sizes): reports printed."
  echo
  echo "| program | -g without | -g with | -G without | -G with | checks on frame arrays (-g / -G) |"
  echo "|---|---|---|---|---|---|"
  gfp=0 gn=0
  for src in $(cat "$W/clean.list"); do
    n=$(basename "$src" .cu)
    r() { sed -n "s/^$n $1 [0-9]* //p" "$LOGDIR/clean-G.txt"; }
    b=$(r B) f=$(r F) g=$(r G) gf=$(r GF)
    gn=$((gn + 1))
    new=0
    [ -n "$f" ] && [ -n "$b" ] && [ "$f" -gt "$b" ] && new=1
    [ -n "$gf" ] && [ -n "$g" ] && [ "$gf" -gt "$g" ] && new=1
    gfp=$((gfp + new))
    fa=-; [ -f "$W/$n.F.build" ] && fa=$(arrays "$W/$n.F.build")
    echo "| $n | ${b:--} | ${f:--} | ${g:-?} | ${gf:-?} | $fa / $(arrays "$W/$n.GF.build") |"
  done
  echo
  echo "Programs with more reports with the option than without: $gfp of $gn."
  echo
  echo "## 3. Public programs (HeCBench)"
  echo
  pfp=0 pn=0
  if [ -s "$LOGDIR/public.txt" ]; then
    echo "Programs of tests/gpu/frame_arrays/public.txt, each built by its Makefile (\`CC=gsan nvcc ARCH=sm_90\`)"
    echo "without the option and with it and run by its \`run\` target under \`gsan run\`: reports printed (and"
    echo "the run's exit status). A report with the option that is not there without it is a false positive"
    echo "unless the program really overruns one local array into another."
    echo
    echo "| program | reports without (run) | reports with (run) | checks on frame arrays |"
    echo "|---|---|---|---|"
    for p in $(cat "$W/public.list"); do
      a=$(sed -n "s/^$p base //p" "$LOGDIR/public.txt")
      b=$(sed -n "s/^$p fa //p" "$LOGDIR/public.txt")
      pn=$((pn + 1))
      ra=${a#* } rb=${b#* }
      [ "$rb" != "-" ] && [ "${rb:-0}" -gt "${ra:-0}" ] 2>/dev/null && pfp=$((pfp + 1))
      echo "| $p | ${ra:-?} (${a%% *}) | ${rb:-?} (${b%% *}) | $(arrays "$W/pub/$p-fa.build") |"
    done
    echo
    echo "Public programs with more reports with the option than without: $pfp of $pn."
  else
    echo "Not run: no HeCBench here (git clone https://github.com/zjin-lcf/HeCBench; FRAME_CORPUS=HeCBench)."
  fi
  [ -f "$W/failed" ] && { echo; echo "Builds that failed:"; echo; sed 's/^/- /' "$W/failed"; }
  echo
  echo "frame arrays: $fp of $nclean correct programs reported at -g, $gfp of $gn with -G or workload builds, $pfp of $pn public programs with more reports; $found of $nbug bugs found"
} >"$RESULTS"
tail -n 1 "$RESULTS"
