/* Row-by-row comparison of CSV results (see compare.h): reading the files,
 * choosing the key and compared columns, matching the rows, the report,
 * and `collsim compare`. */
#include "sim/cli/commands.h"
#include "sim/cli/compare.h"
#include "sim/cli/columns.h"
#include "sim/cli/frontend.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/input_path.h"
#include "sim/contracts/csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The options a run was given: the key columns every output kind declares
 * (sim/cli/columns.h), and these, of CSV files no record kind writes: the
 * labels of seed002's experiments (curve, tree_args, nodes, series) and
 * its calibration (cycles, net_us, shm_us). */
static const char *const other_key_columns[] = {"curve", "tree_args", "nodes", "series", "cycles", "net_us",
                                                "shm_us", NULL};

const char *const *cs_compare_key_columns(void)
{
  static const char **all;
  if (!all) {
    GPtrArray *names = g_ptr_array_new();
    for (const char *const *k = cs_output_columns_with(CS_COL_KEY); *k; k++)
      g_ptr_array_add(names, (gpointer)*k);
    for (size_t i = 0; other_key_columns[i]; i++)
      g_ptr_array_add(names, (gpointer)other_key_columns[i]);
    g_ptr_array_add(names, NULL);
    all = (const char **)g_ptr_array_free(names, FALSE);
  }
  return all;
}

/* How many rows the lists of rows only here / only committed show. */
#define LIST_MAX 10

/* ------------------------------------------------------------ files ---- */

typedef struct table {
  GPtrArray *header; /* char * */
  GPtrArray *rows;   /* GPtrArray * of char *, each as wide as the header */
} table;

static void table_clear(table *t)
{
  if (t->header)
    g_ptr_array_unref(t->header);
  if (t->rows)
    g_ptr_array_unref(t->rows);
  t->header = t->rows = NULL;
}

/* The file at path, read strictly (sim/contracts/csv.h): malformed CSV is bad input. */
static bool table_read(const char *path, table *t, GError **err)
{
  char *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!cs_read_user_file(NULL, path, &text, &len, &e)) {
    cs_input_error(err, "%s", e->message);
    g_error_free(e);
    return false;
  }
  bool ok = cs_csv_read_table(text, len, path, &t->header, &t->rows, err);
  g_free(text);
  return ok;
}

static const char *field(GPtrArray *row, int i) { return i >= 0 && (guint)i < row->len ? g_ptr_array_index(row, i) : ""; }

static int column_of(GPtrArray *header, const char *name)
{
  for (guint i = 0; i < header->len; i++)
    if (strcmp(g_ptr_array_index(header, i), name) == 0)
      return (int)i;
  return -1;
}

/* ---------------------------------------------------------- columns ---- */

static bool in_list(const char *const *list, const char *name)
{
  for (; list && *list; list++)
    if (strcmp(*list, name) == 0)
      return true;
  return false;
}

static bool ignored(const char *name, const cs_compare_opts *o)
{
  return g_str_has_prefix(name, "wall") || strstr(name, "_wall") ||
         in_list(cs_output_columns_with(CS_COL_MEASURED), name) ||
         in_list((const char *const *)o->ignore, name);
}

static bool is_key(const char *name, const cs_compare_opts *o)
{
  return in_list(o->key ? (const char *const *)o->key : cs_compare_key_columns(), name);
}

/* Which columns key the rows and which are compared, by position in each file. */
typedef struct plan {
  GArray *key_c, *key_n;  /* int: key columns in the committed / the new file */
  GArray *cmp_c, *cmp_n;  /* int: compared columns */
  GPtrArray *key_names, *cmp_names, *ignored_names; /* const char * */
  GString *only_c, *only_n; /* compared columns only one file has */
  GString *added_config;    /* the run's configuration columns (--with-config) only the new file has */
} plan;

/* A column --with-config adds to record a run's configuration: it says how
 * a row was made, not what it measured, so a committed file made before
 * these columns existed is not different for lacking them. */
static bool is_config_record(const char *name)
{
  return g_str_has_prefix(name, "config_") || strcmp(name, "collsim_version") == 0;
}

