#!/usr/bin/env bash
# One step of `make bench`, told in one line: the step's whole output goes to LOGS/NAME.txt and
# the line that says how it went (tasks passed, targets met, files written) is printed.
#   bash scripts/bench_step.sh LOGS NAME COMMAND...
# Why: ten runs and two speed checks printed about 200 lines, while the README promises the
# summary; the details stay in the log and in each run's report.md. A failing step prints its
# log's last lines and exits with the step's own code, so nothing is hidden when it matters.
set -u
LOG_TAG=bench
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -ge 3 ] || die "usage: bench_step.sh LOGS NAME COMMAND..."
logs=$1 name=$2
shift 2
mkdir -p "$logs" || die "cannot create $logs"
log="$logs/$name.txt"
if "$@" >"$log" 2>&1; then
  line=$(grep -m1 -E 'tasks recorded|targets? (met|missed)|^wrote ' "$log" || true)
  printf '%-28s %s\n' "$name" "${line:-done (log: $log)}"
else
  rc=$?
  printf '[bench] ERROR: %s failed (exit %s); the last lines of %s:\n' "$name" "$rc" "$log" >&2
  tail -n 25 "$log" >&2
  exit "$rc"
fi
