/* Result records and their renderings (see record.h). */
#include "sim/drivers/record.h"

#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

typedef enum { F_NULL, F_STR, F_I64, F_U64, F_NUM, F_BOOL, F_CHILD, F_LIST } field_kind;

typedef struct field {
  char *key;
  field_kind kind;
  char *str;        /* F_STR */
  int64_t i64;
  uint64_t u64;
  double num;
  const char *fmt;  /* F_NUM */
  bool truth;       /* F_BOOL */
  cs_record *child; /* F_CHILD */
  GArray *list;     /* F_LIST: int64_t */
} field;

struct cs_record {
  GArray *fields; /* field */
  char *rows_key, *rows_column;
};

cs_record *cs_record_new(void)
{
  cs_record *r = g_new0(cs_record, 1);
  r->fields = g_array_new(FALSE, TRUE, sizeof(field));
  return r;
}

void cs_record_free(cs_record *r)
{
  if (!r)
    return;
  for (guint i = 0; i < r->fields->len; i++) {
    field *f = &g_array_index(r->fields, field, i);
    g_free(f->key);
    g_free(f->str);
    cs_record_free(f->child);
    if (f->list)
      g_array_free(f->list, TRUE);
  }
  g_array_free(r->fields, TRUE);
  g_free(r->rows_key);
  g_free(r->rows_column);
  g_free(r);
}

static field *add(cs_record *r, const char *key, field_kind kind)
{
  field f = {0};
  f.key = g_strdup(key);
  f.kind = kind;
  g_array_append_val(r->fields, f);
  return &g_array_index(r->fields, field, r->fields->len - 1);
}

void cs_rec_str(cs_record *r, const char *key, const char *value)
{
  field *f = add(r, key, value ? F_STR : F_NULL);
  f->str = g_strdup(value);
}

void cs_rec_i64(cs_record *r, const char *key, int64_t value) { add(r, key, F_I64)->i64 = value; }

void cs_rec_u64(cs_record *r, const char *key, uint64_t value) { add(r, key, F_U64)->u64 = value; }

void cs_rec_num(cs_record *r, const char *key, double value, const char *fmt)
{
  field *f = add(r, key, F_NUM);
  f->num = value;
  f->fmt = fmt;
}

void cs_rec_bool(cs_record *r, const char *key, bool value) { add(r, key, F_BOOL)->truth = value; }

cs_record *cs_rec_child(cs_record *r, const char *key)
{
  cs_record *c = cs_record_new();
  add(r, key, F_CHILD)->child = c;
  return c;
}

void cs_rec_i64_list(cs_record *r, const char *key, const int64_t *v, size_t n)
{
  field *f = add(r, key, F_LIST);
  f->list = g_array_sized_new(FALSE, FALSE, sizeof(int64_t), (guint)n);
  g_array_append_vals(f->list, v, (guint)n);
}

void cs_record_set_rows(cs_record *r, const char *key, const char *key_column)
{
  g_free(r->rows_key);
  g_free(r->rows_column);
  r->rows_key = g_strdup(key);
  r->rows_column = g_strdup(key_column);
}

static const field *find(const cs_record *r, const char *key)
{
  for (guint i = 0; r && i < r->fields->len; i++) {
    const field *f = &g_array_index(r->fields, field, i);
    if (strcmp(f->key, key) == 0)
      return f;
  }
  return NULL;
}

/* A CSV column "a.b" names field b of the nested record a. */
static const field *find_path(const cs_record *r, const char *column)
{
  const char *dot = strchr(column, '.');
  if (!dot)
    return find(r, column);
  char *head = g_strndup(column, (gsize)(dot - column));
  const field *f = find(r, head);
  g_free(head);
  return f && f->kind == F_CHILD ? find_path(f->child, dot + 1) : NULL;
}

bool cs_record_has(const cs_record *r, const char *key) { return find(r, key) != NULL; }

/* ---- scalars as text ---- */

