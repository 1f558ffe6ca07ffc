#!/usr/bin/env python3
"""Issue 31, part 4: results/comm-split/tables.md from the CSVs that
experiments/comm-split.sh derives (time.csv, messages.csv, memory.csv,
winners.csv) and seed 000's results/seed000/table1.csv.  Every number in
the tables is read from those files; nothing is typed in but the paper's
Table 1 values, which are labelled as the paper's.

    experiments/comm-split-tables.py [RESULTS_DIR]   (default results/comm-split)

Tables: the fastest scheme at every point; each scheme's time and its
growth with n; SimGrid on the torus against the native engine at the
points both ran; seed 000's Table 1 with every scheme; the largest runs.
"""
import csv
import math
import os
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SRC, "results", "comm-split")

# Seed 000 (Langer, Venkataraman, Kale), Table 1: ms on 32,768 BG/P cores.
PAPER_TABLE1 = {1: (134.968, 0.708), 2: (106.573, 0.713), 4: (96.989, 0.760), 8: (93.536, 0.785)}


def rows(name):
    with open(os.path.join(OUT, name), newline="") as f:
        return list(csv.DictReader(f))


def index(table, value):
    """(engine, n, colors, key, scheme) -> value column, as float."""
    return {(r["engine"], int(r["n"]), int(r["colors"]), r["key"], r["scheme"]): float(r[value])
            for r in table if r[value] != ""}


def ms(seconds):
    """Milliseconds, three significant digits, never in exponent form."""
    v = seconds * 1e3
    return "%.0f" % v if v >= 100 else "%.3g" % v


def schemes_in(table):
    seen = []
    for r in table:
        if r["scheme"] not in seen:
            seen.append(r["scheme"])
    return seen


def fastest_table(winners, engine, key):
    points = [w for w in winners if w["engine"] == engine and w["key"] == key]
    ns = sorted({int(w["n"]) for w in points})
    cs = sorted({int(w["colors"]) for w in points})
    cell = {(int(w["n"]), int(w["colors"])): w["fastest"] for w in points}
    out = ["| n | " + " | ".join("c = %d" % c for c in cs) + " |", "|---" * (len(cs) + 1) + "|"]
    for n in ns:
        out.append("| %d | " % n + " | ".join(cell.get((n, c), "") for c in cs) + " |")
    return out


def time_table(time, engine, colors, key, schemes):
    ns = sorted({k[1] for k in time if k[0] == engine and k[2] == colors and k[3] == key})
    out = ["| scheme | " + " | ".join("n = %d" % n for n in ns) + " | growth exponent |",
           "|---" * (len(ns) + 2) + "|"]
    for s in schemes:
        got = [(n, time.get((engine, n, colors, key, s))) for n in ns]
        have = [(n, t) for n, t in got if t]
        if not have:
            continue
        slope = ""
        if len(have) >= 2:
            (n0, t0), (n1, t1) = have[0], have[-1]
            slope = "%.2f" % (math.log(t1 / t0) / math.log(n1 / n0))
        out.append("| %s | " % s + " | ".join(ms(t) if t else "" for _, t in got) + " | %s |" % slope)
    return out


def order(time, engine, n, colors, key, schemes):
    have = [(time[(engine, n, colors, key, s)], s) for s in schemes if (engine, n, colors, key, s) in time]
    return [s for _, s in sorted(have)]


def engines_table(time, n, colors, key, schemes):
    out = ["| scheme | SimGrid, torus (ms) | native, LogGOPS (ms) | SimGrid / native | rank on SimGrid | rank on native |",
           "|---|---|---|---|---|---|"]
    sg, nat = order(time, "simgrid", n, colors, key, schemes), order(time, "native", n, colors, key, schemes)
    for s in schemes:
        a, b = time.get(("simgrid", n, colors, key, s)), time.get(("native", n, colors, key, s))
        if a is None or b is None:
            continue
        out.append("| %s | %s | %s | %.2f | %d | %d |" % (s, ms(a), ms(b), a / b, sg.index(s) + 1, nat.index(s) + 1))
    return out


