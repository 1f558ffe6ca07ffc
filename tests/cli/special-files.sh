#!/usr/bin/env bash
# Special files, signals, TMPDIR and memory (issue 25, defects 3 and 9):
#  - /dev/zero, a named pipe with no writer and a folder, given to every
#    option and positional argument that names an input file (--platform
#    file:, --members of tree and groupmap, --trees, --batch, --script, a
#    sweep's experiment, either side of compare), are refused at once: exit 2,
#    one line on stderr saying what the file is, within 10 s (each run under
#    `timeout 20`), no temporary file left; a named pipe inside a folder that
#    compare reads does not block it either;
#  - SIGTERM and SIGINT during a simulation, and SIGTERM during a sweep, stop
#    the run within 2 s, killed by that signal (the sweep: 128+N, its resume
#    journal intact), leaving no temporary file in $TMPDIR and no folder made
#    for the output;
#  - an unusable TMPDIR (missing, a file, /proc, 4,000 characters) makes every
#    subcommand exit 2 with one line naming TMPDIR;
#  - a simulation out of memory under `ulimit -v` exits 1 with one line
#    ("out of memory"), not SimGrid's abort with a backtrace;
#  - `--out DIR/` and a --trace that cannot be written are refused with one
#    line naming the user's path, no temporary file's name, no GLib text.
# Runs of a collsim that would read /dev/zero without end are capped at 2 GiB
# of address space (not under a sanitizer build, which reserves far more;
# the ulimit -v case is skipped there for the same reason).
#
#   COLLSIM=./collsim tests/cli/special-files.sh    (make check sets COLLSIM)
set -u
export LC_ALL=C
. "$(dirname "$0")/../lib/collsim-env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/special-files.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work/tmp # collsim's own temporary folders land here, to be counted
mkdir -p "$TMPDIR" "$work/out" "$work/a-folder" "$work/cmp-now"
sanitized=0
ldd "$collsim" 2>/dev/null | grep -Eq 'libasan|libubsan|libtsan' && sanitized=1

fails=0 runs=0
fail() {
  fails=$((fails + 1))
  printf 'special-files: FAIL %s\n' "$*" >&2
}
now() { date +%s.%N; }
elapsed_below() { awk -v a="$1" -v b="$2" -v lim="$3" 'BEGIN { exit !(b - a < lim) }'; }
leftover_temp() { find "$TMPDIR" -mindepth 1 | head -n 3; }

# Runs collsim (words as given), capped; sets rc, err (stderr file), took.
run() {
  local t0
  err=$work/stderr
  find "$TMPDIR" "$work/out" -mindepth 1 -delete
  runs=$((runs + 1))
  t0=$(now)
  if [ $sanitized = 1 ]; then
    timeout 20 "$collsim" "$@" > /dev/null 2> "$err"
  else
    (ulimit -v 2000000 && exec timeout 20 "$collsim" "$@") > /dev/null 2> "$err"
  fi
  rc=$?
  took=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
}

# Refused as bad input: exit 2, one line matching the pattern, in time, no
# temporary file.
expect_refused() {
  local pattern=$1
  shift
  run "$@"
  local lines
  lines=$(wc -l < "$err")
  if [ $rc != 2 ] || [ "$lines" != 1 ]; then
    fail "exit $rc, $lines line(s) in ${took} s (expected 2, one line): collsim $* :: $(head -c 200 "$err" | tr '\n' '|')"
  elif ! grep -Eq "$pattern" "$err"; then
    fail "message does not say '$pattern': collsim $* :: $(head -c 200 "$err")"
  elif ! elapsed_below 0 "$took" 10; then
    fail "took ${took} s: collsim $*"
  elif [ -n "$(leftover_temp)" ]; then
    fail "left temporary $(leftover_temp): collsim $*"
  fi
}

