/* libFuzzer harness for the checked numbers of sim/contracts/units.h:
 * cs_parse_size, cs_parse_int, cs_parse_u64 and cs_parse_quantity.
 *
 * The input is the text itself (cut at its first NUL byte, as a command-line
 * argument would be).  Every parser runs on it under several bounds, and:
 *  - every call either succeeds with no error set or fails with one set;
 *  - sizes, integers and seeds are exact: a reference reading written here
 *    (digits, then for sizes one unit of the header's table) accepts exactly
 *    the texts the parser accepts and finds the same value; an accepted plain
 *    number printed again equals the text without its leading zeros (and
 *    without the sign of a negative zero);
 *  - a quantity, when accepted, is finite, inside [min, max], positive for
 *    a bandwidth, written as a plain decimal number followed by nothing or
 *    by one of the units the header lists for its kind (no hex, nan, inf);
 *    a bare number in base units equals its decimal reading; and
 *    cs_format_quantity writes it back as a text that reads back exactly.
 * A violated property aborts (libFuzzer reports it as a crash). */
#include "sim/contracts/units.h"

#include <glib.h>
#include <stdint.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NAME "fuzz_units"
#include "tests/fuzz/fuzz_common.h"

/* An error is set exactly when the call fails. */
static void check_outcome(const char *what, const char *text, bool ok, GError **err)
{
  CHECK(ok == (*err == NULL), "%s('%s'): returned %d with error %s", what, text, ok,
        *err ? (*err)->message : "(none)");
  CHECK(ok || (*err)->message[0] != '\0', "%s('%s'): empty error message", what, text);
  g_clear_error(err);
}

/* ---- the reference reading of digits ---- */

/* Value of the decimal digits s[0..n), with *overflow set above 2^64-1. */
static uint64_t digits_value(const char *s, size_t n, bool *overflow)
{
  uint64_t v = 0;
  *overflow = false;
  for (size_t i = 0; i < n; i++) {
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10)
      *overflow = true;
    v = v * 10 + d;
  }
  return v;
}

/* The digits without their leading zeros ("0" for zero). */
static const char *strip_zeros(const char *s, size_t n, size_t *out_len)
{
  size_t i = 0;
  while (i + 1 < n && s[i] == '0')
    i++;
  *out_len = n - i;
  return s + i;
}

/* The printed value equals the written digits (sign handled by the caller). */
static void check_reprint(const char *what, const char *text, const char *digits, size_t ndigits, bool negative,
                          const char *printed)
{
  size_t n;
  const char *canon = strip_zeros(digits, ndigits, &n);
  bool zero = n == 1 && canon[0] == '0';
  GString *want = g_string_new(negative && !zero ? "-" : "");
  g_string_append_len(want, canon, (gssize)n);
  CHECK(strcmp(want->str, printed) == 0, "%s('%s'): value printed as %s, written as %s", what, text, printed,
        want->str);
  g_string_free(want, TRUE);
}

/* ---- sizes ---- */

/* The units of units.h's header comment: none or B, kB KB MB GB TB (powers
 * of ten), KiB MiB GiB TiB (powers of two). */
static const struct {
  const char *suffix;
  uint64_t mult;
} SIZE_UNITS[] = {
    {"", 1},
    {"B", 1},
    {"kB", UINT64_C(1000)},
    {"KB", UINT64_C(1000)},
    {"MB", UINT64_C(1000000)},
    {"GB", UINT64_C(1000000000)},
    {"TB", UINT64_C(1000000000000)},
    {"KiB", UINT64_C(1) << 10},
    {"MiB", UINT64_C(1) << 20},
    {"GiB", UINT64_C(1) << 30},
    {"TiB", UINT64_C(1) << 40},
};

