#!/usr/bin/env bash
# Includes go one way (scripts/layers.txt): fails naming every include of a
# folder above, or beside, the including file's own.  Under a second.
set -euo pipefail
src=${COLLSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
exec bash "$src/scripts/check-layers.sh" "$src"
