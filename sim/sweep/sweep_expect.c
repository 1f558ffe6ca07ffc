/* An experiment's `expect:` checked on the sweep's CSV (sweep_expect.h):
 * each row's fields by the header's names, one row at a time through
 * sim/contracts/expect_row.h, as --expect-messages checks a single run. */
#include "sim/sweep/sweep_expect.h"
#include "sim/contracts/csv.h"
#include "sim/contracts/expect_row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct csv_row {
  GPtrArray *header; /* char * */
  GPtrArray *fields; /* char * */
} csv_row;

static int column_index(const csv_row *r, const char *name)
{
  for (guint i = 0; i < r->header->len; i++)
    if (strcmp(g_ptr_array_index(r->header, i), name) == 0)
      return (int)i;
  return -1;
}

static bool row_has(const void *row, const char *name) { return column_index(row, name) >= 0; }

static bool row_number(const void *row, const char *name, double *value)
{
  const csv_row *r = row;
  int i = column_index(r, name);
  if (i < 0 || (guint)i >= r->fields->len)
    return false;
  const char *text = g_ptr_array_index(r->fields, i);
  char *end = NULL;
  return *text && (*value = strtod(text, &end), *end == '\0');
}

/* Mismatches of one formula over every row (each reported). */
static size_t check_formula(const cs_experiment *e, const cs_formula *f, const char *text, const char *column,
                            GPtrArray *header, GPtrArray *rows, const char *out_path)
{
  GString *why = g_string_new(NULL);
  size_t failed = 0;
  for (guint i = 0; i < rows->len; i++) {
    csv_row r = {header, g_ptr_array_index(rows, i)};
    if (cs_expect_row(f, text, column, row_number, row_has, &r, why) == CS_EXPECT_MATCH)
      continue;
    fprintf(stderr, "collsim sweep %s: expectation failed (%s, line %u): %s\n", e->name, out_path, i + 2, why->str);
    failed++;
  }
  g_string_free(why, TRUE);
  return failed;
}

int cs_sweep_expect_check(const cs_experiment *e, const char *out_path)
{
  if (!e->expect_messages && !e->expect_bytes)
    return 0;
  char *text = NULL;
  gsize len = 0;
  GError *err = NULL;
  GPtrArray *header = NULL, *rows = NULL;
  if (!g_file_get_contents(out_path, &text, &len, &err) ||
      !cs_csv_read_table(text, len, out_path, &header, &rows, &err)) {
    fprintf(stderr, "collsim sweep %s: cannot check expect: on %s: %s\n", e->name, out_path, err->message);
    g_error_free(err);
    g_free(text);
    return 1;
  }
  size_t failed = 0;
  if (e->expect_messages)
    failed += check_formula(e, e->expect_messages_f, e->expect_messages, "messages", header, rows, out_path);
  if (e->expect_bytes)
    failed += check_formula(e, e->expect_bytes_f, e->expect_bytes, "bytes", header, rows, out_path);
  g_ptr_array_unref(header);
  g_ptr_array_unref(rows);
  g_free(text);
  return failed ? 1 : 0;
}
