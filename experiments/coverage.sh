#!/usr/bin/env bash
# Coverage of collsim's collective registry (issue 30, part 3): every
# (collective, algorithm) of `collsim collective --list` except `script`, on
# three machines of 16,384 ranks (1,024 nodes x 16 cores each), at 8 B, 64 KiB
# and 16 MiB: untimed link usage (--links), which algorithm MPICH's and Open
# MPI's selectors pick there, and the simulated time on the native LogGOPS
# engine where the schedule has fewer than 5 million messages.
#
# Usage: experiments/coverage.sh [OUTDIR]   (default results/coverage)
# Reads $COLLSIM (default ./collsim); needs python3 (exact integers: byte
# counts pass 2^53) and gnuplot.  Writes OUTDIR/coverage.csv, OUTDIR/selectors.txt
# (each selector's decision or refusal), OUTDIR/skipped.txt (points not run)
# and one OUTDIR/<collective>.png per collective; progress on stderr.  No
# wall-clock time enters the outputs, so a rerun writes the same bytes.
#
# COVERAGE_COLLS="alltoall ..." reruns only those collectives and merges them
# into OUTDIR's existing coverage.csv and skipped.txt (the other collectives'
# lines kept byte for byte, every line where a full run puts it), redraws
# only their PNGs; selectors.txt is always rewritten whole.
set -euo pipefail

COLLSIM=${COLLSIM:-./collsim}
OUT=${1:-results/coverage}
UNTIMED_LIMIT_S=60          # an untimed point slower than this is skipped
TIMED_MAX_MESSAGES=5000000  # timed only below this many messages
TIMED_LIMIT_S=300           # a timed point slower than this stops the script
PLATFORMS=("percs:64,16,16" "dragonfly:32,8,4,4,16" "fattree:32,2/16")
SIZES=(8 65536 16777216)
SELECTORS=(mpich ompi)

mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/untimed" "$tmp/timed" "$tmp/picks"

size_args() {   # the options giving size $2 to collective $1 (barrier: none)
  case $1 in
    scatter|gather|allgather|reduce-scatter|alltoall) echo "--block $2" ;;
    bcast|reduce|allreduce) echo "--bytes $2" ;;
  esac
}

sizes_of() {    # the sizes collective $1 runs at (barrier: 0, no size)
  if [[ $1 == barrier ]]; then echo 0; else echo "${SIZES[@]}"; fi
}

# (collective, algorithm) pairs in --list order, without script.
"$COLLSIM" collective --list |
  awk '$1 ~ /^(scatter|gather|bcast|allgather|reduce-scatter|reduce|allreduce|alltoall|barrier)$/ && $2 != "script" { print $1, $2 }' \
  > "$tmp/algos"
colls=$(awk '!seen[$1]++ { print $1 }' "$tmp/algos")
all_colls=$colls
cp "$tmp/algos" "$tmp/algos.all"
if [[ -n ${COVERAGE_COLLS:-} ]]; then
  for c in $COVERAGE_COLLS; do
    grep -qx "$c" <<< "$colls" || { echo "coverage.sh: COVERAGE_COLLS: no collective $c" >&2; exit 2; }
  done
  awk -v want=" $COVERAGE_COLLS " 'index(want, " " $1 " ")' "$tmp/algos.all" > "$tmp/algos"
  colls=$COVERAGE_COLLS
  [[ -f $OUT/coverage.csv && -f $OUT/skipped.txt ]] || { echo "coverage.sh: COVERAGE_COLLS needs $OUT's coverage.csv and skipped.txt" >&2; exit 2; }
fi

# The selectors' choices depend on p and size only (the three machines have
# the same p); asked on the first machine.  A refusal is recorded, not picked.
: > "$OUT/selectors.txt.new"
for coll in $all_colls; do
  for size in $(sizes_of "$coll"); do
    for sel in "${SELECTORS[@]}"; do
      # shellcheck disable=SC2046
      if "$COLLSIM" collective --platform "${PLATFORMS[0]}" --coll "$coll" --algo auto --selector "$sel" \
           $(size_args "$coll" "$size") --format json -q > "$tmp/picks/$coll.$size.$sel.json" 2> "$tmp/sel.err"; then
        line=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["algo"] + ": " + d["selected_by"])' \
                 "$tmp/picks/$coll.$size.$sel.json")
      else
        rm -f "$tmp/picks/$coll.$size.$sel.json"
        line="refused: $(tr '\n' ' ' < "$tmp/sel.err")"
      fi
      echo "$sel $coll $size -> $line" | tee -a "$OUT/selectors.txt.new" >&2
    done
  done
