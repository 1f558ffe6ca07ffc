#!/usr/bin/env bash
# Prints (stdout, markdown) seed 003's Tables 1 and 2 (Kamal, Mirtaheri,
# Wagner, "Scalability of Communicators and Groups in MPI", Section 6) with
# our cells beside the paper's.
#
#   scripts/compare-seed003.sh OURS_CSV [PAPER_CSV]
#
# OURS_CSV   the output of `collsim groupmap --paper-groups --format csv`
#            (with or without --no-times; without times the time columns
#            print "-"; a subset of the groups is fine)
# PAPER_CSV  the paper's cells typed in by hand (default:
#            experiments/seed003-paper.csv beside this script's folder)
#
# For every group of OURS_CSV (t1gN -> Table 1 group N, t2gN -> Table 2
# group N; the two readings of Table 1 group 2 and of Table 2 group 3 each
# get their own table against the same paper row) a table with one row per
# representation: ours KiB | paper KB | ours bpg | paper bpg | S-All ms ours,
# paper, ratio ours/paper | S-One us ours, paper, ratio | what our size is
# made of.  Our representations the paper lacks (ef, roaring, wtr+ef, ...)
# have empty paper cells; the paper's BMp (BM timed with the popcnt
# instruction) and WTR+BMp rows are set beside our bm / wtr+bm times (one
# bitmap code, whose popcount is whatever the compiler emits); a creation
# that failed shows "failed: <reason>".  Then each group's picks (ours S, T,
# ST beside the paper's S, T1, T2, ST labels), and "Beyond the paper": per
# group, whether ef or roaring (wtr+ef, wtr+roaring for unordered groups)
# beats every paper representation in space or in S-One time.  The unit of
# the paper's KB is decided from its ARRAY cells (printed at the top).
#
# Every number of ours comes from OURS_CSV, every number of the paper from
# PAPER_CSV; columns are found by name in the headers.  bash + awk (mawk or
# gawk), LC_ALL=C; deterministic (no dates).
# Exit status: 0 printed; 2 bad arguments or unreadable CSV.
set -euo pipefail
export LC_ALL=C

die() { printf 'compare-seed003: %s\n' "$*" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ]; then die "usage: scripts/compare-seed003.sh OURS_CSV [PAPER_CSV]"; fi
ours=$1
paper=${2:-$here/../experiments/seed003-paper.csv}
if ! [ -r "$ours" ] || ! [ -s "$ours" ]; then die "cannot read $ours"; fi
if ! [ -r "$paper" ] || ! [ -s "$paper" ]; then die "cannot read $paper"; fi
case $(head -n 1 "$ours") in group,*rep,*bits,*kib,*bpg,*select_one_us,*failed,*) ;;
  *) die "$ours: not a collsim groupmap CSV (header: $(head -n 1 "$ours"))" ;;
esac
grep -q '^table,group,paper_size,rep,total_kb,bpg,select_all_ms,select_one_us,annotations' "$paper" ||
  die "$paper: no header line table,group,paper_size,rep,total_kb,bpg,select_all_ms,select_one_us,annotations"