# ---- special input files ----
mkfifo "$work/fifo" "$work/cmp-now/rows.csv"
printf 'n,x\n1,2\n' > "$work/rows.csv"
mkdir -p "$work/cmp-committed" && cp "$work/rows.csv" "$work/cmp-committed/rows.csv"
for f in /dev/zero "$work/fifo" "$work/a-folder"; do
  case $f in
    /dev/zero) what='character device' ;;
    */fifo) what='named pipe' ;;
    *) what='folder' ;;
  esac
  expect_refused "$what" tree --algo rank-hash -n 16 --members "$f" -q
  expect_refused "$what" groupmap --world 64 --members "$f" --no-times -q
  expect_refused "$what" allreduce --cluster 2x2@100 -n 4 --iterations 2 --trees "$f" -q
  expect_refused "$what" collective --platform percs:2,2,2 --batch "$f" -q
  expect_refused "$what" collective --platform percs:2,2,2 --coll bcast --algo script --script "$f" --bytes 1KiB -q
  expect_refused "$what" collective --platform "file:$f" --coll scatter --algo binomial --block 1KiB -q
  expect_refused "$what" tree --algo rank-hash -n 16 --platform "file:$f" -q
  expect_refused "$what" sweep "$f" --out "$work/out/sweep.csv" -q
  if [ "$what" != folder ]; then # two folders are compared file by file
    expect_refused "$what" compare "$f" "$work/rows.csv"
    expect_refused "$what" compare "$work/rows.csv" "$f"
  fi
done
# compare of two folders: the pipe among NOW's files is not read (no hang)
run compare "$work/cmp-committed" "$work/cmp-now"
[ $rc = 124 ] && fail "compare blocked on a named pipe in a folder it compares"

# ---- signals ----
# Starts a simulation of several seconds in the background (SIGINT at its
# default action: a script's background job would otherwise ignore it), its
# output under folders it must make; waits until its temporary files exist.
start_long_run() {
  find "$TMPDIR" "$work/out" -mindepth 1 -delete
  env --default-signal=INT "$collsim" "$@" > /dev/null 2> "$work/stderr" &
  pid=$!
  for _ in $(seq 200); do
    [ -n "$(find "$TMPDIR" -type f | head -n 1)" ] && break
    sleep 0.1
  done
  sleep 0.5
}

# Sends the signal; the run must end within 2 s, by the signal (status
# 128+N), with nothing left in TMPDIR and no folder made for its output.
stop_and_check() {
  local sig=$1 num=$2 label=$3 t0 t1
  runs=$((runs + 1))
  t0=$(now)
  kill -s "$sig" "$pid"
  for _ in $(seq 50); do
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  t1=$(now)
  if kill -0 "$pid" 2> /dev/null; then
    fail "$label: still running 5 s after SIG$sig"
    kill -KILL "$pid"
  fi
  wait "$pid"
  local status=$?
  elapsed_below "$t0" "$t1" 2 || fail "$label: took $(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') s to stop on SIG$sig"
  [ $status = $((128 + num)) ] || fail "$label: exit status $status after SIG$sig (expected $((128 + num)))"
  [ -z "$(leftover_temp)" ] || fail "$label: SIG$sig left temporary $(leftover_temp)"
  [ -z "$(find "$work/out" -mindepth 1 | head -n 1)" ] ||
    fail "$label: SIG$sig left $(find "$work/out" -mindepth 1 | head -n 3 | tr '\n' ' ')"
  [ "$(wc -l < "$work/stderr")" -le 1 ] || fail "$label: SIG$sig printed $(wc -l < "$work/stderr") lines"
}

long_tree=(tree --algo rank-hash -n 32768 -f 1 -q --out "$work/out/made/for/it.csv")
start_long_run "${long_tree[@]}"
stop_and_check TERM 15 "tree"
start_long_run "${long_tree[@]}"
stop_and_check INT 2 "tree"

# A sweep: its points stop, the rows done stay, the journal resumes.
cat > "$work/exp.yaml" << 'EOF'
name: stop
command: tree
parameters: {algo: rank-hash, f: 1, n: [16, 32, 32768, 16384]}
EOF
find "$TMPDIR" "$work/out" -mindepth 1 -delete
"$collsim" sweep "$work/exp.yaml" --out "$work/sweep.csv" -q --jobs 2 > /dev/null 2> "$work/stderr" &
pid=$!
for _ in $(seq 300); do
  [ "$(find "$TMPDIR" -name '*.xml' | wc -l)" -ge 2 ] && break
  sleep 0.1
