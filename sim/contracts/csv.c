/* Strict CSV reader (RFC 4180), see csv.h. */
#include "sim/contracts/csv.h"
#include "sim/contracts/errors.h"

#include <string.h>

void cs_csv_reader_init(cs_csv_reader *r, const char *text, size_t len, const char *name)
{
  memset(r, 0, sizeof *r);
  r->text = text;
  r->len = len;
  r->line = 1;
  r->name = name;
}

static bool malformed(const cs_csv_reader *r, int line, GError **err, const char *what)
{
  return cs_input_error(err, "%s:%d: malformed CSV: %s", r->name, line, what);
}

/* A quoted field from r->pos (at its opening quote) into cur; r->pos ends
 * after the closing quote. */
static bool quoted_field(cs_csv_reader *r, GString *cur, GError **err)
{
  int opened = r->line;
  r->pos++;
  while (r->pos < r->len) {
    char c = r->text[r->pos];
    if (c == '"') {
      if (r->pos + 1 < r->len && r->text[r->pos + 1] == '"') {
        g_string_append_c(cur, '"');
        r->pos += 2;
        continue;
      }
      r->pos++;
      return true;
    }
    if (c == '\n')
      r->line++;
    g_string_append_c(cur, c);
    r->pos++;
  }
  return malformed(r, opened, err, "a quoted field is not closed (it opens on this line)");
}

/* An unquoted field from r->pos into cur; r->pos ends at what follows it. */
static bool plain_field(cs_csv_reader *r, GString *cur, GError **err)
{
  while (r->pos < r->len) {
    char c = r->text[r->pos];
    if (c == ',' || c == '\n' || c == '\r')
      return true;
    if (c == '"')
      return malformed(r, r->line, err, "a double quote inside an unquoted field (quote the whole field and "
                       "double the quote)");
    g_string_append_c(cur, c);
    r->pos++;
  }
  return true;
}

/* After a field: a comma (1: another field follows), the end of the record
 * (0: r->pos past its line ending) or something malformed (-1). */
static int field_end(cs_csv_reader *r, bool after_quote, GError **err)
{
  if (r->pos >= r->len) {
    r->record_end = r->len;
    return 0;
  }
  char c = r->text[r->pos];
  if (c == ',') {
    r->pos++;
    return 1;
  }
  if (c == '\n' || (c == '\r' && r->pos + 1 < r->len && r->text[r->pos + 1] == '\n')) {
    r->record_end = r->pos;
    r->pos += c == '\r' ? 2 : 1;
    r->line++;
    return 0;
  }
  if (c == '\r' && !after_quote)
    malformed(r, r->line, err, "a carriage return not followed by a line feed");
  else
    malformed(r, r->line, err, "text after the closing quote of a field");
  return -1;
}

int cs_csv_reader_next(cs_csv_reader *r, GPtrArray **fields, GError **err)
{
  *fields = NULL;
  if (r->pos >= r->len)
    return 0;
  r->record_start = r->pos;
  r->record_line = r->line;
  GPtrArray *f = g_ptr_array_new_with_free_func(g_free);
  GString *cur = g_string_new(NULL);
  int more;
  do {
    bool quoted = r->pos < r->len && r->text[r->pos] == '"';
    if (!(quoted ? quoted_field(r, cur, err) : plain_field(r, cur, err))) {
      more = -1;
      break;
    }
    g_ptr_array_add(f, g_strndup(cur->str, cur->len));
    g_string_truncate(cur, 0);
    more = field_end(r, quoted, err);
  } while (more == 1);
  g_string_free(cur, TRUE);
  if (more < 0) {
    g_ptr_array_unref(f);
    return -1;
  }
  *fields = f;
  return 1;
}

/* The line of text[off]. */
static int line_of(const char *text, size_t off)
{
  int line = 1;
  for (size_t i = 0; i < off; i++)
    line += text[i] == '\n';
  return line;
}

/* Text, not a binary file: no NUL byte, valid UTF-8. */
static bool is_text(const char *text, size_t len, const char *name, GError **err)
{
  const char *nul = memchr(text, '\0', len);
  if (nul)
    return cs_input_error(err, "%s:%d: a NUL byte: a binary file, not CSV", name, line_of(text, (size_t)(nul - text)));
  const char *end = NULL;
  if (!g_utf8_validate_len(text, len, &end))
    return cs_input_error(err, "%s:%d: not UTF-8 text: a binary file, not CSV", name,
                          line_of(text, (size_t)(end - text)));
  return true;
}

static bool empty_header(const GPtrArray *h) { return h->len == 1 && !*(const char *)g_ptr_array_index(h, 0); }

/* A row as wide as the header. */
static bool row_width_ok(const cs_csv_reader *r, const GPtrArray *row, guint width, GError **err)
{
  if (row->len == width)
    return true;
  if (r->record_end == r->record_start)
    return cs_input_error(err, "%s:%d: malformed CSV: an empty line (the header has %u fields)", r->name,
                          r->record_line, width);
  return cs_input_error(err, "%s:%d: malformed CSV: %u field(s), the header has %u", r->name, r->record_line,
                        row->len, width);
}

bool cs_csv_read_table(const char *text, size_t len, const char *name, GPtrArray **header, GPtrArray **rows,
                       GError **err)
{
  *header = *rows = NULL;
  if (!is_text(text, len, name, err))
    return false;
  cs_csv_reader r;
  cs_csv_reader_init(&r, text, len, name);
  GPtrArray *h = NULL, *all = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref), *row;
  int got = cs_csv_reader_next(&r, &h, err);
  bool ok = got > 0;
  if (got == 0)
    cs_input_error(err, "%s:1: the file is empty (no header)", name);
  else if (ok && empty_header(h))
    ok = cs_input_error(err, "%s:1: malformed CSV: an empty header", name);
  while (ok && (got = cs_csv_reader_next(&r, &row, err)) > 0) {
    ok = row_width_ok(&r, row, h->len, err);
    g_ptr_array_add(all, row);
  }
  if (!ok || got < 0) {
    if (h)
      g_ptr_array_unref(h);
    g_ptr_array_unref(all);
    return false;
  }
  *header = h;
  *rows = all;
  return true;
}

gssize cs_csv_first_record_length(const char *text, size_t len)
{
  bool quoted = false;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '"')
      quoted = !quoted;
    else if (text[i] == '\n' && !quoted)
      return (gssize)i;
  }
  return -1;
}

GPtrArray *cs_csv_fields(const char *line)
{
  size_t len = strlen(line);
  if (len == 0) {
    GPtrArray *one = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(one, g_strdup(""));
    return one;
  }
  cs_csv_reader r;
  cs_csv_reader_init(&r, line, len, "line");
  GPtrArray *fields = NULL;
  if (cs_csv_reader_next(&r, &fields, NULL) != 1)
    return NULL;
  if (r.pos < len) { /* a second record: not one line */
    g_ptr_array_unref(fields);
    return NULL;
  }
  return fields;
}
