#!/usr/bin/env bash
# same_behaviour.sh OLD NEW [NP...] -- proves two builds of the library
# behave the same: the message trace (BLACS_TRACE) of a fixed corpus of
# broadcasts and combines over every TOP letter (TESTING/t_corpus.c) must be
# byte-identical, and so must every cost-model value and model-made choice
# (TIMING/tmodels.c, printed with %a).  Ends with
#   same: N trace lines, M model values        (exit 0)
# or the first differences of each output that differs (exit 1); exit 2 when
# something cannot be built or run (t_corpus checks its results too: a wrong
# one is exit 2 for OLD, and a difference for NEW).
#
# OLD and NEW are source trees (a checkout or `git worktree`, default build
# variant): `make lib` is run in each (a no-op when LIB/libblacs.a is up to
# date).  t_corpus.c and tmodels.c are this script's own (its tree's
# TESTING/ and TIMING/), so both sides run the same corpus: t_corpus is
# compiled once (public blacs.h of OLD) and linked with each tree's
# LIB/libblacs.a; tmodels is compiled per tree with that tree's SRC/,
# TIMING/model_api.h and build/default/blacs_config.h (from a copy outside
# TIMING/, so that the tree's model_api.h is the one included).
# OLD may also be a folder saved by SAVE=<dir> (it holds
# same_behaviour.baseline): its outputs are compared and nothing of OLD is
# built or run (half the time); the NP list must be among those it was
# saved with.
#
# Runs, per side: t_corpus on each NP (default 2 3 4 6); t_corpus on 4
# processes with BLACS_ALPHA=1000 BLACS_BETA=0.01 BLACS_GAMMA=0.01 (other
# 'A', 'P' and 'Y' choices) and on 3 with BLACS_PIPE_SEGMENT=4096
# BLACS_COMB_NSHORT=256; tmodels under the default environment and under each
# of those two.  Every other BLACS_* variable is unset first.
#
# Determinism (checked by running OLD against itself, several times): each
# process writes its own trace file, one line per message it sends, in the
# order it sends them, and every field of a line (context, scope, from, to,
# bytes, message ID, step within the operation, TOP) is a function of the
# program alone: receives that race (fan-ins taking contributions as they
# arrive, MPI_Waitany) change only the order in which data are combined,
# never what is sent, and the corpus's data are small integers whose sums
# are exact in any order.  So the files are compared as they are, no field
# dropped and no line sorted, concatenated in rank order with a "# rank r"
# line before each (not counted).
#
# Environment: WORK (output folder, default a fresh mktemp -d, kept),
# SAVE=<dir> (copy OLD's outputs there as a baseline), MPICC (mpicc.mpich),
# MPIEXEC (mpiexec.mpich), RUN_TIMEOUT (s per run, 600), TMODELS_CFLAGS
# (added to tmodels' compile line on both sides, e.g. -DTMODELS_NO_CTX),
# ENV_NP (4: processes of the BLACS_ALPHA run), SEG_NP (3: of the
# BLACS_PIPE_SEGMENT run).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n '2,3p' "$0" >&2; exit 2; }
OLD=$(cd "$1" && pwd) || exit 2
NEW=$(cd "$2" && pwd) || exit 2
shift 2
NPS=${*:-2 3 4 6}
MPICC=${MPICC:-$(command -v mpicc.mpich || echo mpicc)}
MPIEXEC=${MPIEXEC:-$(command -v mpiexec.mpich || echo mpiexec)}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
ENV_NP=${ENV_NP:-4}
SEG_NP=${SEG_NP:-3}
WORK=${WORK:-$(mktemp -d /tmp/same_behaviour.XXXXXX)}
mkdir -p "$WORK" || exit 2
for v in $(compgen -e | grep '^BLACS_'); do unset "$v"; done
ENV_SLOW="BLACS_ALPHA=1000 BLACS_BETA=0.01 BLACS_GAMMA=0.01"
ENV_SEG="BLACS_PIPE_SEGMENT=4096 BLACS_COMB_NSHORT=256"
CFLAGS_T="-std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra"
t0=$SECONDS

die() { echo "same_behaviour: $*" >&2; exit 2; }
is_saved() { [ -f "$1/same_behaviour.baseline" ]; }

# the corpus once: its source copied away from TESTING/, the public header
# of a source tree
mkdir -p "$WORK/src"
cp "$here/TESTING/t_corpus.c" "$here/TIMING/tmodels.c" "$WORK/src/" || die "sources missing in $here"
hdr=$OLD; is_saved "$OLD" && hdr=$NEW
"$MPICC" $CFLAGS_T -I"$hdr/SRC" -c -o "$WORK/src/t_corpus.o" "$WORK/src/t_corpus.c" \
  > "$WORK/src/t_corpus.log" 2>&1 || { cat "$WORK/src/t_corpus.log"; die "t_corpus.c does not compile"; }

