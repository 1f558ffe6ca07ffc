#!/usr/bin/env bash
# Checks the run-derived numbers and comparisons written by hand in the
# documents (README.md, docs/*.md, the results' Differences sections) against the files
# they come from, as listed in tests/repro/docs-claims.txt.
#
#   scripts/check-claims.sh [--map results/seedNNN=DIR] [--doc FILE=COPY] [--only FILE] [--claims FILE]
#
# --map reads a results folder's files from DIR instead (a reproduction
# into a fresh folder); --doc reads a document from COPY instead; --only
# checks that document's claims alone.  Prints
# one line per claim that does not hold, naming the document's line, and a
# summary; exit status 0 when every claim holds, 1 otherwise.
#
# A claim is one line of the claims file, fields separated by " | " (TEXT
# may hold " | " too):
#   DOC | TEXT | FORMAT | SOURCE
#     TEXT, with {} replaced by the SOURCE's value printed with FORMAT (a
#     printf format), must appear on one line of DOC;
#   DOC | TEXT | holds | SOURCE OP SOURCE
#     TEXT must appear on one line of DOC and the comparison (OP one of
#     < <= > >=) must hold: a sentence that says "faster", "slowest", ...
#   DOC | TEXT | also | OTHER
#     TEXT and OTHER must both appear on a line of DOC: a hand-written
#     sentence that repeats what a generated one (OTHER) says.
# A SOURCE is
#   CSV:COLUMN[KEY=VALUE,...]   COLUMN of the one row of CSV (a file with
#                               a header) whose columns KEY equal VALUE;
#   SUM:, MIN:, MAX:CSV:COLUMN[KEY=VALUE,...]
#                               the sum, least or largest COLUMN over the
#                               rows whose columns KEY equal VALUE (none:
#                               every row; at least one row must match);
#   TXT:FILE:N[REGEX]           the N-th blank-separated field of the one
#                               line of FILE matching REGEX (an awk regex);
#   NUMBER                      itself;
#   SOURCE / SOURCE             their ratio;
#   SOURCE + SOURCE             their sum (+ binds looser than /).
# Paths are from the source folder.  Lines starting with # and blank lines
# are comments.
set -euo pipefail
export LC_ALL=C
src=${COLLSIM_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
claims=$src/tests/repro/docs-claims.txt
only=
declare -A map=() doc_copy=()
while [ $# -gt 0 ]; do
  case $1 in
    --map) map[${2%%=*}]=${2#*=}; shift 2 ;;
    --doc) doc_copy[${2%%=*}]=${2#*=}; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --claims) claims=$2; shift 2 ;;
    *) echo "check-claims: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

# path FILE: where FILE (relative to the source folder) is read from.
path() {
  local f=$1 k
  for k in "${!map[@]}"; do
    case $f in "$k"/*) echo "${map[$k]}/${f#"$k"/}"; return ;; esac
  done
  echo "$src/$f"
}

# value SOURCE: prints the source's number, or fails with a message on stderr.
value() {
  local s=$1
  if [[ $s == *" + "* ]]; then
    local a b
    a=$(value "${s%% + *}") && b=$(value "${s#* + }") || return 1
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.17g\n", a + b }'
    return
  fi
  if [[ $s == *" / "* ]]; then
    local a b
    a=$(value "${s%% / *}") && b=$(value "${s#* / }") || return 1
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.17g\n", a / b }'
    return
  fi
  case $s in
    CSV:* | SUM:* | MIN:* | MAX:*)
      local agg=${s%%:*} rest=${s#*:} file col filters
      file=${rest%%:*}; rest=${rest#*:}; col=${rest%%\[*}; filters=${rest#*\[}; filters=${filters%\]}
      awk -F, -v agg="$agg" -v col="$col" -v filters="$filters" -v name="$file" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  nf = split(filters, f, ",")
                  for (j = 1; j <= nf; j++) { k[j] = substr(f[j], 1, index(f[j], "=") - 1); v[j] = substr(f[j], index(f[j], "=") + 1)
                    if (!(k[j] in c)) { print name ": no column " k[j] > "/dev/stderr"; bad = 1; exit 1 } }
                  if (!(col in c)) { print name ": no column " col > "/dev/stderr"; bad = 1; exit 1 }
                  next }
        { for (j = 1; j <= nf; j++) if ($c[k[j]] != v[j]) next
          x = $c[col] + 0; sum += x; if (!n || x < lo) lo = x; if (!n || x > hi) hi = x
          n++; got = $c[col] }
        END { if (bad) exit 1
              if (agg == "CSV" && n != 1) { print name ": " n " rows with " filters " (want 1)" > "/dev/stderr"; exit 1 }
              if (n < 1) { print name ": no row with " filters > "/dev/stderr"; exit 1 }
              if (agg == "SUM") printf "%.17g\n", sum
              else if (agg == "MIN") printf "%.17g\n", lo
              else if (agg == "MAX") printf "%.17g\n", hi
              else print got }' "$(path "$file")"
      ;;
    TXT:*)
      local rest=${s#TXT:} file n re
      file=${rest%%:*}; rest=${rest#*:}; n=${rest%%\[*}; re=${rest#*\[}; re=${re%\]}
      awk -v n="$n" -v re="$re" -v name="$file" '
        $0 ~ re { m++; got = $n }
        END { if (m != 1) { print name ": " m " lines match /" re "/ (want 1)" > "/dev/stderr"; exit 1 }
              print got }' "$(path "$file")"
      ;;
    [0-9]*) echo "$s" ;; # a number
    *) echo "unknown source '$s'" >&2; return 1 ;;
  esac
}

checked=0 failed=0 lineno=0
# fail WHERE MESSAGE
fail() {
  failed=$((failed + 1))
  printf '%s: %s\n' "$1" "$2"
}

while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  case $line in '' | '#'*) continue ;; esac
  where="${claims#"$src"/}:$lineno"
  # DOC is the first field, FORMAT and SOURCE the last two: TEXT, between
  # them, may hold " | " (a markdown table's row)
  doc=${line%% | *} source=${line##* | } rest=${line#* | }
  rest=${rest% | *}
  fmt=${rest##* | } text=${rest% | *}
  if [ -z "$text" ] || [ "$text" = "$rest" ]; then
    fail "$where" "a claim is DOC | TEXT | FORMAT | SOURCE"
    continue
  fi
  [ -z "$only" ] || [ "$doc" = "$only" ] || continue
  d=${doc_copy[$doc]:-$(path "$doc")}
  if [ ! -f "$d" ]; then
    fail "$where" "no document $doc"
    continue
  fi
  checked=$((checked + 1))
  if [ "$fmt" = also ]; then
    if ! grep -qF -- "$text" "$d"; then
      fail "$where" "$doc has no line with \"$text\""
    elif ! grep -qF -- "$source" "$d"; then
      hit=$(grep -nF -- "$text" "$d" | head -n 1 | cut -d: -f1)
      fail "$doc:$hit" "says \"$text\", but $doc no longer has the generated \"$source\" that backs it"
    fi
    continue
  fi
  if [ "$fmt" = holds ]; then
    op=$(grep -oE ' (<=|>=|<|>) ' <<< "$source" | head -n 1 | tr -d ' ')
    if [ -z "$op" ]; then
      fail "$where" "a 'holds' claim needs SOURCE OP SOURCE"
      continue
    fi
    if ! a=$(value "${source%% "$op" *}" 2>&1) || ! b=$(value "${source#* "$op" }" 2>&1); then
      fail "$where" "$doc: cannot read the source: $a${b:+ $b}"
      continue
    fi
    hit=$(grep -nF -- "$text" "$d" | head -n 1 | cut -d: -f1 || true)
    if [ -z "$hit" ]; then
      fail "$where" "$doc has no line with \"$text\""
    elif ! awk -v a="$a" -v b="$b" -v op="$op" 'BEGIN { exit !((op == "<" && a < b) || (op == "<=" && a <= b) ||
                                                             (op == ">" && a > b) || (op == ">=" && a >= b)) }'; then
      fail "$doc:$hit" "says \"$text\", but $a $op $b does not hold (${source})"
    fi
    continue
  fi
  if ! v=$(value "$source" 2>&1); then
    fail "$where" "$doc: cannot read the source: $v"
    continue
  fi
  # shellcheck disable=SC2059 # the format comes from the claims file
  num=$(printf "$fmt" "$v")
  want=${text//\{\}/$num}
  if ! grep -qF -- "$want" "$d"; then
    head=${text%%\{\}*} tail=${text#*\{\}}
    hit=$(grep -nF -- "$head" "$d" | grep -F -- "$tail" | head -n 1 || true)
    [ -n "$hit" ] || hit=$(grep -nF -- "$head" "$d" | head -n 1 || true)
    if [ -n "$head" ] && [ -n "$hit" ]; then
      fail "$doc:${hit%%:*}" "says \"${hit#*:}\"; $source gives $num: want \"$want\""
    else
      fail "$where" "$doc has no line with \"$want\" ($source gives $num)"
    fi
  fi
done < "$claims"
echo "check-claims: $checked claims checked, $failed do not hold"
[ "$failed" -eq 0 ]
