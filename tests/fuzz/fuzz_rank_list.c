/* libFuzzer harness for members files and rank lists:
 * cs_rank_list_parse (sim/contracts/rank_list.h).
 *
 * The input is the file's text, every byte of it (NUL bytes included).  It
 * is parsed under several limits, with and without allow_empty, and:
 *  - the call returns a list exactly when no error is set;
 *  - every rank returned is in [0, limit), and no rank appears twice;
 *  - a reference tokenizer written here from the header's rules (ranks are
 *    decimal digits separated by space, tab, newline, CR, VT, FF or commas;
 *    '#' starts a comment running to the end of the line; any other byte
 *    outside a comment, a NUL included, is refused; a ',' with no rank
 *    since the start or the last ',', or a ',' after the last rank, leaves
 *    an empty element and is refused) accepts exactly the
 *    texts the parser accepts, and finds the same ranks in the same order.
 * The reference treats the bytes of a comment as free text (a NUL there is
 * not refused), as the parser does.
 * A violated property aborts (libFuzzer reports it as a crash). */
#include "sim/contracts/rank_list.h"

#include <glib.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NAME "fuzz_rank_list"
#include "tests/fuzz/fuzz_common.h"

/* The reference reading: ok and the ranks in file order, or not ok when the
 * text is malformed or a rank is out of range or repeated. */
typedef struct reference {
  bool ok;
  GArray *ranks; /* uint64_t */
} reference;

static bool separator(unsigned char c) { return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

static reference reference_read(const unsigned char *t, size_t len, int64_t limit)
{
  reference r = {true, g_array_new(FALSE, FALSE, sizeof(uint64_t))};
  GHashTable *seen = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  size_t i = 0;
  bool comma_empty = true; /* a ',' now would leave an empty element */
  bool comma_last = false; /* the last ',' came after the last rank */
  while (r.ok && i < len) {
    if (t[i] == '#') {
      while (i < len && t[i] != '\n')
        i++;
    } else if (t[i] == ',' && comma_empty) {
      r.ok = false;
    } else if (separator(t[i])) {
      comma_last = comma_last || t[i] == ',';
      comma_empty = comma_empty || t[i] == ',';
      i++;
    } else {
      comma_empty = comma_last = false;
      /* a token: everything up to a separator, a comment or the end */
      size_t j = i;
      while (j < len && !separator(t[j]) && t[j] != '#')
        j++;
      uint64_t v = 0;
      bool digits = true, overflow = false;
      for (size_t k = i; k < j; k++) {
        if (t[k] < '0' || t[k] > '9') {
          digits = false;
          break;
        }
        unsigned d = (unsigned)(t[k] - '0');
        overflow = overflow || v > (UINT64_MAX - d) / 10;
        v = v * 10 + d;
      }
      if (!digits || overflow || v >= (uint64_t)limit) {
        r.ok = false;
        break;
      }
      gint64 key = (gint64)v;
      if (g_hash_table_contains(seen, &key)) {
        r.ok = false;
        break;
      }
      g_hash_table_add(seen, g_memdup2(&key, sizeof key));
      g_array_append_val(r.ranks, v);
      i = j;
    }
  }
  g_hash_table_destroy(seen);
  r.ok = r.ok && !comma_last;
  return r;
}

static void fuzz_one(const char *text, size_t len, int64_t limit, bool allow_empty, const reference *want)
{
  GError *err = NULL;
  GArray *got = cs_rank_list_parse(text, len, "fuzz.members", limit, allow_empty, &err);
  CHECK((got != NULL) == (err == NULL), "limit %" PRId64 ": returned %p with error %s", limit, (void *)got,
        err ? err->message : "(none)");
  CHECK(got || strncmp(err->message, "fuzz.members, line ", 19) == 0, "error does not name the file and line: %s",
        err->message);
  bool want_ok = want->ok && (allow_empty || want->ranks->len > 0);
  CHECK((got != NULL) == want_ok, "limit %" PRId64 ", allow_empty %d: the parser %s (%s), the reference %s", limit,
        allow_empty, got ? "accepts" : "refuses", err ? err->message : "no error",
        want_ok ? "accepts" : "refuses");
  g_clear_error(&err);
  if (!got)
    return;
  CHECK(got->len == want->ranks->len, "limit %" PRId64 ": %u ranks, the reference finds %u", limit, got->len,
        want->ranks->len);
  GHashTable *seen = g_hash_table_new(g_int64_hash, g_int64_equal);
  for (guint i = 0; i < got->len; i++) {
    int64_t *r = &g_array_index(got, int64_t, i);
    CHECK(*r >= 0 && *r < limit, "rank %" PRId64 " outside [0, %" PRId64 ")", *r, limit);
    CHECK(g_hash_table_add(seen, r), "rank %" PRId64 " returned twice", *r);
    CHECK((uint64_t)*r == g_array_index(want->ranks, uint64_t, i), "rank %u is %" PRId64 ", the reference reads %" PRIu64,
          i, *r, g_array_index(want->ranks, uint64_t, i));
  }
  g_hash_table_destroy(seen);
  g_array_free(got, TRUE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* a private copy, so that a read past the end is caught by ASan */
  char *text = g_malloc(size + 1);
  memcpy(text, data, size);
  static const int64_t limits[] = {1, 10, 1000, INT32_MAX, INT64_MAX};
  for (size_t l = 0; l < G_N_ELEMENTS(limits); l++) {
    reference want = reference_read((const unsigned char *)text, size, limits[l]);
    fuzz_one(text, size, limits[l], true, &want);
    fuzz_one(text, size, limits[l], false, &want);
    g_array_free(want.ranks, TRUE);
  }
  g_free(text);
  return 0;
}
