#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz/ (see tests/fuzz/README) with
# clang -fsanitize=fuzzer,address,undefined, straight from collsim's sources
# (no SimGrid: the parsers are pure functions of their text).
#
#   tests/fuzz/build.sh [BUILD_DIR]       default: tests/fuzz/build
#
# Environment: FUZZ_CC (default clang), FUZZ_JOBS (parallel compiles,
# default 2).  Without clang (or a clang without libFuzzer) it says so and
# exits 0 without building, so a machine without clang does not fail.
# Objects and dependencies are kept in BUILD_DIR/obj: running it again only
# recompiles what changed.  BUILD_DIR gets a .gitignore of its own.
#
# What each harness links (sources from the top of the tree):
#   fuzz_units          sim/contracts/units.c, errors.c
#   fuzz_rank_list      sim/contracts/rank_list.c, errors.c
#   fuzz_platform_spec  the platform families (Makefile.am's PLATFORMS), units.c,
#                       errors.c, natural_order.c, input_path.c, tempdir.c with signals.c
#                       and output_path.c
#                       (platform.c refers to it; never called)
#   fuzz_platform_xml   platforms/xml_validate.c, errors.c
#   fuzz_tree_script    sim/contracts/tree_script.c, schedule.c, cost.c (the
#                       schedules declare their cost models), sim/checks/
#                       tree_script_check.c and replay.c, and the collective
#                       schedules (Makefile.am's COLLECTIVES: the check runs a
#                       script through the "script" schedule of their registry)
#   fuzz_experiment     sim/sweep/experiment.c, the tree constructions
#                       (Makefile.am's SPANNING_TREES: experiment.c checks names
#                       against their registry) and sim/contracts/msg.c, which
#                       they call, and sim/drivers/run_config.c with
#                       sim/drivers/record.c (each point's config_key)
#   fuzz_csv            sim/contracts/csv.c, errors.c, sim/drivers/record.c (its CSV writer)
# The family lists come from Makefile.am, so a new platform or algorithm
# (one line there) needs no change here.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$top/tests/fuzz/build}
cc=${FUZZ_CC:-clang}
jobs=${FUZZ_JOBS:-2}

if ! command -v "$cc" >/dev/null 2>&1; then
  echo "tests/fuzz/build.sh: $cc not found: the fuzz harnesses are not built (install clang to build them)"
  exit 0
fi
for tool in make pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || { echo "tests/fuzz/build.sh: $tool not found" >&2; exit 1; }
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
printf '*\n' >"$out/.gitignore"

# Does this clang link libFuzzer programs at all?
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
cat >"$probe_dir/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }
EOF
if ! "$cc" -fsanitize=fuzzer,address,undefined "$probe_dir/probe.c" -o "$probe_dir/probe" >"$probe_dir/log" 2>&1; then
  echo "tests/fuzz/build.sh: $cc cannot build libFuzzer programs (-fsanitize=fuzzer): the fuzz harnesses are not built"
  sed 's/^/  /' "$probe_dir/log" | head -5
  exit 0
fi

# The .c files of a variable of Makefile.am (its continuation lines included).
am_sources() {
  awk -v var="$1" '
    $1 == var && $2 == "=" { on = 1; $1 = ""; $2 = "" }
    on { cont = sub(/\\[ \t]*$/, ""); for (i = 1; i <= NF; i++) if ($i ~ /\.c$/) print $i; if (!cont) on = 0 }
  ' "$top/Makefile.am"
}
platforms=$(am_sources PLATFORMS | tr '\n' ' ')
collectives=$(am_sources COLLECTIVES | tr '\n' ' ')
spanning_trees=$(am_sources SPANNING_TREES | tr '\n' ' ')
shapes=$(am_sources SHAPES | tr '\n' ' ')
for v in platforms collectives spanning_trees shapes; do
  [ -n "${!v}" ] || { echo "tests/fuzz/build.sh: no sources for $v in Makefile.am" >&2; exit 1; }