# side <name> <tree>: build, run, collect into $WORK/<name>/
side() {
  local name=$1 tree=$2 out=$WORK/$1 np
  rm -rf "$out"; mkdir -p "$out/bin"
  if is_saved "$tree"; then
    local f
    for f in $(for np in $NPS; do echo "trace_np$np.txt"; done) "trace_np${ENV_NP}_slow.txt" \
             "trace_np${SEG_NP}_seg.txt" models_default.txt models_slow.txt models_seg.txt; do
      [ -f "$tree/$f" ] || die "$tree has no $f (saved for NP '$(cat "$tree/same_behaviour.baseline")')"
      cp "$tree/$f" "$out/"
    done
    return
  fi
  make -s -C "$tree" -j2 lib > "$out/make.log" 2>&1 || { tail -20 "$out/make.log"; die "make lib failed in $tree"; }
  local lib=$tree/LIB/libblacs.a
  [ -f "$lib" ] && [ -f "$tree/build/default/blacs_config.h" ] || die "no $lib or build/default/blacs_config.h in $tree"
  "$MPICC" -o "$out/bin/t_corpus" "$WORK/src/t_corpus.o" "$lib" -lm > "$out/link.log" 2>&1 ||
    { cat "$out/link.log"; die "t_corpus does not link with $lib"; }
  "$MPICC" $CFLAGS_T ${TMODELS_CFLAGS:-} -I"$tree/build/default" -I"$tree/SRC" -I"$tree/TIMING" \
    -o "$out/bin/tmodels" "$WORK/src/tmodels.c" "$lib" -lm > "$out/tmodels.log" 2>&1 ||
    { cat "$out/tmodels.log"; die "tmodels.c does not build against $tree"; }
  # run <label> <np> [VAR=value...]
  run() {
    local label=$1 n=$2 d=$out/run_$1 r
    shift 2
    mkdir -p "$d"
    env "$@" BLACS_TRACE="$d/trace" timeout "$RUN_TIMEOUT" $MPIEXEC -n "$n" "$out/bin/t_corpus" \
      > "$d/stdout" 2> "$d/stderr" || { cat "$d/stdout" "$d/stderr" >&2; die "$name: t_corpus $label failed ($tree)"; }
    { cat "$d/stdout"
      for ((r = 0; r < n; r++)); do
        echo "# rank $r"
        [ -f "$d/trace.$r" ] && cat "$d/trace.$r"
      done; } > "$out/trace_$label.txt"
  }
  for np in $NPS; do run "np$np" "$np"; done
  run "np${ENV_NP}_slow" "$ENV_NP" $ENV_SLOW
  run "np${SEG_NP}_seg" "$SEG_NP" $ENV_SEG
  "$out/bin/tmodels" > "$out/models_default.txt" 2> /dev/null || die "$name: tmodels failed"
  env $ENV_SLOW "$out/bin/tmodels" > "$out/models_slow.txt" 2> /dev/null || die "$name: tmodels failed"
  env $ENV_SEG "$out/bin/tmodels" > "$out/models_seg.txt" 2> /dev/null || die "$name: tmodels failed"
}

side old "$OLD"
side new "$NEW"

if [ -n "${SAVE:-}" ] && ! is_saved "$OLD"; then
  mkdir -p "$SAVE" && cp "$WORK"/old/*.txt "$SAVE/" && echo "$NPS" > "$SAVE/same_behaviour.baseline" &&
    { echo "OLD tree: $OLD"; git -C "$OLD" rev-parse HEAD 2>/dev/null; git -C "$OLD" status --short 2>/dev/null; } \
      > "$SAVE/SOURCE" || die "cannot save to $SAVE"
fi

# compare (TRACE_FIELDS=1-7: trace lines by their first seven fields only,
# for a change that renames the letter a trace names and nothing else)
# Plan and point-to-point lines ("= ...") are compared when OLD has them: a
# tree from before they were traced has only the collectives' sends.
ndiff=0; ntrace=0; nmodel=0; noplan=
fields() { if [[ $(basename "$1") == trace_* ]]; then
             awk -v f="${TRACE_FIELDS:-}" -v noplan="$noplan" '/^#|^t_corpus:/ {print; next}
               /^= / { if (noplan) next; print; next }
               f == "" { print; next }
               {split(f, r, "-"); s = ""; for (i = r[1]; i <= r[2]; i++) s = s (i > r[1] ? " " : "") $i; print s}' "$1"
           else cat "$1"; fi; }
for f in "$WORK"/old/*.txt; do
  b=$(basename "$f")
  noplan=; case $b in trace_*) grep -qm1 '^= ' "$f" || noplan=1 ;; esac
  if [ ! -f "$WORK/new/$b" ]; then echo "differs: $b missing for NEW"; ndiff=$((ndiff+1)); continue; fi
  if ! cmp -s <(fields "$f") <(fields "$WORK/new/$b"); then
    ndiff=$((ndiff+1))
    echo "differs: $b (old: $(wc -l < "$f") lines, new: $(wc -l < "$WORK/new/$b"))"
    diff <(fields "$f") <(fields "$WORK/new/$b") | head -${DIFF_LINES:-30}
  fi
  case $b in
    trace_*) ntrace=$((ntrace + $(grep -vc -e '^# rank' -e '^t_corpus:' "$f"))) ;;
    models_*) nmodel=$((nmodel + $(wc -l < "$f"))) ;;
  esac
done
for f in "$WORK"/new/*.txt; do
  [ -f "$WORK/old/$(basename "$f")" ] || { echo "differs: $(basename "$f") missing for OLD"; ndiff=$((ndiff+1)); }
done
echo "(outputs in $WORK; $((SECONDS - t0)) s)"
if [ "$ndiff" -gt 0 ]; then
  echo "DIFFERENT: $ndiff of $(ls "$WORK"/old/*.txt | wc -l) outputs differ"
  exit 1
fi
echo "same: $ntrace trace lines${TRACE_FIELDS:+ (fields $TRACE_FIELDS)}, $nmodel lines of model values"
