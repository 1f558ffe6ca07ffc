#!/usr/bin/env bash
# Paths (issue 15, item 9):
#  - every command line of README.md, docs/commands.md and docs/guide.md that
#    names a file of the repository
#    (experiments/..., results/...) works from another working folder: each
#    runs in a fresh temporary folder (a sweep as --dry-run, which loads the
#    experiment and lists its points; a compare with the committed folder on
#    both sides; anything else as written, with -q);
#  - an output file under missing folders is written, its folders made
#    (--out, collective --pairs, the sweep's --out), and bad input with such
#    an --out leaves no folder behind;
#  - no document or source of the repository points outside it (../shared,
#    /work/...).
# Environment: COLLSIM (default ./collsim), COLLSIM_SRCDIR (default the
# repository above tests/): tests/lib/collsim-env.sh.  Exit status 0 all good,
# 1 otherwise (collsim missing too).
set -u
export LC_ALL=C
. "$(dirname "$0")/../lib/collsim-env.sh"
collsim=$(cd "$(dirname "$collsim")" && pwd)/$(basename "$collsim")
work=$(mktemp -d "${TMPDIR:-/tmp}/paths.XXXXXX")
trap 'rm -rf "$work"' EXIT
# the data folders are the installed one and the built-in source folder, not
# an environment variable
unset COLLSIM_SRCDIR
status=0 runs=0
fail() {
  printf 'paths: FAIL %s\n' "$*"
  status=1
}

# documented command lines naming a repository file, without comments and
# output redirections
readme_commands() {
  sed -n 's/^\(sbatch .*'"'"'\)\{0,1\}\(collsim [^'"'"'#>]*\(experiments\|results\)\/[^'"'"'#>]*\).*/\2/p' "$src/README.md" "$src/docs/commands.md" "$src/docs/guide.md" |
    sed 's/ *$//'
}

while IFS= read -r line; do
  read -ra words <<< "$line"
  words=("${words[@]:1}")
  if [ "${words[0]}" = sweep ]; then
    args=(sweep "${words[1]}" --dry-run) # the experiment, loaded and listed
  elif [ "${words[0]}" = compare ]; then
    # the committed side named as in the document, found from here; the other
    # side (a reproduction's folder) is the same committed one by full path
    args=(compare "${words[1]}" "$src/${words[1]}")
  else
    args=("${words[@]}" -q)
  fi
  dir=$(mktemp -d "$work/cwd.XXXXXX")
  runs=$((runs + 1))
  if ! (cd "$dir" && "$collsim" "${args[@]}" > "$dir/.stdout" 2> "$dir/.stderr"); then
    fail "from $dir: collsim ${args[*]}: $(head -c 300 "$dir/.stderr")"
  elif ! [ -s "$dir/.stdout" ]; then
    fail "from $dir: collsim ${args[*]} printed nothing"
  fi
done < <(readme_commands)
[ "$runs" -ge 5 ] || fail "only $runs documented commands with repository files found (the pattern is broken)"

# output files under missing folders
cd "$work" || exit 1
if ! "$collsim" platform --platform torus:2x2x2/1 --out new/a/p.xml || ! [ -s new/a/p.xml ]; then
  fail "platform --out new/a/p.xml"
fi
if ! "$collsim" collective --platform percs:2,2,2 --coll scatter --algo binomial --block 1KiB -q \
  --out new/b/c.csv --format csv --pairs new/c/pairs.csv || ! [ -s new/b/c.csv ] || ! [ -s new/c/pairs.csv ]; then
  fail "collective --out new/b/c.csv --pairs new/c/pairs.csv"
fi
printf 'name: t\ncommand: collective\nparameters: {platform: "percs:2,2,1", coll: scatter, algo: binomial, block: 1KiB}\n' \
  > t.yaml
if ! "$collsim" sweep t.yaml -q --out new/d/e/t.csv || [ "$(wc -l < new/d/e/t.csv)" -lt 2 ]; then
  fail "sweep --out new/d/e/t.csv"
fi
"$collsim" tree --algo no-such -n 16 --out gone/x/y.csv 2> /dev/null
rc=$?
[ $rc = 2 ] || fail "tree --algo no-such: exit $rc, expected 2"
[ ! -e gone ] || fail "bad input left the folder gone/ behind"
printf 'name: [unclosed\n' > bad.yaml
"$collsim" sweep bad.yaml --out gone2/x/y.csv 2> /dev/null
[ ! -e gone2 ] || fail "a bad experiment left the folder gone2/ behind"

# no document points outside the repository
outside=$(cd "$src" && grep -rIn -e '\.\./shared' -e '/work/shared' \
  README.md docs experiments results scripts sim platforms algorithms patterns bench tests 2> /dev/null |
  grep -v '^tests/cli/paths.sh:' | head -n 5)
[ -z "$outside" ] || fail "documents point outside the repository: $outside"

[ $status = 0 ] && echo "paths: $runs documented commands with repository files work from another folder; output folders made; nothing points outside"
exit $status