static void plan_column(plan *p, const char *name, int ic, int in, const cs_compare_opts *o)
{
  if (ignored(name, o)) {
    g_ptr_array_add(p->ignored_names, (gpointer)name);
  } else if (ic < 0 && is_config_record(name)) {
    g_string_append_printf(p->added_config, "%s%s", p->added_config->len ? ", " : "", name);
  } else if (ic < 0 || in < 0) {
    GString *s = ic < 0 ? p->only_n : p->only_c;
    g_string_append_printf(s, "%s%s", s->len ? ", " : "", name);
  } else if (is_key(name, o)) {
    g_array_append_val(p->key_c, ic);
    g_array_append_val(p->key_n, in);
    g_ptr_array_add(p->key_names, (gpointer)name);
  } else {
    g_array_append_val(p->cmp_c, ic);
    g_array_append_val(p->cmp_n, in);
    g_ptr_array_add(p->cmp_names, (gpointer)name);
  }
}

static void plan_make(plan *p, const table *c, const table *n, const cs_compare_opts *o)
{
  p->key_c = g_array_new(FALSE, FALSE, sizeof(int));
  p->key_n = g_array_new(FALSE, FALSE, sizeof(int));
  p->cmp_c = g_array_new(FALSE, FALSE, sizeof(int));
  p->cmp_n = g_array_new(FALSE, FALSE, sizeof(int));
  p->key_names = g_ptr_array_new();
  p->cmp_names = g_ptr_array_new();
  p->ignored_names = g_ptr_array_new();
  p->only_c = g_string_new(NULL);
  p->only_n = g_string_new(NULL);
  p->added_config = g_string_new(NULL);
  for (guint i = 0; i < c->header->len; i++) {
    const char *name = g_ptr_array_index(c->header, i);
    plan_column(p, name, (int)i, column_of(n->header, name), o);
  }
  for (guint i = 0; i < n->header->len; i++) {
    const char *name = g_ptr_array_index(n->header, i);
    if (column_of(c->header, name) < 0)
      plan_column(p, name, -1, (int)i, o);
  }
}

static void plan_clear(plan *p)
{
  g_array_free(p->key_c, TRUE);
  g_array_free(p->key_n, TRUE);
  g_array_free(p->cmp_c, TRUE);
  g_array_free(p->cmp_n, TRUE);
  g_ptr_array_free(p->key_names, TRUE);
  g_ptr_array_free(p->cmp_names, TRUE);
  g_ptr_array_free(p->ignored_names, TRUE);
  g_string_free(p->only_c, TRUE);
  g_string_free(p->only_n, TRUE);
  g_string_free(p->added_config, TRUE);
}

/* ------------------------------------------------------------- rows ---- */

/* The key of a row: its key fields joined by \x1f; its number when no key. */
static char *row_key(GPtrArray *row, GArray *cols, guint number)
{
  if (cols->len == 0)
    return g_strdup_printf("#%u", number);
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < cols->len; i++)
    g_string_append_printf(s, "%s%s", i ? "\x1f" : "", field(row, g_array_index(cols, int, i)));
  return g_string_free(s, FALSE);
}

/* "op=create-group impl=direct n=8192" (empty fields left out); "row N" when no key. */
static void describe_row(GString *out, GPtrArray *row, const plan *p, GArray *cols, guint number)
{
  if (cols->len == 0) {
    g_string_append_printf(out, "row %u", number + 1);
    return;
  }
  const char *sep = "";
  for (guint i = 0; i < cols->len; i++) {
    const char *v = field(row, g_array_index(cols, int, i));
    if (!*v)
      continue;
    g_string_append_printf(out, "%s%s=%s", sep, (const char *)g_ptr_array_index(p->key_names, i), v);
    sep = " ";
  }
}

static bool as_number(const char *s, double *v)
{
  char *end = NULL;
  if (!*s)
    return false;
  *v = g_ascii_strtod(s, &end);
  return *end == '\0' && isfinite(*v);
}

