/* Error domains shared by every layer.  The front ends map them to exit
 * statuses once (sim/cli/frontend.c): CS_INPUT_ERROR is bad input (exit 2),
 * CS_INTERNAL_ERROR and anything else an internal failure (exit 1). */
#ifndef COLLSIM_ERRORS_H
#define COLLSIM_ERRORS_H

#include <glib.h>

#define CS_INPUT_ERROR (cs_input_error_quark())
#define CS_INTERNAL_ERROR (cs_internal_error_quark())
GQuark cs_input_error_quark(void);
GQuark cs_internal_error_quark(void);

/* Sets a bad-input error (CS_INPUT_ERROR) with a printf message; returns
 * false, so a check can end with `return cs_input_error(err, ...)`. */
gboolean cs_input_error(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

#endif
