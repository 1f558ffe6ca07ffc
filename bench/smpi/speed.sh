#!/usr/bin/env bash
# collsim's CPU time against SimGrid SMPI's on the same collective (issue 28:
# "never slower than SMPI"): for each case, each platform family and each
# size, the same algorithm on the same platform file with the same network
# model (SMPI), cross-traffic off (collsim's default), 8-byte blocks, run by
#   collsim collective --platform SPEC --coll C --algo A ... \
#       --timed --model SMPI --semantics mpi --gamma 0 -q
#   smpirun -platform <collsim platform's XML> -hostfile <rank r on host r/cores> \
#       --cfg=smpi/<coll>:<SMPI's algorithm> coll C 8        (bench/smpi/coll.c)
# each under /usr/bin/time.  One line per case: the messages, both tools'
# CPU seconds (user + sys), CPU microseconds per message, peak RSS, the
# ratio collsim / SMPI of CPU time, and both simulated times (the last
# rank's; the agreement itself is results/smpi/'s business).
#
# Cases (collsim's algorithm : SMPI's):
#   scatter binomial : coll.c's scatter-mpich-p2p, MPICH's binomial scatter in
#                      MPI_Send/MPI_Recv (SMPI's ompi_binomial sends nearest
#                      child first: from 8,192 ranks on its messages of
#                      64 KiB and more make its time another one,
#                      results/smpi/README.md's "order")
#   bcast binomial   : binomial_tree (collsim's --algo script with an MPICH
#                      binomial tree written by this script: collsim has no
#                      built-in binomial bcast; its van de Geijn sends p^2
#                      messages)
#   gather binomial  : ompi_binomial
#   allgather ring   : NTSLR (MPICH's ring), allgather recursive-doubling : rdb
# Platforms: torus (torus:auto/4 resolved for the size: torus:4x8x8/4 ...
# torus:32x32x32/4) and PERCS (percs:N/256,16,16), sizes 1,024 to 131,072.
# A case of more than MAX_MESSAGES messages is skipped; once SMPI runs out
# of SMPI_TIMEOUT on a case and family, its larger sizes run collsim alone.
#
# SMPI runs with its cheapest settings that work at 131,072 ranks: globals
# not privatized (-no-privatize: coll.c has no global state), 16 KiB actor
# stacks without guard pages (collsim's; guard pages exhaust
# vm.max_map_count), no simulated computation, smpi/wtime:0.  collsim is
# the binary of $COLLSIM with its defaults (16 KiB stacks, no guard pages).
#
#   bench/smpi/speed.sh [FAMILIES]     FAMILIES: torus percs (default both)
#   Env: COLLSIM (default ./collsim), SIZES (default "1024 4096 16384 65536
#        131072"), CASES (default "scatter:binomial bcast:binomial
#        gather:binomial allgather:ring allgather:recursive-doubling"),
#        MAX_MESSAGES (default 50000000), SMPI_TIMEOUT (seconds, default 600)
# Without smpicc/smpirun the SMPI columns read "-" (collsim still runs).
# Output: bench/out/smpi-speed.txt is this script's output.
set -euo pipefail
export LC_ALL=C
COLLSIM=${COLLSIM:-./collsim}
SIZES=${SIZES:-1024 4096 16384 65536 131072}
CASES=${CASES:-scatter:binomial bcast:binomial gather:binomial allgather:ring allgather:recursive-doubling}
MAX_MESSAGES=${MAX_MESSAGES:-50000000}
SMPI_TIMEOUT=${SMPI_TIMEOUT:-600}
families=${*:-torus percs}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/platform.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

have_smpi=false
if command -v smpicc > /dev/null && command -v smpirun > /dev/null; then
  smpicc -O1 -o "$tmp/coll" "$here/coll.c" 2> "$tmp/smpicc.log" || { cat "$tmp/smpicc.log" >&2; exit 1; }
  have_smpi=true
else
  echo "speed.sh: smpicc/smpirun not found (Debian: apt-get install libsimgrid-dev): collsim alone" >&2
fi

smpi_algo() { # coll algo -> SMPI's algorithm (p2p:PROGRAM: coll.c's own version)
  case "$1/$2" in
    scatter/binomial) echo p2p:scatter-mpich-p2p ;;
    gather/binomial) echo ompi_binomial ;;
    bcast/binomial) echo binomial_tree ;;
    allgather/ring) echo NTSLR ;;
    allgather/recursive-doubling) echo rdb ;;
    *) echo "speed.sh: no SMPI algorithm for $1 $2" >&2; exit 2 ;;
  esac
}

spec_of() { # family ranks -> collsim's platform spec
  case "$1" in
    torus) "$COLLSIM" platform --platform torus:auto/4 -n "$2" --hierarchy --format csv --no-header | head -1 | cut -d, -f1 ;;
    percs) echo "percs:$(($2 / 256)),16,16" ;;
    *) echo "speed.sh: unknown family $1" >&2; exit 2 ;;
  esac
}

# MPICH's binomial broadcast from rank 0 (MPIR_Bcast_intra_binomial, SMPI's
# binomial_tree) as a collsim tree script: receive from the parent (rank
# minus its lowest set bit), then send to the children farthest first; the
# reduce part (required by the format, not run) is the mirror tree.
binomial_script() { # ranks file
  awk -v p="$1" '
    function bit(x, m) { return int(x / m) % 2 }
    function add(s, c) { return s == "" ? c : s ", " c }
    BEGIN {
      printf "name: binomial\nn: %d\nroot: 0\nreceive_order: scripted\n", p
      for (phase = 0; phase < 2; phase++) {
        print (phase ? "bcast:" : "reduce:")
        for (r = 0; r < p; r++) {
          parent = -1
          for (mask = 1; mask < p; mask *= 2)
            if (bit(r, mask)) { parent = r - mask; break }
          line = ""
          if (phase) {
            if (parent >= 0) line = "recv " parent
            for (m = int(mask / 2); m >= 1; m = int(m / 2)) if (r + m < p) line = add(line, "send " (r + m))
          } else {
            for (m = 1; m < mask; m *= 2) if (r + m < p) line = add(line, "recv " (r + m))
            if (parent >= 0) line = add(line, "send " parent)
          }
          printf "  %d: [%s]\n", r, line
        }
      }
    }' > "$2"
}

