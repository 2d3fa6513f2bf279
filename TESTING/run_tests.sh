#!/usr/bin/env bash
# run_tests.sh LIST... -- runs the tests named in the list files and ends with
# one line "N passed, M failed" (", K skipped"); exits non-zero on failure.
#
# List format, one test per line ('#' starts a comment):
#   <name> <np> <expect> <command and arguments>
# <np>      number of MPI processes (0: run the command directly, no mpiexec)
# <expect>  ok          exit status 0
#           err:REGEX   non-zero exit status and output (stdout+stderr) matching
#                       the extended regular expression REGEX (use \s for blanks)
#           out:REGEX   exit status 0 and output matching REGEX
#           skip:WHY    not run, counted as skipped
# In the command, @BIN@ is the test binary folder, @LIB@ the library folder.
# A test whose output has a line "N passed, M failed[, K skipped]" (a tester
# that counts its own cases) adds those counts instead of one.
# Environment: BIN, LIBDIR, MPIEXEC, LOGDIR (default BIN/logs), TEST_TIMEOUT (s, default 300),
# TESTS=REGEX to run a subset, VALGRIND=1 to run 1-2 rank tests under memcheck
# (VALGRIND_SKIP=REGEX: tests left out there, by default the load tests and
# the long-wait warning's timed cases).
set -u
BIN=${BIN:-build/default/tests}; LIBDIR=${LIBDIR:-LIB}
MPIEXEC=${MPIEXEC:-mpiexec}; TIMEOUT=${TEST_TIMEOUT:-300}
pass=0; fail=0; skip=0; failed=()
logdir=${LOGDIR:-${BIN}/logs}; mkdir -p "$logdir"
for list in "$@"; do
  [ -f "$list" ] || continue
  while read -r name np expect cmd; do
    case "$name" in ''|\#*) continue;; esac
    [ -n "${TESTS:-}" ] && ! [[ $name =~ $TESTS ]] && continue
    cmd=${cmd//@BIN@/$BIN}; cmd=${cmd//@LIB@/$LIBDIR}
    if [[ $expect == skip:* ]]; then
      skip=$((skip+1)); printf '%-40s SKIP (%s)\n' "$name" "${expect#skip:}"; continue
    fi
    if [ -n "${VALGRIND:-}" ]; then
      { [ "$np" = 0 ] || [ "$np" -gt 2 ]; } && continue
      # load tests take hours under memcheck; their code paths run in the others.
      # The long-wait warning's timed cases (a 1 s limit against a 3 s sleep)
      # have no meaning at memcheck's speed; its thread tests stay.
      [[ $name =~ ${VALGRIND_SKIP:-^(gridloop|lblock_1000|load_|soak|kill_|stats_|waitwarn_(p2p|bcast|sum|restart))} ]] && continue
      [[ $expect == err:* ]] && continue
      envs=""; while [[ $cmd =~ ^([A-Z_][A-Z0-9_]*=[^ ]*)\ (.*)$ ]]; do envs+="${BASH_REMATCH[1]} "; cmd=${BASH_REMATCH[2]}; done
      cmd="${envs}valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --suppressions=TESTING/valgrind.supp $cmd"
    fi
    log="$logdir/$name.log"
    re=${expect#*:}; re=${re//\\s/[[:space:]]} # out: and err: tests' pattern
    t0=$(date +%s.%N)
    for try in 1 2; do
      if [ "$np" = 0 ]; then
        timeout -k 5 "$TIMEOUT" bash -c "$cmd" > "$log" 2>&1 </dev/null; rc=$?
      else
        # Each rank appends its own output to the log file, not through the
        # launcher: when one rank aborts, MPICH's launcher stops the job and
        # can drop what that rank wrote last (its error message) from the
        # stream it forwards; a write to a file is done before the abort.
        : > "$log"
        timeout -k 5 "$TIMEOUT" $MPIEXEC -n "$np" bash -c "exec >>'$log' 2>&1; $cmd" >> "$log" 2>&1 </dev/null; rc=$?
      fi
      # An expected error whose process exited with a failure status but
      # whose message is nowhere in the log (before the ranks wrote to the
      # log themselves, MPICH's launcher lost it: rc 14, MPI_ERR_TRUNCATE,
      # and only the other rank's output).  Run once more; a wrong message,
      # or none twice, still fails.
      [[ $expect == err:* ]] && [ $rc != 0 ] && [ $rc != 124 ] && [ $try = 1 ] \
        && ! grep -qE -- "$re" "$log" && ! grep -qE 'ERROR|[Ee]rror|Abort|Fatal|signal' "$log" || break
      echo "$name: exit $rc without any error output; run once more" >&2
    done
    dt=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
    ok=0; sub=""
    if [[ $expect == ok ]]; then
      [ $rc = 0 ] && ok=1
      line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
      if [ -n "$line" ]; then
        p=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line"); f=$(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
        s=$(grep -oE '[0-9]+ skipped' <<<"$line" | grep -oE '[0-9]+'); s=${s:-0}
        [ $rc != 0 ] && [ "$f" = 0 ] && f=1
        pass=$((pass+p)); fail=$((fail+f)); skip=$((skip+s)); sub=" ($line)"
        if [ "$f" = 0 ]; then printf '%-40s ok %6ss%s\n' "$name" "$dt" "$sub"; else
          printf '%-40s FAILED %ss%s (rc=%s, log %s)\n' "$name" "$dt" "$sub" "$rc" "$log"; failed+=("$name"); fi
        continue
      fi
    elif [[ $expect == out:* ]]; then
      [ $rc = 0 ] && grep -qE -- "$re" "$log" && ok=1
    else
      [ $rc != 0 ] && [ $rc != 124 ] && grep -qE -- "$re" "$log" && ok=1
    fi
    if [ $ok = 1 ]; then pass=$((pass+1)); printf '%-40s ok %6ss\n' "$name" "$dt"
    else fail=$((fail+1)); failed+=("$name"); printf '%-40s FAILED %ss (rc=%s, log %s)\n' "$name" "$dt" "$rc" "$log"
      tail -n 15 "$log" | sed 's/^/    | /'
    fi
  done < "$list"
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
if [ $skip -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ $fail = 0 ]