awk -v ours_name="$(basename "$ours")" -v paper_name="$(basename "$paper")" '
# ---------------------------------------------------------------- helpers
# Splits a CSV line into f[1..n] (double-quoted fields may hold commas and
# doubled quotes); returns n.
function csvsplit(line, f,    n, i, c, field, inq, len) {
  n = 0; field = ""; inq = 0; len = length(line)
  for (i = 1; i <= len; i++) {
    c = substr(line, i, 1)
    if (inq) {
      if (c == "\"") {
        if (substr(line, i + 1, 1) == "\"") { field = field "\""; i++ } else inq = 0
      } else field = field c
    } else if (c == "\"") inq = 1
    else if (c == ",") { f[++n] = field; field = "" }
    else field = field c
  }
  f[++n] = field
  return n
}
function dash(s) { return s == "" ? "-" : s }
function ratio(a, b,    r) {
  if (a == "" || b == "" || b + 0 == 0) return "-"
  r = a / b
  if (r >= 100) return sprintf("%.0f", r)
  if (r >= 10) return sprintf("%.1f", r)
  if (r >= 0.1) return sprintf("%.2f", r)
  if (r >= 0.01) return sprintf("%.3f", r)
  return sprintf("%.4f", r)
}
function kib(bits) { return sprintf("%.2f", bits / 8192) }
# the failure reason, shortened
function short(why,    a, b) {
  if (why ~ /ascending runs, above the limit/) {
    a = why; sub(/^.* has /, "", a); sub(/ ascending runs.*$/, "", a)
    b = why; sub(/^.*wtr_max_runs = /, "", b)
    return a " runs > wtr_max_runs " b
  }
  if (why ~ /^no progression/) return "not a progression" (why ~ /use wtr\+rs/ ? " (use wtr+rs)" : "")
  if (why ~ /rs_allow_negative/) return "unordered (rs_allow_negative off)"
  if (why ~ /limit/) return substr(why, 1, 60)
  return substr(why, 1, 50)
}
function oc(g, r, name) { return O[g SUBSEP r SUBSEP name] }
function pc(t, g, r, name) { return P[t SUBSEP g SUBSEP r SUBSEP name] }
function ok(g, r) { return ((g SUBSEP r) in HAVE) && oc(g, r, "failed") == "" && oc(g, r, "bits") != "" }
function is_paper_rep(r) { return r ~ /^(array|rs|bm|bdd|bwt|wtr\+rs|wtr\+bdd|wtr\+bm)$/ }
function is_beyond_rep(r) { return r ~ /^(wtr\+)?(ef|roaring)$/ }
# what our size is made of
function parts(g, r,    s, m) {
  m = oc(g, r, "m")
  if (!ok(g, r)) return ""
  if (r == "bm")
    return "bitmap " kib(oc(g, r, "bitmap_bits")) " KiB + directory " kib(oc(g, r, "directory_bits")) " KiB"
  if (r == "bdd")
    return oc(g, r, "paths") " paths x 40 bits" (oc(g, r, "directory_bits") + 0 > 0 ? " + directory " oc(g, r, "directory_bits") " bits" : "")
  if (r ~ /^wtr\+/)
    return "permutation " sprintf("%.3f", oc(g, r, "permutation_bits") / m) " bpg (" oc(g, r, "wtr_runs") " runs) + set " sprintf("%.3f", oc(g, r, "set_bits") / m) " bpg"
  if (r == "ef")
    return "directory " kib(oc(g, r, "directory_bits")) " KiB"
  return ""
}
function tablegroup(g,    t) {
  if (g ~ /^t[12]g[0-9]+/) {
    t = substr(g, 2, 1); TG_T = t
    TG_G = substr(g, 4); sub(/[^0-9].*$/, "", TG_G)
    return 1
  }
  return 0
}

# ------------------------------------------------------------- reading
FNR == 1 { file++ }
file == 1 && /^#/ { next }
file == 1 && /^table,/ { n = csvsplit($0, h); for (i = 1; i <= n; i++) PCOL[h[i]] = i; next }
file == 1 && NF {
  n = csvsplit($0, f)
  t = f[PCOL["table"]]; g = f[PCOL["group"]]; r = f[PCOL["rep"]]
  for (k in PCOL) P[t SUBSEP g SUBSEP r SUBSEP k] = f[PCOL[k]]
  PREPS[t SUBSEP g] = PREPS[t SUBSEP g] " " r
  PHAVE[t SUBSEP g SUBSEP r] = 1
  if (r == "array") { NARR++; ARR[NARR] = t SUBSEP g }
  na = split(f[PCOL["annotations"]], an, " ")
  for (i = 1; i <= na; i++) {
    key = t SUBSEP g SUBSEP an[i]
    if (key in PANN) PANN[key] = PANN[key] "/" r
    else PANN[key] = r
  }
  next
}
file == 2 && FNR == 1 { n = csvsplit($0, h); for (i = 1; i <= n; i++) OCOL[h[i]] = i; next }
file == 2 && NF {
  n = csvsplit($0, f)
  g = f[OCOL["group"]]; r = f[OCOL["rep"]]
  if (!(g in GSEEN)) { GSEEN[g] = 1; NG++; GROUPS[NG] = g }
  for (k in OCOL) O[g SUBSEP r SUBSEP k] = f[OCOL[k]]
  HAVE[g SUBSEP r] = 1
  OREPS[g] = OREPS[g] " " r
  if (f[OCOL["select_one_us"]] != "") TIMES = 1
}