static bool same_value(const char *a, const char *b, double tolerance)
{
  double x, y;
  if (strcmp(a, b) == 0)
    return true;
  if (!as_number(a, &x) || !as_number(b, &y))
    return false;
  return fabs(x - y) <= tolerance * fmax(fabs(x), fabs(y));
}

/* Appends the differing columns of a matched pair; true when none differs. */
static bool compare_row(GString *out, GPtrArray *rc, GPtrArray *rn, const plan *p, double tolerance)
{
  bool same = true;
  for (guint i = 0; i < p->cmp_c->len; i++) {
    const char *a = field(rc, g_array_index(p->cmp_c, int, i)), *b = field(rn, g_array_index(p->cmp_n, int, i));
    if (same_value(a, b, tolerance))
      continue;
    g_string_append_printf(out, "    %s: committed %s, now %s\n", (const char *)g_ptr_array_index(p->cmp_names, i),
                           *a ? a : "(empty)", *b ? b : "(empty)");
    same = false;
  }
  return same;
}

/* Committed rows by key: key -> GQueue of row numbers, in file order. */
static GHashTable *index_rows(const table *c, const plan *p)
{
  GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_queue_free);
  for (guint i = 0; i < c->rows->len; i++) {
    char *k = row_key(g_ptr_array_index(c->rows, i), p->key_c, i);
    GQueue *q = g_hash_table_lookup(h, k);
    if (!q) {
      q = g_queue_new();
      g_hash_table_insert(h, g_strdup(k), q);
    }
    g_queue_push_tail(q, GUINT_TO_POINTER(i));
    g_free(k);
  }
  return h;
}

/* The counts and listings of one file. */
typedef struct outcome {
  size_t same, differ, only_now, only_committed;
  GString *differs, *only_now_list, *only_committed_list;
} outcome;

static void list_row(GString *list, size_t count, GPtrArray *row, const plan *p, GArray *cols, guint number)
{
  if (count > LIST_MAX)
    return;
  g_string_append(list, "    ");
  describe_row(list, row, p, cols, number);
  g_string_append_c(list, '\n');
}

static void match_rows(const table *c, const table *n, const plan *p, const cs_compare_opts *o, outcome *r)
{
  GHashTable *index = index_rows(c, p);
  bool *used = g_new0(bool, c->rows->len + 1);
  for (guint i = 0; i < n->rows->len; i++) {
    GPtrArray *rn = g_ptr_array_index(n->rows, i);
    char *k = row_key(rn, p->key_n, i);
    GQueue *q = g_hash_table_lookup(index, k);
    g_free(k);
    if (!q || g_queue_is_empty(q)) {
      list_row(r->only_now_list, ++r->only_now, rn, p, p->key_n, i);
      continue;
    }
    guint j = GPOINTER_TO_UINT(g_queue_pop_head(q));
    used[j] = true;
    GString *diff = g_string_new(NULL);
    if (compare_row(diff, g_ptr_array_index(c->rows, j), rn, p, o->tolerance)) {
      r->same++;
    } else {
      r->differ++;
      g_string_append(r->differs, "  differs: ");
      describe_row(r->differs, rn, p, p->key_n, i);
      g_string_append_printf(r->differs, "\n%s", diff->str);
    }
    g_string_free(diff, TRUE);
  }
  for (guint j = 0; j < c->rows->len; j++)
    if (!used[j])
      list_row(r->only_committed_list, ++r->only_committed, g_ptr_array_index(c->rows, j), p, p->key_c, j);
  g_free(used);
  g_hash_table_destroy(index);
}

/* ----------------------------------------------------------- report ---- */

/* "  rows matched on: a b c; ignored: wall_s" */
static void append_columns(GString *out, const plan *p)
{
  g_string_append(out, "  rows matched on:");
  for (guint i = 0; i < p->key_names->len; i++)
    g_string_append_printf(out, " %s", (const char *)g_ptr_array_index(p->key_names, i));
  if (p->key_names->len == 0)
    g_string_append(out, " (no configuration column: their row numbers)");
  for (guint i = 0; i < p->ignored_names->len; i++)
    g_string_append_printf(out, "%s%s", i ? " " : "; ignored (measured here): ",
                           (const char *)g_ptr_array_index(p->ignored_names, i));
  g_string_append_c(out, '\n');
}

