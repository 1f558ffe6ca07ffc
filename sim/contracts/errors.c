/* Error domains (see errors.h). */
#include "sim/contracts/errors.h"

G_DEFINE_QUARK(collsim-input-error, cs_input_error)
G_DEFINE_QUARK(collsim-internal-error, cs_internal_error)

gboolean cs_input_error(GError **err, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error_literal(err, CS_INPUT_ERROR, 1, msg);
  g_free(msg);
  return FALSE;
}