static void fuzz_size(const char *text, uint64_t min, uint64_t max)
{
  GError *err = NULL;
  uint64_t got = 12345;
  bool ok = cs_parse_size("fuzz size", text, min, max, &got, &err);
  check_outcome("cs_parse_size", text, ok, &err);

  size_t nd = strspn(text, "0123456789");
  bool overflow = false;
  uint64_t v = digits_value(text, nd, &overflow);
  const char *suffix = text + nd;
  bool want_ok = false;
  uint64_t want = 0;
  for (size_t i = 0; nd > 0 && i < G_N_ELEMENTS(SIZE_UNITS); i++) {
    if (strcmp(suffix, SIZE_UNITS[i].suffix) != 0)
      continue;
    if (!overflow && v <= UINT64_MAX / SIZE_UNITS[i].mult) {
      want = v * SIZE_UNITS[i].mult;
      want_ok = want >= min && want <= max;
    }
    break;
  }
  CHECK(ok == want_ok, "cs_parse_size('%s', [%" PRIu64 ", %" PRIu64 "]) %s, the reference %s", text, min, max,
        ok ? "accepts" : "refuses", want_ok ? "accepts" : "refuses");
  if (!ok)
    return;
  CHECK(got == want, "cs_parse_size('%s') = %" PRIu64 ", expected %" PRIu64, text, got, want);
  CHECK(got >= min && got <= max, "cs_parse_size('%s') = %" PRIu64 " outside the bounds", text, got);
  if (*suffix == '\0') {
    char printed[32];
    snprintf(printed, sizeof printed, "%" PRIu64, got);
    check_reprint("cs_parse_size", text, text, nd, false, printed);
  }
}

/* ---- integers ---- */

static void fuzz_u64(const char *text, uint64_t min, uint64_t max)
{
  GError *err = NULL;
  uint64_t got = 12345;
  bool ok = cs_parse_u64("fuzz seed", text, min, max, &got, &err);
  check_outcome("cs_parse_u64", text, ok, &err);

  size_t nd = strspn(text, "0123456789");
  bool overflow = false;
  uint64_t v = digits_value(text, nd, &overflow);
  bool want_ok = nd > 0 && text[nd] == '\0' && !overflow && v >= min && v <= max;
  CHECK(ok == want_ok, "cs_parse_u64('%s', [%" PRIu64 ", %" PRIu64 "]) %s, the reference %s", text, min, max,
        ok ? "accepts" : "refuses", want_ok ? "accepts" : "refuses");
  if (!ok)
    return;
  CHECK(got == v && got >= min && got <= max, "cs_parse_u64('%s') = %" PRIu64, text, got);
  char printed[32];
  snprintf(printed, sizeof printed, "%" PRIu64, got);
  check_reprint("cs_parse_u64", text, text, nd, false, printed);
}

static void fuzz_int(const char *text, int64_t min, int64_t max)
{
  GError *err = NULL;
  int64_t got = 12345;
  bool ok = cs_parse_int("fuzz int", text, min, max, &got, &err);
  check_outcome("cs_parse_int", text, ok, &err);

  /* a sign only when negatives are allowed; magnitudes up to 2^63-1 (the
   * parser reads the magnitude first, so -2^63 itself is refused) */
  bool negative = text[0] == '-' && min < 0;
  const char *digits = negative ? text + 1 : text;
  size_t nd = strspn(digits, "0123456789");
  bool overflow = false;
  uint64_t mag = digits_value(digits, nd, &overflow);
  bool want_ok = nd > 0 && digits[nd] == '\0' && !overflow && mag <= (uint64_t)INT64_MAX;
  int64_t v = 0;
  if (want_ok) {
    v = negative ? -(int64_t)mag : (int64_t)mag;
    want_ok = v >= min && v <= max;
  }
  CHECK(ok == want_ok, "cs_parse_int('%s', [%" PRId64 ", %" PRId64 "]) %s, the reference %s", text, min, max,
        ok ? "accepts" : "refuses", want_ok ? "accepts" : "refuses");
  if (!ok)
    return;
  CHECK(got == v && got >= min && got <= max, "cs_parse_int('%s') = %" PRId64 ", expected %" PRId64, text, got, v);
  char printed[32];
  snprintf(printed, sizeof printed, "%" PRId64, got);
  check_reprint("cs_parse_int", text, digits, nd, negative, printed);
}

/* ---- quantities ---- */

/* The units units.h lists for each kind of quantity. */
static const char *const BW_UNITS[] = {"Bps",  "kBps", "KBps", "MBps", "GBps", "TBps", "KiBps", "MiBps",
                                       "GiBps", "TiBps", "bps", "kbps", "Kbps", "Mbps", "Gbps", "Tbps", NULL};