void cs_put_csv_text(GString *out, const char *s)
{
  if (strpbrk(s, ",\"\r\n") == NULL) {
    g_string_append(out, s);
    return;
  }
  g_string_append_c(out, '"');
  for (; *s; s++) {
    if (*s == '"')
      g_string_append_c(out, '"');
    g_string_append_c(out, *s);
  }
  g_string_append_c(out, '"');
}

void cs_put_json_text(GString *out, const char *s)
{
  g_string_append_c(out, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      g_string_append_printf(out, "\\%c", c);
    else if (c < 0x20)
      g_string_append_printf(out, "\\u%04x", c);
    else
      g_string_append_c(out, (char)c);
  }
  g_string_append_c(out, '"');
}

/* Numbers and words, the same in every rendering. */
static void put_plain(GString *out, const field *f)
{
  switch (f->kind) {
  case F_I64: g_string_append_printf(out, "%" PRId64, f->i64); break;
  case F_U64: g_string_append_printf(out, "%" PRIu64, f->u64); break;
  case F_NUM:
    if (!isnan(f->num))
      g_string_append_printf(out, f->fmt, f->num);
    break;
  case F_BOOL: g_string_append(out, f->truth ? "true" : "false"); break;
  case F_LIST:
    for (guint i = 0; i < f->list->len; i++)
      g_string_append_printf(out, "%s%" PRId64, i ? "," : "", g_array_index(f->list, int64_t, i));
    break;
  default: break;
  }
}

static void put_csv(GString *out, const field *f)
{
  if (f->kind == F_STR) {
    cs_put_csv_text(out, f->str);
  } else if (f->kind == F_LIST) {
    GString *list = g_string_new(NULL);
    put_plain(list, f);
    cs_put_csv_text(out, list->str);
    g_string_free(list, TRUE);
  } else {
    put_plain(out, f);
  }
}

/* Tables: words as they are. */
static void put_text(GString *out, const field *f)
{
  if (f->kind == F_STR)
    g_string_append(out, f->str);
  else
    put_plain(out, f);
}

char *cs_record_text(const cs_record *r, const char *key)
{
  const field *f = find(r, key);
  if (!f)
    return NULL;
  GString *s = g_string_new(NULL);
  put_text(s, f);
  return g_string_free(s, FALSE);
}

/* ---- JSON ---- */

static void put_json_record(GString *out, const cs_record *r);

static void put_json_field(GString *out, const field *f)
{
  switch (f->kind) {
  case F_NULL: g_string_append(out, "null"); break;
  case F_STR: cs_put_json_text(out, f->str); break;
  case F_CHILD: put_json_record(out, f->child); break;
  case F_NUM:
    if (isnan(f->num) || isinf(f->num))
      g_string_append(out, "null");
    else
      put_plain(out, f);
    break;
  case F_LIST:
    g_string_append_c(out, '[');
    for (guint i = 0; i < f->list->len; i++)
      g_string_append_printf(out, "%s%" PRId64, i ? ", " : "", g_array_index(f->list, int64_t, i));
    g_string_append_c(out, ']');
    break;
  default: put_plain(out, f); break;
  }
}

static void put_json_record(GString *out, const cs_record *r)
{
  g_string_append_c(out, '{');
  for (guint i = 0; i < r->fields->len; i++) {
    const field *f = &g_array_index(r->fields, field, i);
    if (i)
      g_string_append(out, ", ");
    cs_put_json_text(out, f->key);
    g_string_append(out, ": ");
    put_json_field(out, f);
  }
  g_string_append_c(out, '}');
}

/* ---- CSV ---- */

char *cs_csv_header(const char *const *columns)
{
  GString *s = g_string_new(NULL);
  for (size_t i = 0; columns[i]; i++)
    g_string_append_printf(s, "%s%s", i ? "," : "", columns[i]);
  return g_string_free(s, FALSE);
}