static void append_list(GString *out, const char *label, GString *list, size_t count)
{
  if (count == 0)
    return;
  g_string_append_printf(out, "  %s:\n%s", label, list->str);
  if (count > LIST_MAX)
    g_string_append_printf(out, "    ... and %zu more\n", count - LIST_MAX);
}

static void report_file(GString *out, const char *name, const table *c, const table *n, const plan *p,
                        const outcome *r, const cs_compare_opts *o)
{
  g_string_append_printf(out, "\n%s: %u rows made, %u committed: %zu same, %zu differ, %zu only here, %zu only committed%s\n",
                         name, n->rows->len, c->rows->len, r->same, r->differ, r->only_now, r->only_committed,
                         o->subset && r->only_committed ? " (not recomputed: --quick, expected)" : "");
  append_columns(out, p);
  if (p->only_c->len)
    g_string_append_printf(out, "  DIFFERENT COLUMNS: only committed: %s\n", p->only_c->str);
  if (p->only_n->len)
    g_string_append_printf(out, "  DIFFERENT COLUMNS: only here: %s\n", p->only_n->str);
  if (p->added_config->len)
    g_string_append_printf(out, "  the run's configuration, only here (not compared): %s\n", p->added_config->str);
  g_string_append(out, r->differs->str);
  append_list(out, "only here (no committed row with this configuration)", r->only_now_list, r->only_now);
  if (!o->subset)
    append_list(out, "only committed (not made by this run)", r->only_committed_list, r->only_committed);
}

bool cs_compare_files(const char *name, const char *committed, const char *now, const cs_compare_opts *o,
                      cs_compare_totals *t, GString *report, GError **err)
{
  table c = {0}, n = {0};
  if (!table_read(committed, &c, err) || !table_read(now, &n, err)) {
    table_clear(&c);
    return false;
  }
  for (guint i = 0; t->columns && i < c.header->len; i++)
    g_hash_table_add(t->columns, g_strdup(g_ptr_array_index(c.header, i)));
  for (guint i = 0; t->columns && i < n.header->len; i++)
    g_hash_table_add(t->columns, g_strdup(g_ptr_array_index(n.header, i)));
  plan p;
  plan_make(&p, &c, &n, o);
  outcome r = {0, 0, 0, 0, g_string_new(NULL), g_string_new(NULL), g_string_new(NULL)};
  match_rows(&c, &n, &p, o, &r);
  report_file(report, name, &c, &n, &p, &r, o);
  t->files++;
  t->same += r.same;
  t->differ += r.differ;
  t->only_now += r.only_now;
  t->only_committed += r.only_committed;
  t->columns_differ += p.only_c->len || p.only_n->len;
  g_string_free(r.differs, TRUE);
  g_string_free(r.only_now_list, TRUE);
  g_string_free(r.only_committed_list, TRUE);
  plan_clear(&p);
  table_clear(&c);
  table_clear(&n);
  return true;
}

/* ---------------------------------------------------------- folders ---- */

gint cs_compare_by_name(gconstpointer a, gconstpointer b) { return strcmp(*(char *const *)a, *(char *const *)b); }

GPtrArray *cs_list_files(const char *dir, const char *prefix, const char *suffix)
{
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  GDir *d = g_dir_open(dir, 0, NULL);
  for (const char *e; d && (e = g_dir_read_name(d));) {
    char *path = g_build_filename(dir, e, NULL);
    if (e[0] != '.' && g_str_has_prefix(e, prefix) && g_str_has_suffix(e, suffix) &&
        g_file_test(path, G_FILE_TEST_IS_REGULAR))
      g_ptr_array_add(names, g_strdup(e));
    g_free(path);
  }
  if (d)
    g_dir_close(d);
  g_ptr_array_sort(names, cs_compare_by_name);
  return names;
}

/* The rows of a file only one side has (read as strictly as the others). */
static bool count_rows(const char *path, guint *n, GError **err)
{
  table t = {0};
  bool ok = table_read(path, &t, err);
  *n = ok ? t.rows->len : 0;
  table_clear(&t);
  return ok;
}

