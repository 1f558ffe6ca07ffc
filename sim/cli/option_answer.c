/* The answer to the sweep's option query: see option_answer.h and
 * sim/sweep/option_query.h. */
#include "sim/cli/option_answer.h"
#include "sim/cli/frontend.h"
#include "sim/sweep/option_query.h"

#include <stdio.h>

static const char *kind_name(cs_opt_type t)
{
  switch (t) {
  case CS_OPT_FLAG: return "flag";
  case CS_OPT_STRING: return "string";
  case CS_OPT_CHOICE: return "choice";
  case CS_OPT_PATH_IN:
  case CS_OPT_PATH_STREAM: return "path-in";
  case CS_OPT_PATH_OUT: return "path-out";
  case CS_OPT_INT: return "int";
  case CS_OPT_U64: return "u64";
  case CS_OPT_QUANTITY: return "quantity";
  case CS_OPT_SIZE: return "size";
  case CS_OPT_LIST: return "list";
  }
  return "unknown";
}

void cs_option_query_answer(const GPtrArray *opts)
{
  const char *path = g_getenv(CS_OPTION_QUERY_ENV);
  if (!path || !*path)
    return;
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < opts->len; i++) {
    const cs_opt *o = g_ptr_array_index(opts, i);
    g_string_append_printf(s, "%s\t%s\n", o->name, kind_name(o->type));
  }
  if (!g_file_set_contents(path, s->str, (gssize)s->len, NULL))
    fprintf(stderr, "collsim: cannot answer %s=%s\n", CS_OPTION_QUERY_ENV, path);
  g_string_free(s, TRUE);
}