static void put_csv_line(GString *out, const cs_record *r, const cs_record *row, const char *row_name,
                         const char *const *columns)
{
  for (size_t c = 0; columns[c]; c++) {
    if (c)
      g_string_append_c(out, ',');
    if (row_name && strcmp(columns[c], r->rows_column) == 0) {
      cs_put_csv_text(out, row_name);
      continue;
    }
    const field *f = find_path(r, columns[c]);
    if (!f && row)
      f = find_path(row, columns[c]);
    if (f)
      put_csv(out, f);
  }
  g_string_append_c(out, '\n');
}

static void put_csv_record(GString *out, const cs_record *r, const char *const *columns)
{
  const field *rows = r->rows_key ? find(r, r->rows_key) : NULL;
  bool any = false;
  for (guint i = 0; rows && rows->kind == F_CHILD && i < rows->child->fields->len; i++) {
    const field *row = &g_array_index(rows->child->fields, field, i);
    if (row->kind != F_CHILD)
      continue;
    put_csv_line(out, r, row->child, row->key, columns);
    any = true;
  }
  if (!any)
    put_csv_line(out, r, NULL, NULL, columns);
}

/* ---- table ---- */

static void put_table_record(GString *out, const cs_record *r, int indent, bool wide);

static size_t key_width(const cs_record *r)
{
  size_t w = 0;
  for (guint i = 0; i < r->fields->len; i++)
    w = MAX(w, strlen(g_array_index(r->fields, field, i).key));
  return w;
}

/* A record whose fields are all records of scalars: a table with a column
 * per field of the first. */
static bool is_row_set(const cs_record *r)
{
  if (r->fields->len == 0)
    return false;
  for (guint i = 0; i < r->fields->len; i++) {
    const field *f = &g_array_index(r->fields, field, i);
    if (f->kind != F_CHILD)
      return false;
  }
  return true;
}

/* The text of a row's cell for column key ("" when the row lacks it). */
static char *cell_text(const cs_record *row, const char *key)
{
  const field *f = find(row, key);
  GString *cell = g_string_new(NULL);
  if (f && f->kind == F_NULL)
    g_string_append(cell, "-");
  else if (f)
    put_text(cell, f);
  return g_string_free(cell, FALSE);
}

/* Tables fit this many characters unless --wide (cs_record_write). */
#define CS_TABLE_WIDTH 100
/* A text cell longer than this makes its column a list under the table. */
#define CS_TABLE_LONG_CELL 24

/* The columns of a row set (the first row's fields), with their widths and
 * what a table that must fit CS_TABLE_WIDTH does with each. */
typedef enum { COL_SHOWN, COL_EMPTY, COL_NOTE, COL_CUT } col_fate;

typedef struct row_set_layout {
  size_t ncol, key_width;
  const char **key;
  size_t *width;
  col_fate *fate;
} row_set_layout;

static const char *row_set_key(const cs_record *r, guint c)
{
  return g_array_index(g_array_index(r->fields, field, 0).child->fields, field, c).key;
}

/* Width of the column named key, and how many rows have a value there. */
static size_t column_width(const cs_record *r, const char *key, guint *valued)
{
  size_t w = strlen(key);
  *valued = 0;
  for (guint i = 0; i < r->fields->len; i++) {
    char *cell = cell_text(g_array_index(r->fields, field, i).child, key);
    w = MAX(w, strlen(cell));
    *valued += *cell && strcmp(cell, "-") != 0;
    g_free(cell);
  }
  return w;
}

/* Columns kept while they fit, sparse ones (a value in at most half the
 * rows) only after every dense one: what most rows have is seen first. */
static void fit_columns(row_set_layout *L, const guint *valued, guint rows, size_t used)
{
  for (int sparse = 0; sparse <= 1; sparse++)
    for (guint c = 0; c < L->ncol; c++) {
      if (L->fate[c] != COL_CUT || (2 * valued[c] <= rows) != sparse)
        continue;
      if (used + 2 + L->width[c] <= CS_TABLE_WIDTH) {
        L->fate[c] = COL_SHOWN;
        used += 2 + L->width[c];
      }
    }
}