done
sleep 0.5
stop_and_check TERM 15 "sweep"
pending=$("$collsim" sweep "$work/exp.yaml" --out "$work/sweep.csv" --dry-run 2> "$work/stderr" | wc -l)
[ $? = 0 ] && [ "$pending" -ge 1 ] && [ "$pending" -le 4 ] ||
  fail "sweep after SIGTERM: --dry-run lists $pending pending point(s) :: $(head -c 200 "$work/stderr")"

# ---- TMPDIR ----
long=$work/$(printf 'a%.0s' $(seq 4000))
printf 'x\n' > "$work/a-file"
declare -A base=(
  [tree]="tree --algo rank-hash -n 16 -f 0.5 -q"
  [collective]="collective --platform percs:2,2,2 --coll scatter --algo binomial --block 1KiB -q"
  [allreduce]="allreduce --cluster 2x2@100 -n 4 --iterations 2 -q"
  [tree-script]="tree-script --from lam -n 4"
  [platform]="platform --platform torus:2x2x2/1"
  [sweep]="sweep $work/exp.yaml -q --dry-run"
  [reproduce]="reproduce --list"
  [demo]="demo -n 16 -q"
  [groupmap]="groupmap --list"
  [compare]="compare $work/rows.csv $work/rows.csv"
  [comm]="comm create-group -n 16 --group-size 4 -q"
  [mcmc]="mcmc --platform torus:2x2x2/2 -n 16 --balance none -q"
)
for bad in "$work/missing" "$work/a-file" /proc "$long"; do
  for cmd in "${!base[@]}"; do
    read -ra words <<< "${base[$cmd]}"
    runs=$((runs + 1))
    TMPDIR=$bad timeout 20 "$collsim" "${words[@]}" > /dev/null 2> "$work/stderr"
    rc=$?
    if [ $rc != 2 ] || [ "$(wc -l < "$work/stderr")" != 1 ] || ! grep -q "^collsim $cmd: error: TMPDIR=" "$work/stderr"; then
      fail "TMPDIR=${bad:0:60}: collsim $cmd exit $rc (expected 2, one line naming TMPDIR) :: $(head -c 200 "$work/stderr" | tr '\n' '|')"
    fi
  done
done

# ---- out of memory ----
if [ $sanitized = 0 ]; then
  runs=$((runs + 1))
  (ulimit -v 400000 && exec timeout 60 "$collsim" tree --algo rank-hash -n 32768 -f 1 -q) > /dev/null 2> "$work/stderr"
  rc=$?
  if [ $rc != 1 ] || [ "$(wc -l < "$work/stderr")" != 1 ] || ! grep -q "^collsim tree: error: out of memory" "$work/stderr"; then
    fail "ulimit -v 400000: exit $rc (expected 1, one line 'out of memory') :: $(head -c 300 "$work/stderr" | tr '\n' '|')"
  fi
  [ -z "$(leftover_temp)" ] || fail "out of memory left temporary $(leftover_temp)"
fi

# ---- output paths ----
# Refused naming the user's path, nothing made: no temporary name
# (.XXXXXX, .collsim-), no GLib text (g_rename, Failed to).
expect_output_refused() {
  local path=$1
  shift
  expect_refused "$path" "$@"
  if sed "s|$work||g" "$err" | grep -Eq 'g_rename|Failed to|\.[A-Za-z0-9]{6}\b|\.collsim-|collsim-[0-9]+-'; then
    fail "message shows a temporary file or GLib's text: collsim $* :: $(cat "$err")"
  fi
  [ -z "$(find "$work/out" -mindepth 1 | head -n 1)" ] || fail "left $(find "$work/out" -mindepth 1 | head -n 3): collsim $*"
}
expect_output_refused "$work/out/new/" tree --algo rank-hash -n 16 -q --out "$work/out/new/"
expect_output_refused "$work/out/new/" tree --algo rank-hash -n 16 -q --trace "$work/out/new/"
expect_output_refused "/proc" tree --algo rank-hash -n 16 -q --trace /proc/trace.csv
expect_output_refused "/proc" collective --platform percs:2,2,2 --coll bcast --algo vandegeijn --bytes 1KiB --timed -q \
  --trace /proc/trace.csv

echo "special-files: $runs runs, $fails failure(s)"
[ $fails = 0 ]
