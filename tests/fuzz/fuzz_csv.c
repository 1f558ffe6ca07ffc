/* libFuzzer harness for the strict CSV reader (sim/contracts/csv.h) that
 * `collsim compare` reads its files with and `collsim sweep` its points'
 * rows with.
 *
 * The input is the file's text, every byte of it, named "fuzz.csv".
 * Properties:
 *  - cs_csv_read_table returns a table exactly when no error is set; an
 *    error is one line naming the file and a line that exists
 *    ("fuzz.csv:LINE: ...", 1 <= LINE <= the text's lines);
 *  - a table's text has no NUL byte and is valid UTF-8; its header is not
 *    one empty field; every row is as wide as the header;
 *  - the reader alone (cs_csv_reader_next) finds the same records, its
 *    records' bytes lie in order inside the text, and
 *    cs_csv_first_record_length ends the header where the reader did;
 *  - round trip: the table written again (a field quoted when it holds a
 *    comma, a quote, CR or LF, as cs_put_csv_text does) reads back as the
 *    same fields, and written once more gives the same bytes.
 * A violated property aborts (libFuzzer reports it as a crash). */
#include "sim/drivers/record.h"
#include "sim/contracts/csv.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NAME "fuzz_csv"
#include "tests/fuzz/fuzz_common.h"

#define PATH "fuzz.csv"

static int lines_of(const char *text, size_t len)
{
  int n = 1;
  for (size_t i = 0; i < len; i++)
    n += text[i] == '\n';
  return n;
}


static void put_record(GString *out, const GPtrArray *fields)
{
  for (guint i = 0; i < fields->len; i++) {
    if (i)
      g_string_append_c(out, ',');
    cs_put_csv_text(out, g_ptr_array_index(fields, i));
  }
  g_string_append_c(out, '\n');
}

static char *write_table(const GPtrArray *header, const GPtrArray *rows)
{
  GString *out = g_string_new(NULL);
  put_record(out, header);
  for (guint i = 0; i < rows->len; i++)
    put_record(out, g_ptr_array_index(rows, i));
  return g_string_free(out, FALSE);
}

static bool same_record(const GPtrArray *a, const GPtrArray *b)
{
  if (a->len != b->len)
    return false;
  for (guint i = 0; i < a->len; i++)
    if (strcmp(g_ptr_array_index(a, i), g_ptr_array_index(b, i)) != 0)
      return false;
  return true;
}

/* The reader alone finds the table's header and rows, in order, each
 * inside the text after the one before. */
static void check_reader(const char *text, size_t len, const GPtrArray *header, const GPtrArray *rows)
{
  cs_csv_reader r;
  cs_csv_reader_init(&r, text, len, PATH);
  GPtrArray *f;
  GError *err = NULL;
  size_t prev_end = 0;
  for (guint i = 0; i <= rows->len; i++) {
    CHECK(cs_csv_reader_next(&r, &f, &err) == 1, "the reader stops at record %u: %s", i, err ? err->message : "");
    CHECK(same_record(f, i ? g_ptr_array_index(rows, i - 1) : header), "record %u differs", i);
    CHECK(r.record_start >= prev_end && r.record_start <= r.record_end && r.record_end <= len,
          "record %u at [%zu, %zu) after %zu", i, r.record_start, r.record_end, prev_end);
    if (i == 0) {
      gssize first = cs_csv_first_record_length(text, len);
      bool crlf = r.record_end < len && text[r.record_end] == '\r';
      CHECK(r.record_end == len ? first == -1 : first == (gssize)r.record_end + crlf,
            "the header ends at %zu, cs_csv_first_record_length says %zd", r.record_end, first);
    }
    prev_end = r.record_end;
    g_ptr_array_unref(f);
  }
  CHECK(cs_csv_reader_next(&r, &f, &err) == 0, "the reader finds more than the table");
}

static void check_table(const char *text, size_t len, GPtrArray *header, GPtrArray *rows)
{
  CHECK(memchr(text, '\0', len) == NULL, "a table with a NUL byte");
  CHECK(g_utf8_validate_len(text, len, NULL), "a table that is not UTF-8");
  CHECK(header->len >= 1 && !(header->len == 1 && !*(char *)g_ptr_array_index(header, 0)), "an empty header");
  for (guint i = 0; i < rows->len; i++)
    CHECK(((GPtrArray *)g_ptr_array_index(rows, i))->len == header->len, "row %u: %u fields, header %u", i,
          ((GPtrArray *)g_ptr_array_index(rows, i))->len, header->len);
  check_reader(text, len, header, rows);
  char *again = write_table(header, rows);
  GPtrArray *h2, *r2;
  GError *err = NULL;
  CHECK(cs_csv_read_table(again, strlen(again), PATH, &h2, &r2, &err), "written again, it does not read: %s\n%s",
        err ? err->message : "", again);
  CHECK(same_record(h2, header) && r2->len == rows->len, "written again, another table");
  for (guint i = 0; i < rows->len; i++)
    CHECK(same_record(g_ptr_array_index(r2, i), g_ptr_array_index(rows, i)), "written again, row %u differs", i);
  char *third = write_table(h2, r2);
  CHECK(strcmp(third, again) == 0, "written twice, other bytes");
  g_free(third);
  g_free(again);
  g_ptr_array_unref(h2);
  g_ptr_array_unref(r2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* a private copy of exactly size bytes, so that a read past the end is caught */
  char *text = g_malloc(size ? size : 1);
  memcpy(text, data, size);
  GPtrArray *header = NULL, *rows = NULL;
  GError *err = NULL;
  bool ok = cs_csv_read_table(text, size, PATH, &header, &rows, &err);
  CHECK(ok == (err == NULL), "returned %d with error %s", ok, err ? err->message : "(none)");
  if (ok) {
    check_table(text, size, header, rows);
    g_ptr_array_unref(header);
    g_ptr_array_unref(rows);
  } else {
    CHECK(header == NULL && rows == NULL, "an error with a table");
    CHECK(g_str_has_prefix(err->message, PATH ":"), "the error does not name the file: %s", err->message);
    CHECK(strpbrk(err->message, "\r\n") == NULL, "the error is more than one line: %s", err->message);
    int line = atoi(err->message + strlen(PATH ":"));
    CHECK(line >= 1 && line <= lines_of(text, size), "the error names line %d of %d: %s", line,
          lines_of(text, size), err->message);
    g_error_free(err);
  }
  g_free(text);
  return 0;
}