/* Without wide: columns with no value are left out, columns of long text
 * become notes under the table, and the others are kept while they fit
 * (fit_columns); the table says how many were cut and how to see them. */
static row_set_layout layout_row_set(const cs_record *r, int indent, bool wide)
{
  const cs_record *first = g_array_index(r->fields, field, 0).child;
  row_set_layout L = {first->fields->len, key_width(r), NULL, NULL, NULL};
  L.key = g_new0(const char *, L.ncol);
  L.width = g_new0(size_t, L.ncol);
  L.fate = g_new0(col_fate, L.ncol);
  guint *valued = g_new0(guint, L.ncol);
  for (guint c = 0; c < L.ncol; c++) {
    L.key[c] = row_set_key(r, c);
    L.width[c] = column_width(r, L.key[c], &valued[c]);
    if (!wide)
      L.fate[c] = valued[c] == 0 ? COL_EMPTY : L.width[c] > CS_TABLE_LONG_CELL ? COL_NOTE : COL_CUT;
  }
  if (!wide)
    fit_columns(&L, valued, r->fields->len, (size_t)indent + L.key_width);
  g_free(valued);
  return L;
}

static void put_row_set_notes(GString *out, const cs_record *r, const row_set_layout *L, int indent)
{
  for (guint c = 0; c < L->ncol; c++) {
    if (L->fate[c] != COL_NOTE)
      continue;
    g_string_append_printf(out, "%*s%s:\n", indent - 2, "", L->key[c]);
    for (guint i = 0; i < r->fields->len; i++) {
      const field *row = &g_array_index(r->fields, field, i);
      char *cell = cell_text(row->child, L->key[c]);
      if (*cell && strcmp(cell, "-") != 0)
        g_string_append_printf(out, "%*s%-*s  %s\n", indent, "", (int)L->key_width, row->key, cell);
      g_free(cell);
    }
  }
}

static void put_row_set(GString *out, const cs_record *r, int indent, bool wide)
{
  row_set_layout L = layout_row_set(r, indent, wide);
  size_t hidden = 0, cut = 0;
  g_string_append_printf(out, "%*s%-*s", indent, "", (int)L.key_width, "");
  for (guint c = 0; c < L.ncol; c++)
    if (L.fate[c] == COL_SHOWN)
      g_string_append_printf(out, "  %*s", (int)L.width[c], L.key[c]);
    else
      hidden += L.fate[c] != COL_NOTE, cut += L.fate[c] == COL_CUT;
  g_string_append_c(out, '\n');
  for (guint i = 0; i < r->fields->len; i++) {
    const field *row = &g_array_index(r->fields, field, i);
    g_string_append_printf(out, "%*s%-*s", indent, "", (int)L.key_width, row->key);
    for (guint c = 0; c < L.ncol; c++) {
      if (L.fate[c] != COL_SHOWN)
        continue;
      char *cell = cell_text(row->child, L.key[c]);
      g_string_append_printf(out, "  %*s", (int)L.width[c], cell);
      g_free(cell);
    }
    g_string_append_c(out, '\n');
  }
  put_row_set_notes(out, r, &L, indent);
  if (cut)
    g_string_append_printf(out, "%*s(%zu more column%s: --wide, or --format csv or json)\n", indent, "", cut,
                           cut == 1 ? "" : "s");
  else if (hidden)
    g_string_append_printf(out, "%*s(%zu column%s without a value left out: --wide shows them)\n", indent, "",
                           hidden, hidden == 1 ? "" : "s");
  g_free(L.key);
  g_free(L.width);
  g_free(L.fate);
}