done
mv "$OUT/selectors.txt.new" "$OUT/selectors.txt"

: > "$tmp/skipped.txt"
total=0
while read -r coll algo; do total=$((total + ${#PLATFORMS[@]} * $(sizes_of "$coll" | wc -w))); done < "$tmp/algos"
n=0
for i in "${!PLATFORMS[@]}"; do
  net=${PLATFORMS[$i]}
  while read -r coll algo; do
    for size in $(sizes_of "$coll"); do
      n=$((n + 1))
      echo "[$n/$total] $net $coll $algo $size" >&2
      f="$i.$coll.$algo.$size.json"
      status=0
      # shellcheck disable=SC2046
      timeout "$UNTIMED_LIMIT_S" nice "$COLLSIM" collective --platform "$net" --coll "$coll" --algo "$algo" \
        $(size_args "$coll" "$size") --links --format json -q > "$tmp/untimed/$f" 2> "$tmp/err" || status=$?
      if (( status != 0 )); then
        rm -f "$tmp/untimed/$f"
        if (( status == 124 )); then why="took longer than ${UNTIMED_LIMIT_S}s"; else why="refused: $(tr '\n' ' ' < "$tmp/err")"; fi
        echo "untimed $net $coll $algo $size: $why" | tee -a "$tmp/skipped.txt" >&2
        continue
      fi
      # The native LogGOPS engine ignores the platform's links: one timed run per point.
      t="$coll.$algo.$size.json"
      [[ -e $tmp/timed/$t || -e $tmp/timed/$t.none ]] && continue
      messages=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["messages"])' "$tmp/untimed/$f")
      if (( messages >= TIMED_MAX_MESSAGES )); then
        touch "$tmp/timed/$t.none"
        echo "timed $coll $algo $size: not run, $messages messages >= $TIMED_MAX_MESSAGES" >> "$tmp/skipped.txt"
        continue
      fi
      # shellcheck disable=SC2046
      if ! timeout "$TIMED_LIMIT_S" nice "$COLLSIM" collective --platform "$net" --coll "$coll" --algo "$algo" \
             $(size_args "$coll" "$size") --timed --engine native --model loggops --format json -q \
             > "$tmp/timed/$t" 2> "$tmp/err"; then
        echo "timed $coll $algo $size failed or took longer than ${TIMED_LIMIT_S}s: $(cat "$tmp/err")" >&2
        exit 1
      fi
    done
  done < "$tmp/algos"
done

# Assemble the CSV (one row per machine, algorithm and size), skipped.txt and the plot data.
python3 - "$tmp" "$OUT" "${COVERAGE_COLLS:-}" "${PLATFORMS[@]}" <<'EOF'
import csv, json, os, sys
tmp, out, only, platforms = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
tiers = ["intra", "L1", "L2", "T", "S1", "S2"]   # every tier of the three machines
algos = [line.split() for line in open(os.path.join(tmp, "algos.all"))]
sizes = lambda coll: [0] if coll == "barrier" else [8, 65536, 16777216]
rerun = lambda coll: not only or coll in only

# The rows and skipped lines of the collectives not rerun, from OUTDIR's files.
old_rows, old_skipped = {}, []
if only:
    with open(os.path.join(out, "coverage.csv"), newline="") as fh:
        for row in csv.reader(fh):
            old_rows[(row[0], row[1], row[2], row[4])] = row
    old_skipped = [l for l in open(os.path.join(out, "skipped.txt"))
                   if not rerun(l.split()[2] if l.startswith("untimed") else l.split()[1])]

# skipped.txt in the loop's order: (machine, algorithm, size); a timed line
# is written on the first machine that ran the point untimed.
def point(line):   # "untimed NET COLL ALGO SIZE: ..." or "timed COLL ALGO SIZE: ..."
    w = line.split()
    coll, algo, size = w[2:5] if w[0] == "untimed" else w[1:4]
    return (w[1] if w[0] == "untimed" else None, coll, algo, int(size.rstrip(":")))
def ordered(lines):
    refused = {point(l) for l in lines if l.startswith("untimed")}
    def key(line):
        net, coll, algo, size = point(line)
        i = platforms.index(net) if net else \
            min(k for k, n in enumerate(platforms) if (n, coll, algo, size) not in refused)
        return (i, algos.index([coll, algo]), sizes(coll).index(size))
    return sorted(lines, key=key)
new_skipped = list(open(os.path.join(tmp, "skipped.txt")))
with open(os.path.join(out, "skipped.txt.new"), "w") as fh:
    fh.writelines(ordered(old_skipped + new_skipped) if only else new_skipped)
os.replace(os.path.join(out, "skipped.txt.new"), os.path.join(out, "skipped.txt"))

def load(path):
    return json.load(open(path)) if os.path.exists(path) else None

def picked_by(coll, algo, size):
    return ";".join(sel for sel in ("mpich", "ompi")
                    if (d := load(f"{tmp}/picks/{coll}.{size}.{sel}.json")) and d["algo"] == algo)

header = ["net", "coll", "algo", "p", "size", "size_is", "messages", "bytes", "network_bytes",
          "byte_hops", "node_pairs", "max_link_bytes"] + [f"max_bytes_{t}" for t in tiers] + \
         ["picked_by", "sim_time_s"]
plot = {}
with open(os.path.join(out, "coverage.csv.new"), "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(header)
    for i, net in enumerate(platforms):
        for coll, algo in algos:
            for size in sizes(coll):
                if not rerun(coll):
                    if (row := old_rows.get((net, coll, algo, str(size)))):
                        w.writerow(row)
                    continue
                d = load(f"{tmp}/untimed/{i}.{coll}.{algo}.{size}.json")
                if d is None:
                    continue
                timed = load(f"{tmp}/timed/{coll}.{algo}.{size}.json")
                network = [v["max_bytes"] for k, v in d["tiers"].items() if k != "intra"]
                max_link = max(network) if network else ""
                w.writerow([d["net"], coll, algo, d["p"], d["size"], d["size_is"], d["messages"], d["bytes"],
                            d["network_bytes"], d["byte_hops"], d["node_pairs"], max_link] +
                           [d["tiers"][t]["max_bytes"] if t in d["tiers"] else "" for t in tiers] +
                           [picked_by(coll, algo, size), timed["sim_time_s"] if timed else ""])
                want = 0 if coll == "barrier" else 65536
                if size == want:
                    value = d["messages"] if coll == "barrier" else max_link
                    plot.setdefault(coll, {}).setdefault(algo, {})[i] = value
os.replace(os.path.join(out, "coverage.csv.new"), os.path.join(out, "coverage.csv"))
for coll, rows in plot.items():
    with open(f"{tmp}/{coll}.dat", "w") as fh:
        for algo, vals in rows.items():
            fh.write(algo + " " + " ".join(str(vals[i]) if vals.get(i) else "NaN"
                                           for i in range(len(platforms))) + "\n")
EOF
echo "wrote $OUT/coverage.csv ($(($(wc -l < "$OUT/coverage.csv") - 1)) rows), $OUT/skipped.txt, $OUT/selectors.txt" >&2

# One PNG per collective: the most bytes on one inter-node link per algorithm
# and machine at 64 KiB, log scale (barrier: its messages, it sends 0 bytes).
for coll in $colls; do
  title="$coll at 64 KiB, 16,384 ranks: most bytes on one inter-node link"
  ylabel="max link bytes (log scale)"
  if [[ $coll == barrier ]]; then title="barrier, 16,384 ranks: messages (0 bytes each)"; ylabel="messages (log scale)"; fi
  gnuplot <<EOF
set terminal pngcairo size 960,540 font ",10"
set output "$OUT/$coll.png"
set title "$title"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel "$ylabel"
set key outside top center horizontal
set xtics rotate by -20 nomirror
set grid ytics
plot "$tmp/$coll.dat" using 2:xtic(1) title "${PLATFORMS[0]}", '' using 3 title "${PLATFORMS[1]}", '' using 4 title "${PLATFORMS[2]}"
EOF
  echo "wrote $OUT/$coll.png" >&2
done