# -------------------------------------------------------------- output
END {
  print "# Seed 003, Tables 1 and 2: our cells beside the paper'"'"'s"
  print ""
  print "Made by scripts/compare-seed003.sh from `" ours_name "` (collsim groupmap) and `" paper_name "` (the paper'"'"'s printed cells, typed in by hand: nothing of ours).  Ratios are ours / paper.  Ours: KiB = bits / 8,192, exactly what each representation stores (see its size formula); paper: KB as printed."
  print ""
  if (!TIMES)
    print "**" ours_name " has no times (made with --no-times): every time column is \"-\".**"
  else
    print "Times: ours were measured on this machine by `collsim groupmap` (S-All = one pass of select over every gid, S-One = the mean select time over 1,000 random gids, repeated in batches for 20 ms); the paper'"'"'s on an Intel Core i7 at 2.67 GHz (2010)."
  print ""

  # ---- the unit of the paper'"'"'s KB, from its ARRAY cells
  print "## The paper'"'"'s KB"
  print ""
  print "An ARRAY stores 4 bytes per member, so its printed KB tells the unit:"
  print ""
  print "| table | group | printed size | printed ARRAY KB | size x 4 B / 1,024 | size x 4 B / 1,000 | closer to |"
  print "|---|---|---|---|---|---|---|"
  nkib = 0; nkb = 0
  for (i = 1; i <= NARR; i++) {
    split(ARR[i], tg, SUBSEP)
    s = pc(tg[1], tg[2], "array", "paper_size"); v = pc(tg[1], tg[2], "array", "total_kb")
    a = s * 4 / 1024; b = s * 4 / 1000
    da = (a > v ? a - v : v - a); db = (b > v ? b - v : v - b)
    c = (da <= db) ? "KiB" : "kB"
    if (c == "KiB") nkib++; else nkb++
    printf "| %s | %s | %s | %s | %.2f | %.2f | %s |\n", tg[1], tg[2], s, v, a, b, c
  }
  print ""
  if (nkib > nkb)
    printf "**The paper'"'"'s KB is the KiB (1,024 bytes)**: %d of its %d ARRAY cells are size x 4 B / 1,024 rounded (e.g. 999,999 x 4 B = 3,906 KiB, printed 3906), %d fit 1,000-byte kB better (Table 1 group 8'"'"'s 5.99 fits neither exactly: 5.86 KiB, 6.00 kB).  Our KiB column is therefore compared with the paper'"'"'s KB as is.\n", nkib, NARR, nkb
  else
    printf "**The paper'"'"'s KB looks like 1,000-byte kB** (%d of %d ARRAY cells); our KiB are compared as is: mind the 2.4%% difference.\n", nkb, NARR
  print ""

  # ---- one table per group
  print "## The groups"
  print ""
  print "Failed rows show collsim'"'"'s reason, shortened.  bmp / wtr+bmp are the paper'"'"'s BM / WTR+BM timed with the popcnt instruction: they have no size of their own and their times are set beside our bm / wtr+bm."
  for (gi = 1; gi <= NG; gi++) {
    g = GROUPS[gi]
    if (!tablegroup(g)) continue
    t = TG_T; pg = TG_G
    first = substr(OREPS[g], 2); sub(/ .*/, "", first)
    m = oc(g, first, "m")
    print ""
    printf "### %s: Table %s, group %s\n\n", g, t, pg
    printf "Ours: %s members (%s), world %s, %s ascending run%s.  Paper: %s members.\n\n", m, oc(g, first, "ordered") == "true" ? "ordered" : "unordered", oc(g, first, "world"), oc(g, first, "runs"), oc(g, first, "runs") == 1 ? "" : "s", dash(pc(t, pg, "array", "paper_size"))
    print "| rep | ours KiB | paper KB | ours bpg | paper bpg | ours S-All ms | paper S-All ms | ratio | ours S-One us | paper S-One us | ratio | ours: parts |"
    print "|---|---|---|---|---|---|---|---|---|---|---|---|"
    nr = split(substr(OREPS[g], 2), reps, " ")
    for (ri = 1; ri <= nr; ri++) {
      r = reps[ri]
      row(g, t, pg, r, r, r)
      if (r == "bm" && ((t SUBSEP pg SUBSEP "bmp") in PHAVE)) row(g, t, pg, "bm", "bmp", "bmp (paper) vs our bm")
      if (r == "wtr+bm" && ((t SUBSEP pg SUBSEP "wtr+bmp") in PHAVE)) row(g, t, pg, "wtr+bm", "wtr+bmp", "wtr+bmp (paper) vs our wtr+bm")
    }
    # paper rows we have no row for
    np = split(substr(PREPS[t SUBSEP pg], 2), preps, " ")
    for (pi = 1; pi <= np; pi++) {
      r = preps[pi]
      if (((g SUBSEP r) in HAVE) || r == "bmp" || r == "wtr+bmp") continue
      if (r == "wtr") {
        # the paper'"'"'s bare WTR: ours is every wtr+X; show the first one
        w = ""
        for (ri = 1; ri <= nr; ri++) if (reps[ri] ~ /^wtr\+/) { w = reps[ri]; break }
        if (w != "") { row(g, t, pg, w, "wtr", "wtr (paper) vs our " w); continue }
      }
      row(g, t, pg, "", r, r " (paper only)")
    }
    picks(g, t, pg, nr, reps)
  }

  beyond()
}