bool cs_compare_dirs(const char *committed_dir, const char *now_dir, const cs_compare_opts *o,
                     cs_compare_totals *t, GString *report, GError **err)
{
  GPtrArray *made = cs_list_files(now_dir, "", ".csv"), *committed = cs_list_files(committed_dir, "", ".csv");
  bool ok = true;
  for (guint i = 0; ok && i < made->len; i++) {
    const char *name = g_ptr_array_index(made, i);
    char *c = g_build_filename(committed_dir, name, NULL), *n = g_build_filename(now_dir, name, NULL);
    if (g_file_test(c, G_FILE_TEST_IS_REGULAR)) {
      ok = cs_compare_files(name, c, n, o, t, report, err);
    } else {
      guint rows = 0;
      ok = count_rows(n, &rows, err);
      if (ok)
        g_string_append_printf(report, "\n%s: %u rows made; not committed, nothing to compare with\n", name, rows);
      t->not_committed++;
    }
    g_free(c);
    g_free(n);
  }
  for (guint i = 0; ok && i < committed->len; i++) {
    const char *name = g_ptr_array_index(committed, i);
    if (g_ptr_array_find_with_equal_func(made, name, g_str_equal, NULL))
      continue;
    char *c = g_build_filename(committed_dir, name, NULL);
    guint rows = 0;
    ok = count_rows(c, &rows, err);
    if (ok)
      g_string_append_printf(report, "\n%s: committed (%u rows), not made by this run\n", name, rows);
    t->not_made++;
    g_free(c);
  }
  g_ptr_array_unref(made);
  g_ptr_array_unref(committed);
  return ok;
}

bool cs_compare_ok(const cs_compare_totals *t, const cs_compare_opts *o)
{
  return t->differ == 0 && t->only_now == 0 && t->columns_differ == 0 && (o->subset || t->only_committed == 0);
}

void cs_compare_summary(const cs_compare_totals *t, const cs_compare_opts *o, GString *report)
{
  g_string_append_printf(report, "\n%s: %zu file(s) compared: %zu rows same, %zu differ, %zu only here, %zu only committed",
                         cs_compare_ok(t, o) ? "MATCH" : "DIFFERENT", t->files, t->same, t->differ, t->only_now,
                         t->only_committed);
  if (o->subset && t->only_committed)
    g_string_append(report, " (not recomputed: --quick)");
  if (t->columns_differ)
    g_string_append_printf(report, "; %zu file(s) with different columns", t->columns_differ);
  g_string_append_c(report, '\n');
}

/* -------------------------------------------------- collsim compare ---- */

static const char *const DESCRIPTION =
    "COMMITTED and NOW are two CSV files, or two folders (every NOW/NAME.csv\n"
    "against COMMITTED/NAME.csv).  Rows are matched on their configuration\n"
    "columns (algo, n, f, k, seed, platform, coll, impl, cpm, balance, ...:\n"
    "the options a run was given; --key names others); wall_s, *_wall* and\n"
    "groupmap's host-timed columns are ignored.  Every differing row is\n"
    "printed with its differing columns, committed value beside the new one.\n"
    "Files are read as strict CSV (RFC 4180): a ragged row, an unterminated\n"
    "quote, a quote inside an unquoted field or a binary file is bad input.\n"
    "Exit status: 0 everything matches, 1 something differs, 2 bad input.\n"
    "\n"
    "Examples:\n"
    "  collsim compare results/seed004 reproduce-seed004\n"
    "  collsim compare old.csv new.csv --key n,balance --ignore time_s\n";

/* The names of --key or --ignore; NULL (err set) when one is empty. */
static char **split_columns(const char *option, const char *list, GError **err)
{
  char **names = list && !*err ? g_strsplit(list, ",", -1) : NULL;
  for (size_t i = 0; names && names[i]; i++)
    if (!*names[i]) {
      cs_input_error(err, "--%s '%s': an empty column name in the list", option, list);
      g_strfreev(names);
      return NULL;
    }
  return names;
}

