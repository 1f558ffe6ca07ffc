#!/usr/bin/env bash
# collsim against SimGrid's own MPI (SMPI) on the same platform file, the
# same algorithm and the same network model (issue 28).  For every case
# "PLATFORM COLL ALGO SIZE [PROGRAM]" (collsim's names; SIZE as collsim
# reads it: per rank for scatter/gather/allgather/reduce-scatter, the whole
# buffer for bcast/reduce/allreduce, per pair for alltoall, 0 for barrier;
# PROGRAM: one of coll.c's point-to-point versions, e.g. scatter-mpich-p2p,
# run instead of SMPI's collective, or smpi=ALGO: SMPI's algorithm ALGO
# instead of the one smpi_algo maps collsim's to) it runs
#   collsim collective --platform PLATFORM --coll COLL --algo ALGO ... \
#       --timed --model SMPI --semantics mpi --gamma 0
#   smpirun -platform <collsim platform's XML> -hostfile <rank r on host r/cores> \
#       --cfg=smpi/<coll>:<SMPI's algorithm> coll COLL SIZE   (bench/smpi/coll.c)
# and prints one CSV row per case: both simulated times (SMPI's: the last
# rank's MPI_Wtime after the collective), their ratio, and both wall times.
# SMPI runs without simulated computation (smpi/simulate-computation:no),
# without the 10 ns MPI_Wtime injects (smpi/wtime:0), and with its shared
# buffers mapped in one piece (smpi/shared-malloc-blocksize:1 GiB: 1 MiB
# pieces exceed vm.max_map_count at 256 ranks x 1 MiB).
#
#   bench/smpi/compare.sh [CASES]    CASES: a file of cases (default: stdin),
#                                    '#' starts a comment
#   Env: COLLSIM (binary, default ./collsim), SMPI_TIMEOUT (seconds per SMPI
#        run, default 600), KEEP (a folder to keep the platform files in),
#        CFG (SimGrid settings NAME:VALUE, space-separated, given to both
#        tools, e.g. CFG=network/optim:Full)
# Needs smpicc and smpirun (Debian: libsimgrid-dev, simgrid).  Exit 77 without them.
set -euo pipefail
COLLSIM=${COLLSIM:-./collsim}
SMPI_TIMEOUT=${SMPI_TIMEOUT:-600}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if ! command -v smpicc > /dev/null || ! command -v smpirun > /dev/null; then
  echo "compare.sh: smpicc/smpirun not found (Debian: apt-get install libsimgrid-dev)" >&2
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
smpicc -O1 -o "$tmp/coll" "$here/coll.c" 2> "$tmp/smpicc.log" || { cat "$tmp/smpicc.log" >&2; exit 1; }

# SMPI's name of collsim's algorithm (smpi/<coll>:<algo>), or "" if SMPI has none.
smpi_algo() { # coll algo
  case "$1/$2" in
    allgather/ring) echo NTSLR ;;              # MPICH's ring (SMPI's "ring" sends rank+i each step)
    allgather/recursive-doubling) echo rdb ;;
    scatter/binomial) echo ompi_binomial ;;
    gather/binomial) echo ompi_binomial ;;
    bcast/vandegeijn) echo scatter_LR_allgather ;;
    reduce-scatter/pairwise) echo mpich_pair ;;
    reduce/rabenseifner) echo scatter_gather ;; # MPICH's (SMPI's "rab" is Rabenseifner's own code)
    bcast/binomial) echo binomial_tree ;;      # MPICH's MPIR_Bcast_intra_binomial
    bcast/scatter-rdb) echo scatter_rdb_allgather ;;
    bcast/pipeline) echo ompi_pipeline ;;      # Open MPI's pipeline (one chain), see collsim_extra
    reduce/binomial) echo binomial ;;          # MPICH's MPIR_Reduce_intra_binomial
    allgather/bruck) echo bruck ;;
    scatter/linear) echo ompi_basic_linear ;;
    gather/linear) echo ompi_basic_linear ;;
    allreduce/recursive-doubling) echo rdb ;;  # MPICH's, fold included
    allreduce/rabenseifner) echo rab_rdb ;;    # MPICH's reduce_scatter_allgather (SMPI's "rab" is Rabenseifner's own)
    allreduce/ring) echo lr ;;                 # ring reduce-scatter + ring allgather, MPICH's order
    allreduce/reduce-bcast) echo redbcast ;;   # SMPI's reduce then bcast, pinned by smpi_extra
    alltoall/pairwise) echo ring ;;            # step i: to rank+i, from rank-i; on powers of two pair (below)
    alltoall/bruck) echo bruck ;;
    alltoall/linear) echo basic_linear ;;
    barrier/dissemination) echo ompi_bruck ;;  # to rank+2^k, from rank-2^k
    *) echo "" ;;
  esac
}

# collsim's options that make its algorithm SMPI's: ompi_pipeline cuts segments
# of 128 KiB unless p >= a*n + b for its three fitted lines (never for these
# cases: n <= 1 MiB, p >= 16), collsim cuts none unless told.
collsim_extra() { # coll algo
  case "$1/$2" in
    bcast/pipeline) echo --segment 131072 ;;
    *) echo "" ;;
  esac
}