# one table row: our representation o (may be ""), the paper'"'"'s p, label
function row(g, t, pg, o, p, label,    ok_, kb, pkb, pbpg, pall, pone, oall, oone, obpg, note) {
  kb = "-"; obpg = "-"; oall = ""; oone = ""
  if (o != "" && ((g SUBSEP o) in HAVE)) {
    if (oc(g, o, "failed") != "") kb = "failed: " short(oc(g, o, "failed"))
    else {
      kb = (p == o) ? oc(g, o, "kib") : "(= " o ")"
      obpg = (p == o) ? oc(g, o, "bpg") : "-"
      oall = oc(g, o, "select_all_ms"); oone = oc(g, o, "select_one_us")
    }
  }
  pkb = pc(t, pg, p, "total_kb"); pbpg = pc(t, pg, p, "bpg")
  pall = pc(t, pg, p, "select_all_ms"); pone = pc(t, pg, p, "select_one_us")
  note = pc(t, pg, p, "note")
  if (p == "wtr" && note ~ /infinity/) { pkb = "inf" }
  printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", label, kb, dash(pkb), obpg, dash(pbpg), dash(oall), dash(pall), ratio(oall, pall), dash(oone), dash(pone), ratio(oone, pone), (p == o) ? parts(g, o) : ""
}

# the argmin of column col over the reps of g in the space-separated set
function argmin(g, nr, reps, set, col,    ri, r, best, bv, v) {
  best = ""
  for (ri = 1; ri <= nr; ri++) {
    r = reps[ri]
    if (index(" " set " ", " " r " ") == 0 || !ok(g, r)) continue
    v = oc(g, r, col)
    if (v == "") continue
    if (best == "" || v + 0 < bv + 0) { best = r; bv = v }
  }
  return best
}

function picks(g, t, pg, nr, reps,    s, ps, pst, tset, sset, t1, t2, pt1, pt2, same) {
  s = oc(g, reps[1], "picks.S")
  if (t == 1) { tset = "bwt bdd bm"; sset = "array rs bm bdd bwt" }
  else { tset = "bwt wtr+rs wtr+bdd wtr+bm"; sset = "array bwt wtr+rs wtr+bdd wtr+bm" }
  ps = PANN[t SUBSEP pg SUBSEP "S"]; pst = PANN[t SUBSEP pg SUBSEP "ST"]
  pt1 = PANN[t SUBSEP pg SUBSEP "T1"]; pt2 = PANN[t SUBSEP pg SUBSEP "T2"]
  print ""
  printf "Picks of %s:\n\n", g
  print "| | S (space) | T | ST (hybrid) |"
  print "|---|---|---|---|"
  printf "| ours (collsim'"'"'s strategies) | %s | %s | %s |\n", s, oc(g, reps[1], "picks.T"), oc(g, reps[1], "picks.ST")
  printf "| ours, the paper'"'"'s way: S among the paper'"'"'s representations ({%s}); T1 / T2 = fastest S-All / S-One among {%s} | %s | %s | %s |\n", sset, tset, dash(argmin(g, nr, reps, sset, "bits")), TIMES ? "T1 " dash(argmin(g, nr, reps, tset, "select_all_ms")) ", T2 " dash(argmin(g, nr, reps, tset, "select_one_us")) : "- (no times)", oc(g, reps[1], "picks.ST")
  printf "| paper (labels) | %s | T1 %s, T2 %s | %s |\n", dash(ps), dash(pt1), dash(pt2), dash(pst)
  if (oc(g, reps[1], "picks.ST") == pst)
    printf "\nOur ST pick (%s) is the paper'"'"'s.", pst
  else
    printf "\nOur ST pick (%s) **differs** from the paper'"'"'s (%s).", oc(g, reps[1], "picks.ST"), dash(pst)
  s = argmin(g, nr, reps, sset, "bits")
  if (s == ps)
    printf "  Our smallest of the paper'"'"'s representations (%s) is the paper'"'"'s S.", s
  else
    printf "  Our smallest of the paper'"'"'s representations (%s) **differs** from the paper'"'"'s S (%s).", dash(s), dash(ps)
  if (TIMES) {
    t1 = argmin(g, nr, reps, tset, "select_all_ms"); t2 = argmin(g, nr, reps, tset, "select_one_us")
    printf "  Our T1 (%s) %s; our T2 (%s) %s.", dash(t1), t1 == pt1 ? "is the paper'"'"'s" : "differs from the paper'"'"'s (" dash(pt1) ")", dash(t2), t2 == pt2 ? "is the paper'"'"'s" : "differs from the paper'"'"'s (" dash(pt2) ")"
  }
  printf "\n"
}

