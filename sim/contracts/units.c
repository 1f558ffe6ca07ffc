/* Checked numbers with units (see units.h). */
#include "sim/contracts/units.h"
#include "sim/contracts/errors.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* value = number * mult / div: both steps exact or correctly rounded for the
 * powers of ten and two used here (100ns = 100 / 1e9, exactly 1e-7). */
typedef struct unit {
  const char *suffix;
  double mult, div;
} unit;

/* The first FORMAT_UNITS entries are those cs_format_quantity writes. */
static const unit bw_units[] = {
    {"GBps", 1e9, 1},  {"MBps", 1e6, 1},  {"kBps", 1e3, 1},  {"Bps", 1, 1},
    {"TBps", 1e12, 1}, {"KBps", 1e3, 1},  {"TiBps", 1099511627776.0, 1},   {"GiBps", 1073741824.0, 1},
    {"MiBps", 1048576.0, 1}, {"KiBps", 1024.0, 1}, {"Tbps", 1e12, 8}, {"Gbps", 1e9, 8}, {"Mbps", 1e6, 8},
    {"kbps", 1e3, 8},  {"Kbps", 1e3, 8},  {"bps", 1, 8},
};
static const unit time_units[] = {
    {"s", 1, 1}, {"ms", 1, 1e3}, {"us", 1, 1e6}, {"ns", 1, 1e9}, {"ps", 1, 1e12},
};
#define FORMAT_UNITS 4

static const unit *units_of(cs_quantity q, size_t *n)
{
  switch (q) {
  case CS_QTY_BANDWIDTH: *n = G_N_ELEMENTS(bw_units); return bw_units;
  case CS_QTY_TIME: *n = G_N_ELEMENTS(time_units); return time_units;
  default: *n = 0; return NULL;
  }
}

/* Length of the decimal number at the start of s: [-]digits[.digits][e[+-]digits]
 * or [-].digits...; 0 when there is none. */
static size_t decimal_prefix(const char *s, bool allow_sign)
{
  const char *p = s;
  if (allow_sign && (*p == '-' || *p == '+'))
    p++;
  const char *digits = p;
  while (g_ascii_isdigit(*p))
    p++;
  if (*p == '.')
    for (p++; g_ascii_isdigit(*p); p++)
      ;
  if (p == digits || (p == digits + 1 && *digits == '.'))
    return 0;
  if ((*p == 'e' || *p == 'E') && (g_ascii_isdigit(p[1]) || ((p[1] == '+' || p[1] == '-') && g_ascii_isdigit(p[2]))))
    for (p += 2; g_ascii_isdigit(*p); p++)
      ;
  return (size_t)(p - s);
}

static char *known_units(const unit *u, size_t n)
{
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < n; i++)
    g_string_append_printf(s, "%s%s", s->len ? ", " : "", u[i].suffix);
  return g_string_free(s, FALSE);
}

bool cs_parse_quantity(const char *what, const char *text, cs_quantity qty, double bare_mult, double min,
                       double max, double *out, GError **err)
{
  if (!text || !*text)
    return cs_input_error(err, "%s: empty value", what);
  size_t len = decimal_prefix(text, min < 0);
  if (len == 0)
    return cs_input_error(err, "%s: '%s' is not a %snumber", what, text, min < 0 ? "" : "non-negative ");
  char *number = g_strndup(text, len);
  errno = 0;
  double x = g_ascii_strtod(number, NULL);
  g_free(number);
  if (errno == ERANGE || !isfinite(x))
    return cs_input_error(err, "%s: '%s' is out of range", what, text);
  const char *suffix = text + len;
  size_t nunits;
  const unit *u = units_of(qty, &nunits);
  double v;
  if (!*suffix) {
    v = x * bare_mult;
  } else {
    size_t i = 0;
    while (i < nunits && strcmp(suffix, u[i].suffix) != 0)
      i++;
    if (i == nunits) {
      if (nunits == 0)
        return cs_input_error(err, "%s: '%s' is not a number", what, text);
      char *known = known_units(u, nunits);
      cs_input_error(err, "%s: '%s': unknown unit '%s' (known: %s, or none)", what, text, suffix, known);
      g_free(known);
      return false;
    }
    v = x * u[i].mult / u[i].div;
  }
  if (!isfinite(v) || (v != 0 && fabs(v) < DBL_MIN)) /* subnormal: would not print back exactly */
    return cs_input_error(err, "%s: '%s' is out of range", what, text);
  if (qty == CS_QTY_BANDWIDTH && v <= 0)
    return cs_input_error(err, "%s: '%s': a bandwidth must be positive", what, text);
  if (v < min || v > max) {
    char lo[32], hi[32];
    cs_shortest_double(lo, sizeof lo, min / bare_mult);
    cs_shortest_double(hi, sizeof hi, max / bare_mult);
    if (max >= HUGE_VAL || max >= DBL_MAX)
      return cs_input_error(err, "%s: '%s' is out of range (at least %s)", what, text, lo);
    return cs_input_error(err, "%s: '%s' is out of range [%s, %s]", what, text, lo, hi);
  }
  *out = v;
  return true;
}

