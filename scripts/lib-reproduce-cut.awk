# Cuts an experiment YAML for a quick reproduction (scripts/lib-reproduce.sh
# quick_yaml): awk -v rules="KEY<=N KEY=V1|V2 ..." -f lib-reproduce-cut.awk FILE
#   KEY<=N        a flow list "KEY: [a, b, ...]" keeps its values <= N; a list
#                 item "- {..., KEY: V, ...}" whose scalar V > N is dropped
#   KEY=V1|V2...  the same, keeping the values named (quotes aside)
# Everything else is copied.  Exit 2 when a rule matches no line or leaves a
# list empty.  POSIX awk (mawk or gawk).

function trim(s) {
  sub(/^[ \t]+/, "", s)
  sub(/[ \t]+$/, "", s)
  return s
}

function unquote(s) {
  if (s ~ /^".*"$/ || s ~ /^'.*'$/)
    s = substr(s, 2, length(s) - 2)
  return s
}

# Splits s on the commas outside quotes and brackets into a[1..n]; returns n.
function split_flow(s, a,   n, i, c, cur, q, depth) {
  n = 0; cur = ""; q = ""; depth = 0
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (q != "") { if (c == q) q = "" }
    else if (c == "\"" || c == "'") q = c
    else if (c == "[" || c == "{") depth++
    else if (c == "]" || c == "}") depth--
    else if (c == "," && depth == 0) { a[++n] = trim(cur); cur = ""; continue }
    cur = cur c
  }
  if (trim(cur) != "") a[++n] = trim(cur)
  return n
}

# Does value v of key k pass the rules on k?
function keeps(k, v,   r) {
  v = unquote(v)
  for (r = 1; r <= nrules; r++) {
    if (rkey[r] != k) continue
    hits[r]++
    if (rop[r] == "<=" && !(v + 0 <= rval[r] + 0)) return 0
    if (rop[r] == "=" && index("|" rval[r] "|", "|" v "|") == 0) return 0
  }
  return 1
}

function has_rule(k,   r) {
  for (r = 1; r <= nrules; r++) if (rkey[r] == k) return 1
  return 0
}

BEGIN {
  nr = split(rules, words, " ")
  for (r = 1; r <= nr; r++) {
    if (match(words[r], /<=/)) { rop[r] = "<="; rkey[r] = substr(words[r], 1, RSTART - 1); rval[r] = substr(words[r], RSTART + 2) }
    else if (match(words[r], /=/)) { rop[r] = "="; rkey[r] = substr(words[r], 1, RSTART - 1); rval[r] = substr(words[r], RSTART + 1) }
    else { print "lib-reproduce-cut.awk: bad rule '" words[r] "'" > "/dev/stderr"; bad = 1; exit 2 }
  }
  nrules = nr
}

# "KEY: [a, b, ...]"
match($0, /^[ \t]*[A-Za-z_][A-Za-z0-9_-]*:[ \t]*\[.*\][ \t]*$/) {
  line = $0
  k = trim(substr(line, 1, index(line, ":") - 1))
  if (has_rule(k)) {
    lead = substr(line, 1, index(line, k) - 1)
    body = substr(line, index(line, "[") + 1)
    sub(/\][ \t]*$/, "", body)
    n = split_flow(body, v)
    kept = ""
    for (i = 1; i <= n; i++) if (keeps(k, v[i])) kept = kept (kept == "" ? "" : ", ") v[i]
    if (kept == "") { print "lib-reproduce-cut.awk: no value of " k " is left" > "/dev/stderr"; bad = 1; exit 2 }
    print lead k ": [" kept "]"
    next
  }
}

# "- {k: v, ...}"
match($0, /^[ \t]*-[ \t]*\{.*\}[ \t]*$/) {
  body = substr($0, index($0, "{") + 1)
  sub(/\}[ \t]*$/, "", body)
  n = split_flow(body, kv)
  for (i = 1; i <= n; i++) {
    c = index(kv[i], ":")
    if (c == 0) continue
    k = trim(substr(kv[i], 1, c - 1)); val = trim(substr(kv[i], c + 1))
    if (val ~ /^[[{]/ || !has_rule(k)) continue
    if (!keeps(k, val)) next
  }
}

{ print }

END {
  if (bad) exit 2
  for (r = 1; r <= nrules; r++)
    if (!hits[r]) { print "lib-reproduce-cut.awk: rule " words[r] " matches nothing" > "/dev/stderr"; exit 2 }
}