function beyond(    gi, g, nr, reps, ri, r, bp, bpv, bb, bbv, op, opv, ob, obv, on, onv, yes_s, yes_t, list_s, list_t) {
  print ""
  print "## Beyond the paper"
  print ""
  print "Does Elias-Fano or Roaring (wtr+ef / wtr+roaring for an unordered group) beat EVERY paper representation (array, rs, bm, bdd, bwt, wtr+rs, wtr+bdd, wtr+bm that built) in space (fewest bits) or in S-One time?  The last column leaves ARRAY and R/S out (they are always fastest)."
  print ""
  print "| group | best paper rep: bits (bpg) | best of ef/roaring: bits (bpg) | beats every paper rep in space? | best paper S-One us | best of ef/roaring S-One us | beats every paper rep in S-One? | beats every paper rep but ARRAY, R/S in S-One? |"
  print "|---|---|---|---|---|---|---|---|"
  list_s = ""; list_t = ""
  for (gi = 1; gi <= NG; gi++) {
    g = GROUPS[gi]
    nr = split(substr(OREPS[g], 2), reps, " ")
    bp = ""; bb = ""; op = ""; ob = ""; on = ""
    for (ri = 1; ri <= nr; ri++) {
      r = reps[ri]
      if (!ok(g, r)) continue
      if (is_paper_rep(r)) {
        if (bp == "" || oc(g, r, "bits") + 0 < bpv + 0) { bp = r; bpv = oc(g, r, "bits") }
        if (TIMES && (op == "" || oc(g, r, "select_one_us") + 0 < opv + 0)) { op = r; opv = oc(g, r, "select_one_us") }
        if (TIMES && r !~ /^(array|rs)$/ && (on == "" || oc(g, r, "select_one_us") + 0 < onv + 0)) { on = r; onv = oc(g, r, "select_one_us") }
      } else if (is_beyond_rep(r)) {
        if (bb == "" || oc(g, r, "bits") + 0 < bbv + 0) { bb = r; bbv = oc(g, r, "bits") }
        if (TIMES && (ob == "" || oc(g, r, "select_one_us") + 0 < obv + 0)) { ob = r; obv = oc(g, r, "select_one_us") }
      }
    }
    if (bb == "") { printf "| %s | %s: %s (%s) | (none built) | - | - | - | - | - |\n", g, bp, bpv, oc(g, bp, "bpg"); continue }
    yes_s = (bbv + 0 < bpv + 0) ? "**yes** (" bb ")" : "no"
    if (bbv + 0 < bpv + 0) list_s = list_s ", " g " (" bb ")"
    if (TIMES) {
      yes_t = (obv + 0 < opv + 0) ? "**yes** (" ob ")" : "no"
      if (obv + 0 < opv + 0) list_t = list_t ", " g " (" ob ")"
      printf "| %s | %s: %s (%s) | %s: %s (%s) | %s | %s: %s | %s: %s | %s | %s |\n", g, bp, bpv, oc(g, bp, "bpg"), bb, bbv, oc(g, bb, "bpg"), yes_s, op, opv, ob, obv, yes_t, (on == "" ? "-" : ((obv + 0 < onv + 0) ? "yes (" ob " " obv " < " on " " onv ")" : "no (" on " " onv ")"))
    } else
      printf "| %s | %s: %s (%s) | %s: %s (%s) | %s | - | - | - (no times) | - |\n", g, bp, bpv, oc(g, bp, "bpg"), bb, bbv, oc(g, bb, "bpg"), yes_s
  }
  print ""
  printf "In space, ef or roaring beats every paper representation in: %s.\n", list_s == "" ? "no group" : substr(list_s, 3)
  if (TIMES)
    printf "In S-One time, in: %s.\n", list_t == "" ? "no group" : substr(list_t, 3)
  else
    print "In S-One time: not known (no times)."
}
' "$paper" "$ours"
