/* Error domains (see errors.h). */
#include "sim/contracts/errors.h"

G_DEFINE_QUARK(collsim-input-error, cs_input_error)
G_DEFINE_QUARK(collsim-internal-error, cs_internal_error)
