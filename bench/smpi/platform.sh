# Sourced by bench/smpi/compare.sh and bench/smpi/speed.sh: the platform
# files SMPI runs on.
#
#   smpi_platform SPEC DIR   writes DIR/<SPEC as a name>.xml (collsim
#       platform --platform SPEC) and DIR/<...>.hosts, a hostfile listing
#       each host once per core in natural order (node-0 x cores, node-1,
#       ...): rank r on host r / cores, collsim's mapping.  Sets xml, hosts
#       and ranks; does nothing but set them when the files are there.
#       Needs $COLLSIM.  No "grep | head" (under pipefail, grep killed by
#       SIGPIPE on a large file fails the caller).
smpi_platform() { # spec dir
  local key
  key=$(echo "$1" | tr -c 'A-Za-z0-9\n' '_')
  xml=$2/$key.xml
  hosts=$2/$key.hosts
  if [ ! -f "$xml" ]; then
    "$COLLSIM" platform --platform "$1" --out "$xml"
    local nhosts cores
    if grep -q '<cluster ' "$xml"; then
      local radical
      radical=$(grep -m1 -o 'radical="[0-9]*-[0-9]*"' "$xml" | sed -n 1p | sed 's/.*-\([0-9]*\)"/\1/')
      nhosts=$((radical + 1))
      cores=$(grep -m1 -o ' core="[0-9]*"' "$xml" | sed -n 1p | tr -dc 0-9)
    else
      nhosts=$(grep -c '<host ' "$xml")
      cores=$(grep -m1 -o '<host [^>]* core="[0-9]*"' "$xml" | sed -n 1p | sed 's/.*core="\([0-9]*\)"/\1/')
    fi
    awk -v n="$nhosts" -v c="$cores" 'BEGIN { for (h = 0; h < n; h++) for (k = 0; k < c; k++) print "node-" h }' > "$hosts"
  fi
  ranks=$(wc -l < "$hosts")
}