# collsim's arguments for the case (sets args).
collsim_args() { # spec coll algo ranks
  args=(collective --platform "$1" --coll "$2")
  if [ "$2/$3" = bcast/binomial ]; then
    binomial_script "$4" "$tmp/binomial-$4.yaml"
    args+=(--algo script --script "$tmp/binomial-$4.yaml" --bytes 8)
  else
    args+=(--algo "$3" --block 8)
  fi
}

json_field() { sed -n "s/.*\"$1\": *\([^,}]*\).*/\1/p"; }

# CPU seconds (user + sys) and peak RSS in MiB of a /usr/bin/time -f '%U %S %M' file.
cpu_of() { awk '{ printf "%.2f", $1 + $2 }' "$1"; }
rss_of() { awk '{ printf "%d", $3 / 1024 }' "$1"; }

row() { printf '%-19s %7s %-9s %-18s %11s %8s %8s %9s %9s %8s %8s %7s %12s %12s\n' "$@"; }

echo "# bench/smpi/speed.sh: collsim --timed --model SMPI --semantics mpi against SMPI 3.32, 8 B, cross-traffic off"
echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); load $(cut -d' ' -f1 /proc/loadavg) before"
echo "# cpu_s: user + sys (/usr/bin/time); us/msg: cpu_s / messages; rss: peak MiB; ratio: collsim cpu / SMPI cpu"
row platform ranks coll algo messages collsim smpi collsim smpi collsim smpi ratio collsim SMPI
row "" "" "" "" "" cpu_s cpu_s us/msg us/msg rss_MiB rss_MiB "" sim_s sim_s
start=$(date +%s)
for family in $families; do
  for case in $CASES; do
    coll=${case%%:*}
    algo=${case#*:}
    salgo=$(smpi_algo "$coll" "$algo")
    select=--cfg=smpi/"$coll":"$salgo" program=$coll
    if [ "${salgo#p2p:}" != "$salgo" ]; then
      select=--cfg=smpi/coll-selector:default program=${salgo#p2p:}
    fi
    smpi_gave_up=
    for n in $SIZES; do
      spec=$(spec_of "$family" "$n")
      collsim_args "$spec" "$coll" "$algo" "$n"
      msgs=$("$COLLSIM" "${args[@]}" -q --format json < /dev/null | json_field messages)
      if [ "$msgs" -gt "$MAX_MESSAGES" ]; then
        row "$spec" "$n" "$coll" "$algo" "$msgs" "skipped: more than MAX_MESSAGES=$MAX_MESSAGES messages"
        continue
      fi
      /usr/bin/time -f '%U %S %M' -o "$tmp/ctime" "$COLLSIM" "${args[@]}" --timed --model SMPI --semantics mpi \
        --gamma 0 -q --format json < /dev/null > "$tmp/cout"
      ccpu=$(cpu_of "$tmp/ctime")
      csim=$(json_field sim_time_s < "$tmp/cout")
      scpu=- srss=- ssim=- sus=- ratio=-
      if $have_smpi && [ -n "$smpi_gave_up" ]; then
        ssim="($smpi_gave_up)"
      elif $have_smpi; then
        smpi_platform "$spec" "$tmp"
        if timeout "$SMPI_TIMEOUT" /usr/bin/time -f '%U %S %M' -o "$tmp/stime" smpirun -no-privatize \
          -platform "$xml" -hostfile "$hosts" -np "$ranks" \
          "$select" --cfg=network/model:SMPI --cfg=network/crosstraffic:0 \
          --cfg=contexts/stack-size:16 --cfg=contexts/guard-size:0 \
          --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 --cfg=smpi/display-timing:no \
          --log=root.thres:critical "$tmp/coll" "$program" 8 < /dev/null > "$tmp/sout" 2> "$tmp/serr"; then
          scpu=$(cpu_of "$tmp/stime")
          srss=$(rss_of "$tmp/stime")
          ssim=$(awk '/^rank=/ { split($3, e, "="); if (n++ == 0 || e[2] + 0 > m) m = e[2] + 0 }
                      END { if (n) printf "%.9g\n", m }' "$tmp/sout")
          sus=$(awk -v c="$scpu" -v m="$msgs" 'BEGIN { printf "%.1f", c * 1e6 / m }')
          ratio=$(awk -v a="$ccpu" -v b="$scpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        else
          smpi_gave_up="SMPI: over ${SMPI_TIMEOUT}s at $n"
          tail -2 "$tmp/serr" >&2 || true
          scpu=">$SMPI_TIMEOUT" ssim="(over ${SMPI_TIMEOUT}s)"
        fi
      fi
      cus=$(awk -v c="$ccpu" -v m="$msgs" 'BEGIN { printf "%.1f", c * 1e6 / m }')
      row "$spec" "$n" "$coll" "$algo" "$msgs" "$ccpu" "$scpu" "$cus" "$sus" "$(rss_of "$tmp/ctime")" "$srss" "$ratio" \
        "$csim" "$ssim"
    done
  done
done
echo "# $(($(date +%s) - start)) s of wall time; load $(cut -d' ' -f1 /proc/loadavg) after"
