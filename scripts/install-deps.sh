#!/usr/bin/env bash
# Installs the Debian packages collsim needs (build, tests, figures) when they
# are missing.  Debian 12 or later; run as root or with sudo available.
#
#   scripts/install-deps.sh           build, tests, figures, valgrind
#   scripts/install-deps.sh --fuzz    also clang and libFuzzer (tests/fuzz/)
#   scripts/install-deps.sh --bench   also what LogGOPSim builds with (g++, re2c,
#                                     gengetopt, libcgraph): bench/engines.sh and
#                                     bench/loggopsim-crossval.sh build it from
#                                     its sources for their comparisons
set -euo pipefail
# libsimgrid-dev also gives smpicc and smpirun (dpkg -S /usr/bin/smpirun), which
# bench/smpi/ and tests/cli/smpi_agreement.sh run.
# (simgrid is a virtual package that libsimgrid-dev provides: dpkg never
# lists it as installed, so naming it made every run apt-get update.)
# parallel, slurm-wlm and munge: tests/cli/sweep_parallel.sh and sweep_slurm.sh
# (the sweep's runners; the Slurm test starts its own daemons, see
# docs/sweeps-on-clusters.md).
# python3 (the standard library only): experiments/ writes its tables with
# it, and tests/repro/results-current.sh reruns engines/contention.csv's
# rows through it (it skipped them, saying so, where python3 was missing).
packages=(build-essential autoconf automake libtool pkg-config
          libsimgrid-dev libglib2.0-dev libyaml-dev check libjson-glib-dev gnuplot-nox
          libbdd-dev libbz2-dev libroaring-dev valgrind parallel slurm-wlm munge
          libmatheval-dev python3)
case ${1:-} in
  --fuzz) packages+=(clang libclang-rt-dev) ;;
  --bench) packages+=(g++ re2c gengetopt libgraphviz-dev) ;;
  '') ;;
  *) echo "install-deps: unknown option '$1' (known: --fuzz, --bench)" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
