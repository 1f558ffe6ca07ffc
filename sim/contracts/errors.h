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

#endif
