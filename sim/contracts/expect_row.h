/* One row's count against a user's formula (issue 32), for any kind of row:
 * a result record (sim/cli/expect.c, --expect-messages) or a line of a
 * sweep's CSV (sim/sweep/sweep_expect.c, an experiment's `expect:`).
 *
 * The formula's variables are the row's numeric fields by name, plus the
 * aliases c = colors and p = n where the row has no field of that name.
 * A count matches when it equals the formula's value to 1e-9 relative
 * (counts are exact integers; the tolerance only absorbs the rounding of
 * the formula's arithmetic in doubles). */
#ifndef COLLSIM_EXPECT_ROW_H
#define COLLSIM_EXPECT_ROW_H

#include "sim/contracts/formula.h"

#include <glib.h>
#include <stdbool.h>

/* The row's field `name` as a number; false when absent, empty or not a
 * number. */
typedef bool (*cs_row_number_fn)(const void *row, const char *name, double *value);

/* The field an expression's variable names (an alias resolved); has tells
 * whether the row (or the row's kind) has a field of that name. */
typedef bool (*cs_row_has_fn)(const void *row, const char *name);
const char *cs_expect_field(const char *variable, cs_row_has_fn has, const void *row);

typedef enum {
  CS_EXPECT_MATCH,
  CS_EXPECT_MISMATCH,   /* `why`: "messages = 3455, 'EXPR' = 3233.5 (k = 2, m = 491, n = 1024)" */
  CS_EXPECT_NO_VALUE,   /* a variable is empty in this row; `why` names it */
  CS_EXPECT_NO_COLUMN,  /* the row has no such count; `why` says so */
} cs_expect_result;

/* Checks row's `column` (messages, bytes) against f (whose text is `text`). */
cs_expect_result cs_expect_row(const cs_formula *f, const char *text, const char *column, cs_row_number_fn get,
                               cs_row_has_fn has, const void *row, GString *why);

#endif