static const char *const TIME_UNITS[] = {"s", "ms", "us", "ns", "ps", NULL};
static const char *const NO_UNITS[] = {NULL};

static bool documented_unit(cs_quantity q, const char *suffix)
{
  if (*suffix == '\0')
    return true;
  const char *const *u = q == CS_QTY_BANDWIDTH ? BW_UNITS : q == CS_QTY_TIME ? TIME_UNITS : NO_UNITS;
  for (; *u; u++)
    if (strcmp(*u, suffix) == 0)
      return true;
  return false;
}

static const char *qty_name(cs_quantity q)
{
  return q == CS_QTY_BANDWIDTH ? "bandwidth" : q == CS_QTY_TIME ? "time" : "number";
}

static void fuzz_quantity(const char *text, cs_quantity q, double bare_mult, double min, double max)
{
  GError *err = NULL;
  double got = 12345;
  bool ok = cs_parse_quantity("fuzz quantity", text, q, bare_mult, min, max, &got, &err);
  check_outcome("cs_parse_quantity", text, ok, &err);
  if (!ok)
    return;
  const char *kind = qty_name(q);
  CHECK(isfinite(got), "%s '%s' = %g", kind, text, got);
  CHECK(got >= min && got <= max, "%s '%s' = %.17g outside [%g, %g]", kind, text, got, min, max);
  CHECK(q != CS_QTY_BANDWIDTH || got > 0, "bandwidth '%s' = %.17g", text, got);

  size_t nnum = strspn(text, "0123456789.eE+-");
  const char *suffix = text + nnum;
  CHECK(nnum > 0 && strpbrk(text, "0123456789") != NULL && strpbrk(text, "0123456789") < suffix,
        "%s '%s' accepted without a number", kind, text);
  CHECK(g_ascii_isdigit(text[0]) || text[0] == '.' || (min < 0 && (text[0] == '-' || text[0] == '+')),
        "%s '%s' accepted with a sign though min = %g", kind, text, min);
  CHECK(documented_unit(q, suffix), "%s '%s' accepted with the unit '%s'", kind, text, suffix);
  if (*suffix == '\0' && bare_mult == 1) {
    double plain = g_ascii_strtod(text, NULL);
    CHECK(got == plain, "%s '%s' = %.17g, its decimal reading is %.17g", kind, text, got, plain);
  }

  /* written back, it reads back exactly */
  GString *s = g_string_new(NULL);
  cs_format_quantity(s, got, q);
  double again = 0;
  bool back = cs_parse_quantity("fuzz quantity again", s->str, q, 1, q == CS_QTY_BANDWIDTH ? 0 : -DBL_MAX, DBL_MAX,
                                &again, &err);
  CHECK(back, "%s '%s' = %.17g is written '%s', which reads back as: %s", kind, text, got, s->str,
        err ? err->message : "?");
  CHECK(again == got, "%s '%s' = %.17g is written '%s', which reads back as %.17g", kind, text, got, s->str, again);
  g_string_free(s, TRUE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = g_strndup((const char *)data, size);

  fuzz_size(text, 0, UINT64_MAX);
  fuzz_size(text, 1, UINT64_C(1) << 40);
  fuzz_size(text, 1000, 1000000);

  fuzz_u64(text, 0, UINT64_MAX);
  fuzz_u64(text, 1, 1000);

  fuzz_int(text, INT64_MIN, INT64_MAX);
  fuzz_int(text, 0, INT64_MAX);
  fuzz_int(text, 1, 1024);
  fuzz_int(text, -1000, 1000);

  /* the bounds and bare units the platform families and options use */
  fuzz_quantity(text, CS_QTY_NUMBER, 1, -DBL_MAX, DBL_MAX);
  fuzz_quantity(text, CS_QTY_NUMBER, 1, 1e-3, 1e7);
  fuzz_quantity(text, CS_QTY_BANDWIDTH, 1, 1e-300, 1e18);
  fuzz_quantity(text, CS_QTY_BANDWIDTH, 1e6, 1, 1e15);
  fuzz_quantity(text, CS_QTY_TIME, 1, 0, 1e9);
  fuzz_quantity(text, CS_QTY_TIME, 1e-6, -1, 1);

  g_free(text);
  return 0;
}
