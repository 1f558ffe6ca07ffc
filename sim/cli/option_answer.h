/* The front end's side of the sweep's option query (sim/sweep/option_query.h):
 * when the environment asks (CS_OPTION_QUERY_ENV names a file), write the
 * command's options (a GPtrArray of cs_opt *) into it, one "NAME<TAB>KIND"
 * line each.  cs_cli_parse calls it with the command's options, its own and
 * the common ones, before --help is handled. */
#ifndef COLLSIM_OPTION_ANSWER_H
#define COLLSIM_OPTION_ANSWER_H

#include <glib.h>

void cs_option_query_answer(const GPtrArray *opts);

#endif
