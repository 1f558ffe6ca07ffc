/* Run one simulation in a child process.  SimGrid can be initialised once
 * per process, so a command that needs several simulations (the tree search
 * of seed 002, a range of n) runs each in a forked child, which sends its
 * fixed-size result back through a pipe. */
#ifndef COLLSIM_FORKED_H
#define COLLSIM_FORKED_H

#include <glib.h>
#include <stddef.h>

/* fn fills out (out_size bytes) and returns TRUE, or FALSE with a message in
 * err.  Returns what fn returned in the child; FALSE with err set (domain
 * CS_INTERNAL_ERROR) when the child dies or cannot start. */
typedef gboolean (*cs_forked_fn)(void *arg, void *out, GError **err);
gboolean cs_run_forked(cs_forked_fn fn, void *arg, void *out, size_t out_size, GError **err);

#endif
