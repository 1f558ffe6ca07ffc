/* Lists of ranks (see rank_list.h). */
#include "sim/contracts/rank_list.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/input_path.h"

#include <string.h>

static bool is_separator(char c) { return c == ',' || c == ' ' || (c >= '\t' && c <= '\r'); }

static bool refuse(GError **err, const char *origin, int line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static bool refuse(GError **err, const char *origin, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(err, CS_INPUT_ERROR, 1, "%s, line %d: %s", origin, line, what);
  g_free(what);
  return false;
}

/* One rank at s (digits up to a separator, a comment or the end). */
static bool read_rank(const char **s, const char *end, const char *origin, int line, int64_t limit, int64_t *out,
                      GError **err)
{
  const char *p = *s;
  uint64_t v = 0;
  bool overflow = false;
  while (p < end && g_ascii_isdigit(*p)) {
    overflow = overflow || v > (UINT64_MAX - 9) / 10;
    v = v * 10 + (uint64_t)(*p - '0');
    p++;
  }
  if (p < end && *p == '\0')
    return refuse(err, origin, line, "a NUL byte after '%.*s' (a binary file?)", (int)MIN(p - *s, 40), *s);
  if (p == *s || (p < end && !is_separator(*p) && *p != '#')) {
    const char *q = *s;
    while (q < end && !is_separator(*q) && *q != '#' && *q != '\0')
      q++;
    return refuse(err, origin, line, "'%.*s' is not a rank (a non-negative integer)", (int)MIN(q - *s, 40), *s);
  }
  if (overflow || v >= (uint64_t)limit)
    return refuse(err, origin, line, "%.*s is outside [0, %lld)", (int)MIN(p - *s, 40), *s, (long long)limit);
  *out = (int64_t)v;
  *s = p;
  return true;
}

GArray *cs_rank_list_parse(const char *text, size_t len, const char *origin, int64_t limit, bool allow_empty,
                           GError **err)
{
  GArray *ranks = g_array_new(FALSE, FALSE, sizeof(int64_t));
  GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal); /* rank + 1 as a pointer */
  const char *s = text, *end = text + len;
  int line = 1;
  bool ok = true;
  bool after_comma = true; /* a ',' here would leave an empty element (at the start too) */
  while (ok && s < end) {
    if (*s == '\0')
      ok = refuse(err, origin, line, "a NUL byte (a binary file?)");
    else if (*s == '#')
      while (s < end && *s != '\n')
        s++;
    else if (*s == ',' && after_comma)
      ok = refuse(err, origin, line, "an empty element (',' with no rank before it)");
    else if (is_separator(*s)) {
      after_comma = after_comma || *s == ',';
      line += *s++ == '\n';
    } else {
      after_comma = false;
      int64_t v;
      ok = read_rank(&s, end, origin, line, limit, &v, err);
      if (ok && !g_hash_table_add(seen, GSIZE_TO_POINTER((gsize)v + 1)))
        ok = refuse(err, origin, line, "rank %lld listed twice", (long long)v);
      if (ok)
        g_array_append_val(ranks, v);
    }
  }
  g_hash_table_destroy(seen);
  if (ok && after_comma && ranks->len > 0)
    ok = refuse(err, origin, line, "an empty element (the list ends with ',')");
  if (ok && !allow_empty && ranks->len == 0)
    ok = refuse(err, origin, line, "the file lists no rank");
  if (!ok) {
    g_array_free(ranks, TRUE);
    return NULL;
  }
  return ranks;
}

GArray *cs_rank_list_read(const char *path, int64_t limit, bool allow_empty, GError **err)
{
  gchar *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!cs_read_user_file(NULL, path, &text, &len, &e)) {
    g_set_error(err, CS_INPUT_ERROR, 1, "cannot read %s: %s", path, e->message);
    g_error_free(e);
    return NULL;
  }
  GArray *r = cs_rank_list_parse(text, len, path, limit, allow_empty, err);
  g_free(text);
  return r;
}
