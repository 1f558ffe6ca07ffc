#!/usr/bin/env bash
# docs/guide.md quotes real output: this test reruns every "$ " command of
# its examples, in order, in one scratch folder (so a command reads the files
# the ones before it wrote), and compares what each prints with what the
# guide shows under it: all of its standard output, and those lines of its
# standard error the guide shows (progress and notices are optional).
#
# What is not compared, because it differs between identical runs or the
# guide leaves it out on purpose:
#  - measured values: wall_s, and table columns or fields named *_ms / *_us
#    (wall clock of this machine), masked on both sides;
#  - progress lines (", elapsed ", "ETA");
#  - a line of only "..." in the guide stands for any number of lines;
#  - runs of blanks count as one (a table's column widths follow its values).
# A command that needs a file the guide downloads (cluster_dragonfly.xml:
# nothing is downloaded at test time) is skipped, and so is its block's rest.
#
# usage: guide-current.sh (COLLSIM: the binary; run from the source tree or
# with SRCDIR set).  Exit 1 naming the first differing line of each command.
set -euo pipefail
export LC_ALL=C
src=${SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
collsim=${COLLSIM:-$src/collsim}
case $collsim in /*) ;; *) collsim=$PWD/$collsim ;; esac
guide=$src/docs/guide.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/run" "$work/bin" "$work/steps"
ln -s "$collsim" "$work/bin/collsim"
ln -s "$src/docs" "$work/run/docs"

# ---- the steps: NNN.cmd (the command) and NNN.want (what the guide shows) ----
# A command goes on over the next lines while it ends with do, then, |, { or
# a backslash (the guide's one loop).
awk -v dir="$work/steps" '
  function flush() { if (cmd != "") { printf "%s\n", cmd > (dir "/" sprintf("%03d", n) ".cmd"); close(dir "/" sprintf("%03d", n) ".cmd") } cmd = "" }
  /^```/ { if (inblock) flush(); inblock = !inblock; cont = 0; next }
  !inblock { next }
  cont { cmd = cmd "\n" $0; cont = ($0 ~ /(do|then|[|{\\])[ \t]*$/); next }
  /^\$ / { flush(); n++; cmd = substr($0, 3); cont = ($0 ~ /(do|then|[|{\\])[ \t]*$/)
           printf "" > (dir "/" sprintf("%03d", n) ".want"); next }
  n && cmd != "" { print >> (dir "/" sprintf("%03d", n) ".want") }
  END { flush() }
' "$guide"

# ---- run them in one shell, in order ----
{
  echo "cd '$work/run' || exit 1"
  echo "export PATH='$work/bin':\$PATH"
  for c in "$work"/steps/*.cmd; do
    s=${c%.cmd}
    if grep -q 'cluster_dragonfly\.xml' "$c"; then
      echo "echo skipped > '$s.skip'"
      continue
    fi
    printf '{\n%s\n} > %q 2> %q\n' "$(cat "$c")" "$s.got" "$s.err"
  done
} > "$work/script.sh"
bash "$work/script.sh" || true

# ---- normalise and compare ----
# normalise FILE: measured values masked, progress lines dropped, blanks
# squeezed, trailing blanks cut.
normalise() {
  awk '
    /, elapsed |ETA / { next }
    {
      line = $0
      gsub(/"wall_s": [0-9.e+-]+/, "\"wall_s\": #", line)
      if (line ~ /^ *(wall_s|[a-z_]+_ms|[a-z_]+_us) +[0-9.e+-]+ *$/) sub(/[0-9.e+-]+ *$/, "#", line)
      n = split(line, f, " +")
      # a table header naming measured columns: remember where they are
      if (line ~ /(_ms|_us|wall_s)( |$)/ && line !~ /[0-9]/) {
        delete mask; ncols = 0
        for (i = 1; i <= n; i++) if (f[i] != "") { ncols++; if (f[i] ~ /(_ms|_us|wall_s)$/) mask[ncols] = 1 }
      } else if (ncols) {
        # a row of it: its key, then the columns (leading blanks give an empty f[1])
        k = 0; out = ""
        for (i = 1; i <= n; i++) {
          if (f[i] == "") continue
          k++
          out = out (out == "" ? "" : " ") (((k - 1) in mask) ? "#" : f[i])
        }
        if (k == ncols + 1) line = out; else ncols = 0
      }
      # CSV with a wall_s column
      if (line ~ /,/ && line ~ /(^|,)wall_s(,|$)/) { delete cmask; m = split(line, h, ","); for (i = 1; i <= m; i++) if (h[i] == "wall_s") cmask[i] = 1; csv = m }
      else if (csv && line ~ /,/) { m = split(line, h, ","); if (m == csv) { line = ""; for (i = 1; i <= m; i++) line = line (i > 1 ? "," : "") ((i in cmask) ? "#" : h[i]) } }
      gsub(/[ \t]+/, " ", line); sub(/^ /, "", line); sub(/ $/, "", line)
      print line
    }' "$1"
}

# same WANT OUT ERR: WANT is OUT (every line, in order) with lines of ERR
# (stderr: some of them, in order) among them; a "..." line of WANT skips any
# number of lines.  Prints the first mismatch.
same() {
  awk 'FILENAME == ARGV[1] { want[++nw] = $0; next }
       FILENAME == ARGV[2] { out[++no] = $0; next }
       { err[++ne] = $0 }
    END {
      o = 1; e = 1; skip = 0
      for (w = 1; w <= nw; w++) {
        if (want[w] ~ /^\.\.\.$/) { skip = 1; continue }
        if (skip) { while (o <= no && out[o] != want[w]) o++ }
        if (o <= no && out[o] == want[w]) { o++; skip = 0; continue }
        for (x = e; x <= ne && err[x] != want[w]; x++) ;
        if (x <= ne) { e = x + 1; skip = 0; continue }
        printf "guide: %s\n  got: %s\n", want[w], (o <= no ? out[o] : "(nothing more on stdout)"); exit 1
      }
      if (!skip && o <= no) { printf "guide: (nothing more)\n  got: %s\n", out[o]; exit 1 }
    }' "$1" "$2" "$3"
}

failed=0 checked=0 skipped=0
for c in "$work"/steps/*.cmd; do
  s=${c%.cmd}
  if [ -e "$s.skip" ]; then
    skipped=$((skipped + 1))
    continue
  fi
  if [ ! -s "$s.want" ]; then # the guide shows no output here (or shows a selection of it after the block)
    continue
  fi
  checked=$((checked + 1))
  normalise "$s.want" > "$s.w"
  normalise "$s.got" > "$s.g"
  normalise "$s.err" > "$s.e"
  if ! diff=$(same "$s.w" "$s.g" "$s.e"); then
    failed=$((failed + 1))
    printf 'DIFFERS: $ %s\n%s\n' "$(head -n 1 "$c")" "$diff"
  fi
done
echo "guide-current: $checked commands of docs/guide.md rerun, $skipped skipped (downloaded inputs), $failed differ"
[ "$failed" -eq 0 ]
