#!/usr/bin/env bash
# Includes go one way: every #include "FOLDER/FILE" in the source (sim/,
# algorithms/, platforms/, patterns/) must name a folder on the same or a
# lower line of scripts/layers.txt than the including file's own, and never
# another folder of the same line.  Every source folder must be listed.
# Prints each offending include as FILE:LINE: and exits 1; exit 0 when all
# go one way.  Usage: scripts/check-layers.sh [SOURCE_ROOT]
set -euo pipefail
export LC_ALL=C
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
layers="$root/scripts/layers.txt"
[ -r "$layers" ] || { echo "check-layers: cannot read $layers" >&2; exit 2; }
cd "$root"
find sim algorithms platforms patterns -name '*.[ch]' -print | sort |
  awk -v layers="$layers" '
    BEGIN {
      n = 0
      while ((getline line < layers) > 0) {
        if (line ~ /^#/ || line ~ /^[ \t]*$/) continue
        n++
        k = split(line, f, /[ \t]+/)
        for (i = 1; i <= k; i++) if (f[i] != "") level[f[i]] = n
      }
      bad = 0
    }
    function dir(p) { sub(/\/[^\/]*$/, "", p); return p }
    {
      file = $0; from = dir(file)
      if (!(from in level)) { printf "%s: folder %s is not in scripts/layers.txt\n", file, from; bad = 1; next }
      ln = 0
      while ((getline line < file) > 0) {
        ln++
        if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
        inc = line; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
        if (inc !~ /\//) continue
        to = dir(inc)
        if (!(to in level)) continue  # generated or build-tree headers (collsim-git.h), tests/
        if (to == from) continue
        if (level[to] > level[from]) {
          printf "%s:%d: includes %s, a layer above %s (scripts/layers.txt)\n", file, ln, inc, from; bad = 1
        } else if (level[to] == level[from]) {
          printf "%s:%d: includes %s, a folder of the same layer as %s (scripts/layers.txt)\n", file, ln, inc, from; bad = 1
        }
      }
      close(file)
    }
    END { exit bad }'
