#!/usr/bin/env bash
# seed003-maps: compact group maps (Kamal, Mirtaheri, Wagner): Tables 1-2, our cells beside the paper's
# Compared with: results/seed003/
# Duration: about 1 min on one core; --quick about 20 s (bench/out/reproduce-quick.txt)
#
# Every group map representation of the paper's Table 1-2 groups, measured by
# `collsim groupmap`; makes in DIR:
#   maps.csv, .cmd   collsim groupmap --paper-groups --no-times --format csv:
#                    sizes, paths, runs, failures and the strategies' picks of
#                    every representation of every paper group; no times, so
#                    byte-for-byte the same on every machine and run (~25 s)
#   times.csv, .cmd  the same with this machine's times (create, S-All, S-One;
#                    not compared with the committed file) (~25 s); its other
#                    columns must equal maps.csv's (a check that the run is
#                    deterministic: a difference fails the step)
#   comparison.md    scripts/compare-seed003.sh times.csv: every cell beside the
#                    paper's (experiments/seed003-paper.csv), the picks, and what
#                    Elias-Fano and Roaring add
# The committed results/seed003/README.md (how each row was read, why each
# cell differs) is written by hand.
# --quick makes maps.csv and comparison.md from it (no times).

# Run through `collsim reproduce seed003-maps` (or reproduce-seed003.sh), which
# sets the environment of scripts/lib-reproduce.sh.
# shellcheck source=lib-reproduce.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-reproduce.sh"
[ $# -eq 0 ] || die "takes no arguments (got '$*')"
[ -r "$src/experiments/seed003-paper.csv" ] || die "no $src/experiments/seed003-paper.csv (set COLLSIM_SRCDIR)"

# groupmap NAME ARGS...: collsim groupmap ARGS > OUT/NAME.csv, and NAME.cmd
groupmap() {
  local name=$1
  shift
  "$collsim" groupmap "$@" --quiet > "$out/.$name.csv"
  case $(head -n 1 "$out/.$name.csv") in
    group,world,m,ordered,*) ;;
    *) warn "collsim groupmap $*: unexpected CSV header: $(head -n 1 "$out/.$name.csv")"; exit 1 ;;
  esac
  write_cmd "$name" "" "collsim groupmap $* --quiet > $(rel "$out")/$name.csv"
  mv "$out/.$name.csv" "$out/$name.csv"
}

# times.csv with its time columns emptied: must be maps.csv.  The columns
# before "failed" hold no quoted commas, so fields split on commas.
without_times() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(create_ms|select_all_ms|select_one_us)$/) t[i] = 1 }
    NR > 1 { for (i in t) $i = "" } { print }' OFS=, "$1"
}

check_deterministic() {
  need maps.csv times.csv
  if ! without_times "$out/times.csv" | cmp -s - "$out/maps.csv"; then
    warn "times.csv and maps.csv differ in more than the times (a nondeterministic column?):"
    without_times "$out/times.csv" | diff "$out/maps.csv" - | head -n 10 >&2 || true
    exit 1
  fi
}

# comparison CSV: comparison.md from CSV (times.csv, or maps.csv: no times)
comparison() {
  need "$1"
  bash "$here/compare-seed003.sh" "$out/$1" "$src/experiments/seed003-paper.csv" > "$out/.comparison.md"
  mv "$out/.comparison.md" "$out/comparison.md"
}

step maps.csv 25 "collsim groupmap --paper-groups --no-times" groupmap maps --paper-groups --no-times --format csv
if is_quick; then
  step comparison.md 5 "scripts/compare-seed003.sh maps.csv" comparison maps.csv
else
  step times.csv 25 "collsim groupmap --paper-groups (timed)" groupmap times --paper-groups --format csv
  step - 1 "times.csv and maps.csv agree but for the times" check_deterministic
  step comparison.md 5 "scripts/compare-seed003.sh times.csv" comparison times.csv
fi
run_steps
