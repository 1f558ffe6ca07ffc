/* Checked numbers with units: the one parser behind every numeric option,
 * platform parameter and size in collsim (command lines, platform specs,
 * experiment and batch files).
 *
 * Accepted: plain decimal numbers only (digits, an optional fraction, an
 * optional exponent; no sign unless the quantity allows negatives, no hex,
 * no "nan" or "inf"), then a unit from the quantity's table (or none, which
 * means the quantity's base or the caller's default unit).  The value must be
 * finite after the unit is applied and inside [min, max]; every refusal is
 * one message naming the quantity, the text and the rule.
 *
 * Quantities and their units:
 *   bandwidth  bytes/s: Bps kBps KBps MBps GBps TBps KiBps MiBps GiBps TiBps,
 *              bps kbps Kbps Mbps Gbps Tbps (bits/s)
 *   time       seconds: s ms us ns ps
 *   size       bytes (exact integers up to 2^64-1): B, kB KB MB GB TB
 *              (powers of ten), KiB MiB GiB TiB (powers of two)
 *   count      a plain non-negative integer
 *   number     a plain decimal number
 */
#ifndef COLLSIM_UNITS_H
#define COLLSIM_UNITS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum {
  CS_QTY_NUMBER,    /* plain number, no unit */
  CS_QTY_BANDWIDTH, /* bytes per second */
  CS_QTY_TIME,      /* seconds */
} cs_quantity;

/* Parse `text` as a `qty`; a bare number is taken in `bare_mult` base units
 * (e.g. 1e-6 for an option given in microseconds, 1e6 for MB/s).  The value
 * must be finite and in [min, max].  `what` names it in messages
 * ("--o-send", "link parameter lat").  Error domain CS_INPUT_ERROR. */
bool cs_parse_quantity(const char *what, const char *text, cs_quantity qty, double bare_mult, double min,
                       double max, double *out, GError **err);

/* A size in bytes, exact: "4096", "64KiB", "1GB".  In [min, max]. */
bool cs_parse_size(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out, GError **err);

/* A plain integer (optionally negative when min < 0) in [min, max]. */
bool cs_parse_int(const char *what, const char *text, int64_t min, int64_t max, int64_t *out, GError **err);
/* The same for the full unsigned 64-bit range (seeds). */
bool cs_parse_u64(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out, GError **err);

/* Shortest decimal text that reads back as exactly x ("0.1", "1e-07"). */
void cs_shortest_double(char *buf, size_t size, double x);

/* x written with the largest unit of the quantity in which it is >= 1 and
 * reads back exactly ("10GBps", "100ns"), else in base units. */
void cs_format_quantity(GString *s, double x, cs_quantity qty);

/* Human form of a byte count in IEC units, 3 significant digits
 * ("1.50 MiB", "512 B"). */
void cs_human_bytes(char *buf, size_t size, uint64_t bytes);

#endif