done

# Code that reads a user's file does so through sim/contracts/input_path.c.
reader="sim/contracts/input_path.c sim/contracts/errors.c"
declare -A deps=(
  [fuzz_units]="sim/contracts/units.c sim/contracts/errors.c"
  [fuzz_rank_list]="sim/contracts/rank_list.c $reader"
  [fuzz_platform_spec]="$platforms sim/contracts/units.c $reader sim/contracts/tempdir.c sim/contracts/signals.c sim/contracts/output_path.c sim/contracts/natural_order.c sim/contracts/hierarchy.c sim/contracts/netmap.c"
  [fuzz_tree_script]="sim/contracts/tree_script.c sim/contracts/schedule.c sim/contracts/cost.c sim/checks/tree_script_check.c sim/checks/replay.c $collectives $shapes $reader"
  [fuzz_platform_xml]="platforms/xml_validate.c platforms/xml_routes.c $(am_sources PLATFORMS | grep sg_cluster | tr '\n' ' ') sim/contracts/errors.c sim/contracts/natural_order.c sim/contracts/netmap.c sim/contracts/hierarchy.c sim/contracts/units.c"
  [fuzz_experiment]="sim/sweep/experiment.c sim/contracts/formula.c sim/drivers/run_config.c sim/drivers/record.c $spanning_trees $shapes sim/contracts/msg.c $reader"
  [fuzz_csv]="sim/contracts/csv.c sim/contracts/errors.c sim/drivers/record.c"
)
harnesses="fuzz_units fuzz_rank_list fuzz_platform_spec fuzz_platform_xml fuzz_tree_script fuzz_experiment fuzz_csv"

# A makefile for the build folder: one object per source, shared by the
# harnesses, recompiled when the source or a header it includes changes.
mk="$out/fuzz.mk"
mk_new="$out/fuzz.mk.new"
# shellcheck disable=SC2016 # $(...) and $@ below are make's, written as such
{
  echo "# Generated by tests/fuzz/build.sh; do not edit."
  echo "CC := $cc"
  echo "TOP := $top"
  echo "OUT := $out"
  echo "SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined"
  # -Wno-missing-field-initializers: clang (not GCC, the build's compiler)
  # warns on the column declaration tables (sim/drivers/record.h), whose
  # entries leave their last two members (rows, fields) to be NULL.
  echo "CFLAGS := -g -O1 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers -I\$(TOP) $(pkg-config --cflags glib-2.0 yaml-0.1)"
  echo "LIBS := $(pkg-config --libs glib-2.0 yaml-0.1 libmatheval) -lm"
  echo "all: $(for h in $harnesses; do printf '$(OUT)/%s ' "$h"; done)"
  echo "\$(OUT)/obj/%.o: \$(TOP)/%.c"
  printf '\t@mkdir -p $(@D)\n'
  printf '\t$(CC) $(CFLAGS) $(SAN) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@\n'
  for h in $harnesses; do
    objs="\$(OUT)/obj/tests/fuzz/$h.o"
    for s in ${deps[$h]}; do objs="$objs \$(OUT)/obj/${s%.c}.o"; done
    echo "\$(OUT)/$h: $objs"
    printf '\t$(CC) $(CFLAGS) $(SAN) -fsanitize=fuzzer $^ $(LIBS) -o $@\n'
  done
  echo "-include \$(shell find \$(OUT)/obj -name '*.d' 2>/dev/null)"
} >"$mk_new"
# Other flags or sources than last time: build everything again.
if ! cmp -s "$mk_new" "$mk"; then
  rm -rf "$out/obj"
  for h in $harnesses; do rm -f "$out/$h"; done
fi
mv "$mk_new" "$mk"

make --no-print-directory -f "$mk" -j"$jobs" all
echo "tests/fuzz/build.sh: built $harnesses in $out"