def table1(time, schemes):
    """One row per source and scheme, one column per colour count."""
    seed000 = {}
    path = os.path.join(SRC, "results", "seed000", "table1.csv")
    if os.path.exists(path):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                seed000[(r["algo"], int(r["colors"]))] = float(r["sim_time_s"])
    cs = sorted(PAPER_TABLE1)
    out = ["| ms at n = 32,768 | " + " | ".join("c = %d" % c for c in cs) + " |", "|---" * (len(cs) + 1) + "|",
           "| paper: vendor MPI_Comm_split | " + " | ".join("%.3f" % PAPER_TABLE1[c][0] for c in cs) + " |",
           "| paper: Rank-and-Hash | " + " | ".join("%.3f" % PAPER_TABLE1[c][1] for c in cs) + " |"]
    for algo in ("comm-split", "rank-hash-split"):
        out.append("| SimGrid, torus: %s (with bracket) | " % algo +
                   " | ".join(ms(seed000[(algo, c)]) if (algo, c) in seed000 else "" for c in cs) + " |")
    extra = os.path.join(OUT, "table1-simgrid.csv")  # experiments/comm-split-table1.yaml
    if os.path.exists(extra):
        with open(extra, newline="") as f:
            sg = {(r["scheme"], int(r["colors"])): float(r["sim_time_s"]) for r in csv.DictReader(f)}
        for s in schemes_in([{"scheme": k[0]} for k in sg]):
            out.append("| SimGrid, torus: %s (split alone) | " % s +
                       " | ".join(ms(sg[(s, c)]) if (s, c) in sg else "" for c in cs) + " |")
    for s in schemes:
        got = [time.get(("native", 32768, c, "rank", s)) for c in cs]
        if any(t is not None for t in got):
            out.append("| native: %s | " % s + " | ".join(ms(t) if t is not None else "" for t in got) + " |")
    return out


def largest_table(time, messages, memory, schemes):
    ns = sorted({k[1] for k in time if k[0] == "native" and k[2] == 8 and k[3] == "rank"})
    big = [n for n in ns if n >= 131072]
    out = ["| n | scheme | time (ms) | messages | peak memory per rank, max (bytes) |", "|---|---|---|---|---|"]
    for n in big:
        for s in schemes:
            k = ("native", n, 8, "rank", s)
            if k in time:
                out.append("| %d | %s | %s | %d | %d |" % (n, s, ms(time[k]), messages[k], memory[k]))
    return out


def main():
    time_rows = rows("time.csv")
    time = index(time_rows, "sim_time_s")
    messages = index(rows("messages.csv"), "messages")
    memory = index(rows("memory.csv"), "peak_mem_bytes_max")
    winners = rows("winners.csv")
    schemes = schemes_in(time_rows)
    lines = ["# MPI_Comm_split schemes: the tables",
             "",
             "Made by experiments/comm-split-tables.py from time.csv, messages.csv, memory.csv,",
             "winners.csv, table1-simgrid.csv and results/seed000/table1.csv (times in ms of",
             "simulated time).",
             "Native: the native engine (LogGOPS, default parameters, no links); SimGrid:",
             "SimGrid on the torus (LV08).",
             "",
             "## The fastest scheme at every point",
             "",
             "Native engine, sorted keys (key = rank):",
             ""]
    lines += fastest_table(winners, "native", "rank")
    lines += ["", "Native engine, random keys (the schemes that honour keys):", ""]
    lines += fastest_table(winners, "native", "random")
    lines += ["", "SimGrid on the torus, sorted keys:", ""]
    lines += fastest_table(winners, "simgrid", "rank")
    lines += ["", "SimGrid on the torus, random keys:", ""]
    lines += fastest_table(winners, "simgrid", "random")
    for c in (1, 8, 100):
        lines += ["", "## Time against n: c = %d, sorted keys, native engine" % c, "",
                  "Growth exponent: the slope of log time against log n between the smallest and the",
                  "largest n of the row.", ""]
        lines += time_table(time, "native", c, "rank", schemes)
    both = sorted({(k[1], k[2]) for k in time if k[0] == "simgrid" and k[3] == "rank" and (k[1], k[2]) in
                   {(m[1], m[2]) for m in time if m[0] == "native"}})
    for n, c in [p for p in both if p[1] in (1, 8)]:
        lines += ["", "## SimGrid on the torus against the native engine: n = %d, c = %d, sorted keys" % (n, c), ""]
        lines += engines_table(time, n, c, "rank", schemes)
    lines += ["", "## Seed 000's Table 1 (n = 32,768), every scheme beside it", "",
              "The paper's columns are its Table 1; the SimGrid columns are seed 000's two schemes",
              "on the torus with the bracketing broadcast and reduction, as the paper timed them",
              "(results/seed000/table1.csv); the native columns are every scheme's split alone.", ""]
    lines += table1(time, schemes)
    lines += ["", "## The largest runs: c = 8, sorted keys, native engine", ""]
    lines += largest_table(time, messages, memory, schemes)
    with open(os.path.join(OUT, "tables.md.tmp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(os.path.join(OUT, "tables.md.tmp"), os.path.join(OUT, "tables.md"))


if __name__ == "__main__":
    main()