# SMPI's settings besides smpi/<coll>:<algo> that make its algorithm
# collsim's: redbcast runs whatever reduce and bcast are selected; collsim's
# reduce-bcast is the rabenseifner reduce then the vandegeijn bcast.
smpi_extra() { # coll algo
  case "$1/$2" in
    allreduce/reduce-bcast) echo --cfg=smpi/reduce:scatter_gather --cfg=smpi/bcast:scatter_LR_allgather ;;
    *) echo "" ;;
  esac
}

smpi_coll_key() { # collsim's collective -> SMPI's setting name
  case "$1" in reduce-scatter) echo reduce_scatter ;; *) echo "$1" ;; esac
}

size_options() { # coll bytes -> collsim's size option and value (none for barrier)
  case "$1" in
    bcast | reduce | allreduce) echo --bytes "$2" ;;
    barrier) echo "" ;;
    *) echo --block "$2" ;;
  esac
}

bytes_of() { # SIZE (8, 64KiB, 1MiB) -> bytes
  local s=$1
  case "$s" in
    *KiB) echo $((${s%KiB} * 1024)) ;;
    *MiB) echo $((${s%MiB} * 1048576)) ;;
    *) echo "$s" ;;
  esac
}

# The platform's XML and hostfile (bench/smpi/platform.sh); KEEP keeps them.
. "$here/platform.sh"
prepare_platform() { # spec
  smpi_platform "$1" "$tmp"
  if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$xml" "$hosts" "$KEEP/"; fi
}

now() { date +%s.%N; }

echo "platform,coll,algo,smpi_algo,size_bytes,ranks,collsim_s,smpi_s,ratio,collsim_wall_s,smpi_wall_s"
grep -v '^\s*#' "${1:-/dev/stdin}" | while read -r platform coll algo size program; do
  [ -n "${platform:-}" ] || continue
  salgo=$(smpi_algo "$coll" "$algo")
  [ -n "$salgo" ] || { echo "compare.sh: SMPI has no $coll $algo" >&2; continue; }
  select=--cfg=smpi/"$(smpi_coll_key "$coll")":"$salgo"
  extra=$(smpi_extra "$coll" "$algo")
  explicit=
  if [ -n "${program:-}" ] && [ "${program#smpi=}" != "$program" ]; then # another SMPI algorithm
    explicit=1
    salgo=${program#smpi=}
    select=--cfg=smpi/"$(smpi_coll_key "$coll")":"$salgo"
    program=
  elif [ -n "${program:-}" ]; then # coll.c's own point-to-point version instead of SMPI's collective
    salgo="p2p:$program"
    select=--cfg=smpi/coll-selector:default
    extra=
  fi
  prepare_platform "$platform"
  # collsim's pairwise alltoall pairs rank XOR i on powers of two, as MPICH's and SMPI's pair do
  if [ "$coll/$algo/$salgo" = alltoall/pairwise/ring ] && [ "$select" = --cfg=smpi/alltoall:ring ] &&
    [ -z "${explicit:-}" ] && (((ranks & (ranks - 1)) == 0)); then
    salgo=pair
    select=--cfg=smpi/alltoall:pair
  fi
  bytes=$(bytes_of "$size")
  t0=$(now)
  both=() # CFG's settings, for each tool
  scfg=()
  for setting in ${CFG:-}; do
    both+=(--cfg "$setting")
    scfg+=("--cfg=$setting")
  done
  # shellcheck disable=SC2046 # size_options' and collsim_extra's words are separate options
  ctime=$("$COLLSIM" collective --platform "$platform" --coll "$coll" --algo "$algo" $(size_options "$coll" "$bytes") $(collsim_extra "$coll" "$algo") "${both[@]}" \
    --timed --model SMPI --semantics mpi --gamma 0 -q --format json < /dev/null |
    sed -n 's/.*"sim_time_s": *\([^,}]*\).*/\1/p' || true)
  [ -n "$ctime" ] || ctime=nan
  t1=$(now)
  # shellcheck disable=SC2086 # smpi_extra's words are separate options
  stime=$(timeout "$SMPI_TIMEOUT" smpirun -platform "$xml" -hostfile "$hosts" -np "$ranks" \
    "$select" $extra --cfg=network/model:SMPI --cfg=network/crosstraffic:0 \
    --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 --cfg=smpi/display-timing:no \
    --cfg=smpi/shared-malloc-blocksize:1073741824 "${scfg[@]}" \
    --log=root.thres:critical "$tmp/coll" "${program:-$coll}" "$bytes" < /dev/null 2> "$tmp/smpi.err" |
    awk '/^rank=/ { split($3, e, "="); if (n++ == 0 || e[2] + 0 > m) m = e[2] + 0 }
         END { if (n) printf "%.9e\n", m }' || true)
  t2=$(now)
  [ -n "$stime" ] || { echo "compare.sh: SMPI failed on $platform $coll $algo $size:" >&2; tail -3 "$tmp/smpi.err" >&2; stime=nan; }
  awk -v p="$platform" -v c="$coll" -v a="$algo" -v sa="$salgo" -v b="$bytes" -v n="$ranks" -v ct="$ctime" \
    -v st="$stime" -v w1="$(echo "$t1 - $t0" | bc)" -v w2="$(echo "$t2 - $t1" | bc)" \
    'BEGIN { r = (st == "nan" || st == 0) ? "nan" : sprintf("%.6f", ct / st);
             printf "\"%s\",%s,%s,%s,%s,%s,%.9e,%s,%s,%.2f,%.2f\n", p, c, a, sa, b, n, ct, st, r, w1, w2 }'
done