static const struct {
  const char *suffix;
  uint64_t mult;
} size_units[] = {
    {"", 1},          {"B", 1},          {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30},
    {"TiB", 1ull << 40}, {"kB", 1000}, {"KB", 1000}, {"MB", 1000000}, {"GB", 1000000000}, {"TB", 1000000000000ull},
};

bool cs_parse_size(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out, GError **err)
{
  if (!text || !g_ascii_isdigit(*text))
    return cs_input_error(err, "%s: '%s' is not a size (bytes, or with a unit: KiB, MiB, GiB, TiB, kB, MB, GB, TB)",
                       what, text ? text : "");
  const char *end = text;
  while (g_ascii_isdigit(*end))
    end++;
  char *digits = g_strndup(text, (gsize)(end - text));
  errno = 0;
  guint64 v = g_ascii_strtoull(digits, NULL, 10);
  g_free(digits);
  bool overflow = errno == ERANGE;
  for (size_t i = 0; i < G_N_ELEMENTS(size_units); i++) {
    if (strcmp(end, size_units[i].suffix) != 0)
      continue;
    if (overflow || v > UINT64_MAX / size_units[i].mult)
      return cs_input_error(err, "%s: '%s' exceeds 2^64-1 bytes", what, text);
    v *= size_units[i].mult;
    if (v < min || v > max)
      return cs_input_error(err, "%s: '%s' is out of range [%" PRIu64 ", %" PRIu64 "] bytes", what, text, min, max);
    *out = v;
    return true;
  }
  return cs_input_error(err, "%s: '%s': unknown unit '%s' (B, KiB, MiB, GiB, TiB, kB, MB, GB, TB)", what, text, end);
}

bool cs_parse_u64(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out, GError **err)
{
  if (!text || !g_ascii_isdigit(*text))
    return cs_input_error(err, "%s: '%s' is not a non-negative integer", what, text ? text : "");
  const char *end = text;
  while (g_ascii_isdigit(*end))
    end++;
  if (*end)
    return cs_input_error(err, "%s: '%s' is not a non-negative integer", what, text);
  errno = 0;
  guint64 v = g_ascii_strtoull(text, NULL, 10);
  if (errno == ERANGE || v < min || v > max)
    return cs_input_error(err, "%s: '%s' is out of range [%" PRIu64 ", %" PRIu64 "]", what, text, min, max);
  *out = v;
  return true;
}

bool cs_parse_int(const char *what, const char *text, int64_t min, int64_t max, int64_t *out, GError **err)
{
  if (!text || !*text)
    return cs_input_error(err, "%s: empty value", what);
  bool negative = text[0] == '-' && min < 0;
  const char *digits = negative ? text + 1 : text;
  uint64_t mag;
  GError *e = NULL;
  if (!cs_parse_u64(what, digits, 0, UINT64_MAX, &mag, &e) || mag > (uint64_t)INT64_MAX) {
    g_clear_error(&e);
    const char *magnitude = text[0] == '-' ? text + 1 : text; /* "-1" where min >= 0 is out of range */
    if (g_ascii_isdigit(*magnitude) && strspn(magnitude, "0123456789") == strlen(magnitude))
      return cs_input_error(err, "%s: '%s' is out of range [%" PRId64 ", %" PRId64 "]", what, text, min, max);
    return cs_input_error(err, "%s: '%s' is not an integer", what, text);
  }
  int64_t v = negative ? -(int64_t)mag : (int64_t)mag;
  if (v < min || v > max)
    return cs_input_error(err, "%s: '%s' is out of range [%" PRId64 ", %" PRId64 "]", what, text, min, max);
  *out = v;
  return true;
}

void cs_shortest_double(char *buf, size_t size, double x)
{
  if (x == floor(x) && fabs(x) < 1e15) {
    snprintf(buf, size, "%.0f", x);
    return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    char fmt[16];
    snprintf(fmt, sizeof fmt, "%%.%dg", prec);
    g_ascii_formatd(buf, (int)size, fmt, x);
    if (g_ascii_strtod(buf, NULL) == x)
      return;
  }
}

void cs_format_quantity(GString *s, double x, cs_quantity qty)
{
  char num[64];
  size_t nunits;
  const unit *u = units_of(qty, &nunits);
  for (size_t i = 0; i < FORMAT_UNITS && i < nunits && x != 0; i++) {
    double v = x * u[i].div / u[i].mult;
    if (v < 1)
      continue;
    cs_shortest_double(num, sizeof num, v);
    if (g_ascii_strtod(num, NULL) * u[i].mult / u[i].div == x) {
      g_string_append_printf(s, "%s%s", num, u[i].suffix);
      return;
    }
  }
  cs_shortest_double(num, sizeof num, x);
  g_string_append_printf(s, "%s%s", num, qty == CS_QTY_TIME ? "s" : qty == CS_QTY_BANDWIDTH ? "Bps" : "");
}

void cs_human_bytes(char *buf, size_t size, uint64_t b)
{
  static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = (double)b;
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    u++;
  }
  if (u == 0)
    snprintf(buf, size, "%" PRIu64 " B", b);
  else
    snprintf(buf, size, "%.*f %s", v >= 100 ? 0 : v >= 10 ? 1 : 2, v, names[u]);
}
