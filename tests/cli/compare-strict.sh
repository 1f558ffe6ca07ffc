#!/usr/bin/env bash
# `collsim compare` reads CSV strictly (issue 25, defect 11): a ragged row,
# an unterminated quoted field, a quote inside an unquoted field, a binary
# file (NUL bytes, not UTF-8) or an empty header is bad input, on either
# side, for two files and for two folders: exit 2, exactly one line on
# stderr naming the file, the line and the problem, nothing on stdout.
# CRLF line endings, a missing final newline and quoted commas and line
# breaks still compare (exit 0, MATCH).
# Environment: COLLSIM (default ./collsim), tests/lib/collsim-env.sh.  Exit
# status 0 all good, 1 otherwise.
set -u
export LC_ALL=C
. "$(dirname "$0")/../lib/collsim-env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/compare-strict.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
fail() {
  printf 'compare-strict: FAIL %s\n' "$*"
  status=1
}

good=$work/good.csv
printf 'n,x\n1,2\n3,4\n' >"$good"

# refused NAME WANT TEXT...: the file NAME holding TEXT (printf format) is
# refused on both sides with one line containing "NAME:WANT".
refused() {
  local name=$1 want=$2
  shift 2
  # shellcheck disable=SC2059 # the format is the test's
  printf "$@" >"$work/$name"
  for order in "$good $work/$name" "$work/$name $good"; do
    # shellcheck disable=SC2086 # two paths
    "$collsim" compare $order >"$work/out" 2>"$work/err"
    local rc=$? lines
    lines=$(wc -l <"$work/err")
    [ "$rc" -eq 2 ] || fail "$name ($order): exit $rc, not 2"
    [ "$lines" -eq 1 ] || fail "$name ($order): $lines lines on stderr: $(cat "$work/err")"
    [ -s "$work/out" ] && fail "$name ($order): printed on stdout: $(head -c 200 "$work/out")"
    grep -qF "$name:$want" "$work/err" || fail "$name ($order): message lacks '$name:$want': $(cat "$work/err")"
    grep -q '^collsim compare: error: ' "$work/err" || fail "$name ($order): not a collsim error line"
  done
}

refused ragged.csv '3: malformed CSV: 1 field(s), the header has 2' 'n,x\n1,2\n3\n'
refused long.csv '2: malformed CSV: 3 field(s), the header has 2' 'n,x\n1,2,9\n3,4\n'
refused unterminated.csv '3: malformed CSV: a quoted field is not closed' 'n,x\n1,2\n3,"4\n5,6\n'
refused inner-quote.csv '2: malformed CSV: a double quote inside an unquoted field' 'n,x\n1,2"\n3,4\n'
refused after-quote.csv '2: malformed CSV: text after the closing quote' 'n,x\n1,"2"x\n3,4\n'
refused blank-line.csv '3: malformed CSV: an empty line' 'n,x\n1,2\n\n3,4\n'
refused nul.csv '2: a NUL byte: a binary file' 'n,x\n1,\0002\n'
refused latin1.csv '1: not UTF-8 text: a binary file' 'n,\351\n1,2\n'
refused empty-header.csv '1: malformed CSV: an empty header' '\n1\n'
refused empty.csv '1: the file is empty' ''
# a real binary: the collsim executable itself
cp "$collsim" "$work/binary.csv"
"$collsim" compare "$good" "$work/binary.csv" >"$work/out" 2>"$work/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q 'binary.csv:1: .*binary file' "$work/err" ||
  fail "the collsim executable as CSV: exit $rc: $(head -c 300 "$work/err")"

# folders: a malformed file on either side (compared, or only on one side)
mkdir -p "$work/c" "$work/n"
cp "$good" "$work/c/a.csv"
cp "$good" "$work/n/a.csv"
printf 'n,x\n1\n' >"$work/n/only-here.csv"
"$collsim" compare "$work/c" "$work/n" >"$work/out" 2>"$work/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q 'only-here.csv:2: malformed CSV' "$work/err" ||
  fail "folders, malformed file only here: exit $rc: $(cat "$work/err")"
rm "$work/n/only-here.csv"
printf 'n,x\n1,"2\n' >"$work/n/a.csv"
"$collsim" compare "$work/c" "$work/n" >"$work/out" 2>"$work/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q 'a.csv:2: malformed CSV: a quoted field' "$work/err" ||
  fail "folders, unterminated quote: exit $rc: $(cat "$work/err")"

# still accepted: CRLF, no final newline, quoted commas and line breaks
accepted() {
  local name=$1 committed=$2 now=$3
  printf "$committed" >"$work/c-$name"
  printf "$now" >"$work/n-$name"
  "$collsim" compare "$work/c-$name" "$work/n-$name" >"$work/out" 2>"$work/err"
  local rc=$?
  [ "$rc" -eq 0 ] && grep -q '^MATCH' "$work/out" || fail "$name: exit $rc: $(cat "$work/err" "$work/out")"
}
accepted crlf.csv 'n,x\n1,2\n' 'n,x\r\n1,2\r\n'
accepted no-final-newline.csv 'n,x\n1,2\n' 'n,x\n1,2'
accepted quoted.csv 'n,x\n1,"a,b\nc ""d"""\n' 'n,x\r\n1,"a,b\nc ""d"""'

[ "$status" -eq 0 ] && echo "compare-strict: all good"
exit "$status"