static void put_table_record(GString *out, const cs_record *r, int indent, bool wide)
{
  size_t kw = key_width(r);
  for (guint i = 0; i < r->fields->len; i++) {
    const field *f = &g_array_index(r->fields, field, i);
    if (f->kind == F_CHILD) {
      g_string_append_printf(out, "%*s%s:\n", indent, "", f->key);
      if (is_row_set(f->child))
        put_row_set(out, f->child, indent + 2, wide);
      else
        put_table_record(out, f->child, indent + 2, wide);
      continue;
    }
    g_string_append_printf(out, "%*s%-*s  ", indent, "", (int)kw, f->key);
    if (f->kind == F_NULL)
      g_string_append(out, "-");
    else
      put_text(out, f);
    g_string_append_c(out, '\n');
  }
}

void cs_record_write(FILE *out, cs_format fmt, cs_record *const *records, size_t n, const char *const *columns,
                     bool header, const char *title, bool wide)
{
  GString *s = g_string_new(NULL);
  if (fmt == CS_FORMAT_CSV && header) {
    char *h = cs_csv_header(columns);
    g_string_append_printf(s, "%s\n", h);
    g_free(h);
  }
  for (size_t i = 0; i < n; i++) {
    if (fmt == CS_FORMAT_JSON) {
      put_json_record(s, records[i]);
      g_string_append_c(s, '\n');
    } else if (fmt == CS_FORMAT_CSV) {
      put_csv_record(s, records[i], columns);
    } else {
      if (i)
        g_string_append_c(s, '\n');
      if (title)
        g_string_append_printf(s, "%s\n", title);
      put_table_record(s, records[i], 2, wide);
    }
  }
  fwrite(s->str, 1, s->len, out);
  g_string_free(s, TRUE);
}

/* ---- column declarations ---- */

static void add_csv_columns(GPtrArray *out, const cs_record_kind *k)
{
  for (size_t i = 0; k->csv ? k->csv[i] >= 0 : i < k->ncolumns; i++) {
    const cs_column *col = &k->columns[k->csv ? (size_t)k->csv[i] : i];
    if (col->rows)
      add_csv_columns(out, col->rows);
    else if (!(col->flags & CS_COL_NO_CSV))
      g_ptr_array_add(out, (gpointer)col->name);
  }
}

const char *const *cs_record_kind_csv(const cs_record_kind *k)
{
  static GHashTable *built; /* kind -> its NULL-terminated columns, kept for the run */
  if (!built)
    built = g_hash_table_new(g_direct_hash, g_direct_equal);
  const char *const *columns = g_hash_table_lookup(built, k);
  if (!columns) {
    GPtrArray *out = g_ptr_array_new();
    add_csv_columns(out, k);
    g_ptr_array_add(out, NULL);
    columns = (const char *const *)g_ptr_array_free(out, FALSE);
    g_hash_table_insert(built, (gpointer)k, (gpointer)columns);
  }
  return columns;
}

void cs_col_str(cs_record *r, const cs_column *col, const char *value) { cs_rec_str(r, col->name, value); }
void cs_col_null(cs_record *r, const cs_column *col) { cs_rec_str(r, col->name, NULL); }
void cs_col_i64(cs_record *r, const cs_column *col, int64_t value) { cs_rec_i64(r, col->name, value); }
void cs_col_u64(cs_record *r, const cs_column *col, uint64_t value) { cs_rec_u64(r, col->name, value); }
void cs_col_num(cs_record *r, const cs_column *col, double value) { cs_rec_num(r, col->name, value, col->fmt); }
void cs_col_bool(cs_record *r, const cs_column *col, bool value) { cs_rec_bool(r, col->name, value); }

cs_record *cs_col_child(cs_record *r, const cs_column *col) { return cs_rec_child(r, col->name); }

void cs_col_i64_list(cs_record *r, const cs_column *col, const int64_t *v, size_t n)
{
  cs_rec_i64_list(r, col->name, v, n);
}

void cs_col_set_rows(cs_record *r, const cs_column *col) { cs_record_set_rows(r, col->name, col->rows->columns[0].name); }

const char *cs_col_type_name(cs_col_type t)
{
  static const char *const names[] = {"text", "integer", "number", "boolean", "integers", "record"};
  return names[t];
}