/* Every column --key and --ignore name is in a file compared (a misspelt
 * name would otherwise quietly change nothing). */
static bool columns_named_exist(const cs_compare_opts *o, GHashTable *columns, GError **err)
{
  const struct {
    const char *option;
    char **names;
  } lists[] = {{"key", o->key}, {"ignore", o->ignore}};
  for (size_t l = 0; l < G_N_ELEMENTS(lists); l++)
    for (size_t i = 0; lists[l].names && lists[l].names[i]; i++)
      if (!g_hash_table_contains(columns, lists[l].names[i]))
        return cs_input_error(err, "--%s %s: no file compared has that column", lists[l].option, lists[l].names[i]);
  return true;
}

/* Compares two files or two folders; 0 match, 1 differ, 2 bad input (e set). */
static int compare_paths(const char *given, const char *now, const cs_compare_opts *o, GString *report, GError **e)
{
  char *committed_owned = cs_input_locate(given); /* "results/seed004" from any folder */
  const char *committed = committed_owned;
  int rc = 2;
  bool dirs = g_file_test(committed, G_FILE_TEST_IS_DIR);
  if (dirs != g_file_test(now, G_FILE_TEST_IS_DIR)) {
    cs_input_error(e, "%s and %s: give two files or two folders", given, now);
    g_free(committed_owned);
    return 2;
  }
  cs_compare_totals t = {.columns = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL)};
  char *name = g_path_get_basename(now);
  bool read = dirs ? cs_compare_dirs(committed, now, o, &t, report, e)
                   : cs_compare_files(name, committed, now, o, &t, report, e);
  read = read && columns_named_exist(o, t.columns, e);
  g_hash_table_destroy(t.columns);
  g_free(name);
  if (read) {
    cs_compare_summary(&t, o, report);
    rc = cs_compare_ok(&t, o) ? 0 : 1;
  }
  g_free(committed_owned);
  return rc;
}

int cs_compare_main(int argc, char **argv)
{
  char *key = NULL, *ignore = NULL;
  double tolerance = 0;
  bool subset = false;
  const cs_opt opts[] = {
      {"key", 0, CS_OPT_STRING, &key, "COLS", "match rows on these columns (comma-separated) instead of the "
       "configuration columns collsim knows", 0, 0, 0, 0, NULL},
      {"ignore", 0, CS_OPT_STRING, &ignore, "COLS", "leave these columns out too (comma-separated)", 0, 0, 0, 0,
       NULL},
      {"tolerance", 0, CS_OPT_QUANTITY, &tolerance, "REL", "relative difference allowed between two numbers "
       "(default 0: equal)", 0, 1, CS_QTY_NUMBER, 1, NULL},
      {"subset", 0, CS_OPT_FLAG, &subset, NULL, "NOW recomputes a subset: committed rows it lacks are expected",
       0, 0, 0, 0, NULL},
      {NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL},
  };
  cs_cli c;
  int rc = cs_cli_parse(&c, "compare", 0, opts, "COMMITTED NOW",
                        "compare CSV results row by row (what collsim reproduce does after a run)", DESCRIPTION,
                        argc, argv);
  if (rc == 0 && g_strv_length(c.rest) != 2)
    rc = cs_cli_usage(&c, "expected COMMITTED and NOW (two files or two folders), got %u argument(s)",
                      g_strv_length(c.rest));
  if (rc == 0) {
    GError *e = NULL;
    cs_compare_opts o = {split_columns("key", key, &e), split_columns("ignore", ignore, &e), tolerance, subset};
    GString *report = g_string_new(NULL);
    rc = e ? 2 : compare_paths(c.rest[0], c.rest[1], &o, report, &e);
    if (e)
      rc = cs_cli_fail(&c, e);
    else
      fputs(report->str + (report->str[0] == '\n'), stdout);
    g_clear_error(&e);
    g_string_free(report, TRUE);
    g_strfreev(o.key);
    g_strfreev(o.ignore);
  }
  cs_cli_free(&c); /* frees key and ignore */
  return rc;
}
