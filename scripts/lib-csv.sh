# Sourced by the scripts that read collsim's CSV files with awk.
#
# csv_tsv FILE: the CSV (RFC 4180 as collsim writes it: a field with a comma
# is quoted, a quote inside it doubled) as tab-separated fields, quotes
# removed, so `awk -F'\t'` finds every column where the header says; plain
# awk, no gawk extension.
csv_tsv() {
  awk '
    { line = $0; n = 0; field = ""; q = 0; out = ""
      for (i = 1; i <= length(line); i++) {
        ch = substr(line, i, 1)
        if (ch == "\"") { if (q && substr(line, i + 1, 1) == "\"") { field = field ch; i++ } else q = !q }
        else if (ch == "," && !q) { out = out (n++ ? "\t" : "") field; field = "" }
        else field = field ch
      }
      print out (n ? "\t" : "") field
    }' "$1"
}
