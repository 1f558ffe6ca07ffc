#!/usr/bin/env bash
# User SimGrid platform files that made SimGrid abort (issue 25: exit 134
# and a backtrace) are refused before SimGrid sees them: hosts without a
# route between them, a negative latency, a zero bandwidth, a speed of
# "nan", an unknown unit, malformed XML.  Each bad file, given to tree,
# collective --timed and comm create-group, must exit 2 with exactly one
# line on stderr naming the file and the element, and no output; the same
# file with the fault mended must run (exit 0), so the refusals are not
# of the commands.  platforms/xml_validate.c does the checking;
# tests/unit/xml_validate.c tests it line by line.  Then files as SimGrid's
# own examples write them (a FAT_TREE and a TORUS cluster, hosts named
# node-N.simgrid.org and c-N.me) run collective --links --timed --per-link
# --trace and tree, with every link's tier derived from the cluster.
#
#   COLLSIM=./collsim tests/cli/platform-xml.sh    (make check sets COLLSIM)
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/platform-xml.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# platform NAME HOST0 LINK ROUTES: four hosts node-0 .. node-3 in a Full zone.
platform() {
  cat > "$work/$1.xml" << XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    $2
    <host id="node-1" speed="1Gf"/><host id="node-2" speed="1Gf"/><host id="node-3" speed="1Gf"/>
    $3
    $4
  </zone>
</platform>
XML
}
host0='<host id="node-0" speed="1Gf"/>'
link='<link id="l" bandwidth="1GBps" latency="1us"/>'
routes=''
for pair in "0 1" "0 2" "0 3" "1 2" "1 3" "2 3"; do
  set -- $pair
  routes="$routes<route src=\"node-$1\" dst=\"node-$2\"><link_ctn id=\"l\"/></route>"
done

platform good "$host0" "$link" "$routes"
platform no-routes "$host0" "$link" ""
platform neg-latency "$host0" '<link id="l" bandwidth="1GBps" latency="-1us"/>' "$routes"
platform zero-bandwidth "$host0" '<link id="l" bandwidth="0Bps" latency="1us"/>' "$routes"
platform nan-speed '<host id="node-0" speed="nan"/>' "$link" "$routes"
platform unknown-unit '<host id="node-0" speed="1Kf"/>' "$link" "$routes"
platform malformed "$host0" "$link" "$routes<host"
# name: what the one line must say besides the file's name
declare -A says=(
  [no-routes]='<host id="node-0">: no route to <host id="node-1">'
  [neg-latency]='<link id="l">: latency="-1us" is negative'
  [zero-bandwidth]='<link id="l">: bandwidth="0Bps" must be positive'
  [nan-speed]='<host id="node-0">: speed="nan" is not a finite number'
  [unknown-unit]="<host id=\"node-0\">: speed=\"1Kf\": unknown unit 'Kf'"
  [malformed]='malformed XML'
)

runs=(
  "tree --algo rank-hash -n 4 -f 1"
  "collective -c bcast -a vandegeijn --bytes 1KiB --timed"
  "comm create-group --group-size 2"
)
for run in "${runs[@]}"; do
  # shellcheck disable=SC2086 # $run is words
  if ! "$collsim" $run --platform "$work/good.xml" --cores 1 -q > "$work/out" 2> "$work/err"; then
    fail "collsim $run on the good platform: exit $? ($(head -1 "$work/err"))"
  fi
  for name in "${!says[@]}"; do
    file=$work/$name.xml
    # shellcheck disable=SC2086
    "$collsim" $run --platform "$file" --cores 1 -q > "$work/out" 2> "$work/err"
    rc=$?
    lines=$(wc -l < "$work/err")
    what="collsim $run --platform $name.xml"
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, not 2 ($(head -1 "$work/err"))"
    [ "$lines" -eq 1 ] || fail "$what: $lines lines on stderr, not 1"
    [ ! -s "$work/out" ] || fail "$what: wrote output"
    grep -qF "$file: ${says[$name]}" "$work/err" || fail "$what: '$(head -1 "$work/err")' does not say '$file: ${says[$name]}'"
  done
done

# Only the hosts the run uses need routes: node-0 and node-1 joined, the
# others not; 2 ranks on 1 core a host run, 3 are refused.
platform two-joined "$host0" "$link" '<route src="node-0" dst="node-1"><link_ctn id="l"/></route>'
"$collsim" tree --algo rank-hash -n 2 -f 1 --platform "$work/two-joined.xml" --cores 1 -q > /dev/null 2> "$work/err" ||
  fail "tree -n 2 on two joined hosts: $(head -1 "$work/err")"
"$collsim" tree --algo rank-hash -n 3 -f 1 --platform "$work/two-joined.xml" --cores 1 -q > /dev/null 2> "$work/err"
rc=$?
[ "$rc" -eq 2 ] && grep -qF 'no route to <host id="node-2">' "$work/err" ||
  fail "tree -n 3 on two joined hosts: exit $rc, '$(head -1 "$work/err")'"

# Bring your own machine (issue 27): cluster files as SimGrid's own
# examples write them, hosts named freely.  Every output works, timed
# per-link bytes equal untimed (collective checks it itself), and every
# link has a tier derived from the cluster (S1, S2 on the fat tree; X, Y on
# the torus; intra the loopbacks), none "?".
cat > "$work/fat-tree.xml" << XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="bob_cluster" prefix="node-" radical="0-15" suffix=".simgrid.org" speed="1Gf" bw="125MBps" lat="50us"
             topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2" loopback_bw="100MBps" loopback_lat="0"/>
  </zone>
</platform>
XML
cat > "$work/torus.xml" << XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="t" prefix="c-" radical="0-11" suffix=".me" speed="1Gf" bw="1GBps" lat="1us"
           topology="TORUS" topo_parameters="3,2,2" loopback_bw="10GBps" loopback_lat="0"/>
</platform>
XML
for name in fat-tree torus; do
  file=$work/$name.xml
  rm -f "$work/links.csv" "$work/trace.csv"
  "$collsim" collective -c allgather -a ring --block 1KiB --links --timed --per-link "$work/links.csv" \
    --trace "$work/trace.csv" --platform "$file" --cores 2 -q > "$work/out" 2> "$work/err" ||
    fail "collective --links --timed on $name.xml: $(head -1 "$work/err")"
  [ -s "$work/trace.csv" ] || fail "$name.xml: no trace"
  tiers=$(tail -n +2 "$work/links.csv" | cut -d, -f3 | sort -u | tr '\n' ' ')
  case $name in
    fat-tree) want="S1 S2 intra " ;;
    torus) want="X Y Z intra " ;;
  esac
  [ "$tiers" = "$want" ] || fail "$name.xml: per-link tiers '$tiers', not '$want'"
  "$collsim" tree --algo rank-hash -n 8 -f 1 --platform "$file" --cores 2 -q > /dev/null 2> "$work/err" ||
    fail "tree on $name.xml: $(head -1 "$work/err")"
done
# more ranks than the file's hosts hold: refused naming the hosts and cores
"$collsim" tree --algo rank-hash -n 65 -f 1 --platform "$work/fat-tree.xml" --cores 4 -q > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l < "$work/err")" -eq 1 ] && grep -q "has 16 nodes x 4 cores = 64" "$work/err" ||
  fail "tree -n 65 on 16 hosts of 4 cores: exit $rc, '$(head -1 "$work/err")'"

if [ "$failures" -gt 0 ]; then
  echo "platform-xml.sh: $failures failure(s)" >&2
  exit 1
fi
echo "platform-xml.sh: ok"
