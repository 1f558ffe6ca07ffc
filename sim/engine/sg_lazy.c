/* SimGrid on demand, for the collsim binary only.
 *
 * Loading libsimgrid 3.32 as Debian builds it (with ns-3: 45 shared
 * libraries, their symbols bound and their constructors run) costs 50-80 ms
 * of CPU per process, measured (bench/engines.sh; perf: half of it in the
 * dynamic loader): more than a native-engine run of 200,000 messages, and
 * paid by every untimed run and every test that starts the binary.  So the
 * two files that call SimGrid (sg_engine.c, sg_routes.c) are built as a
 * module of their own, collsim-simgrid.so, and the binary loads it with
 * dlopen at the first call that needs SimGrid; these functions stand in for
 * theirs until then.
 *
 * The module is $COLLSIM_SIMGRID_MODULE (a path) when set, else the one
 * beside the binary (the build tree), else the install's pkglibexecdir's.  It is
 * linked with -Bsymbolic (its own functions call each other, not these) and
 * takes what it needs of the rest of collsim from the binary, which exports
 * its symbols (-export-dynamic); RTLD_NOW finds a missing one at load.  A
 * module that cannot be loaded is an installation fault: one line, exit
 * status 1.
 *
 * Queries about the last run (retired processes, the clock, ...) answer as
 * if no run happened while SimGrid is not loaded: none did.  The tests and
 * benches link sg_engine.c and sg_routes.c themselves, without this file. */
#include "sim/engine/sg_engine.h"
#include "sim/engine/sg_routes.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef COLLSIM_MODULEDIR
#define COLLSIM_MODULEDIR "/usr/local/libexec/collsim"
#endif
#define MODULE_NAME "collsim-simgrid.so"

/* Every function of sg_engine.h and sg_routes.h that the module defines,
 * X(kind, return type, name, (parameters), (arguments), answer before
 * loading).  Kinds: START loads the module (a run, a load, a check that
 * asks SimGrid); ASK answers about the last run, which did not happen
 * while SimGrid is not loaded; ROUTES takes a cs_routes, which exists only
 * once cs_routes_open loaded the module. */
#define SG_CALLS(X)                                                                                                \
  X(START, gboolean, cs_engine_check_cfg, (const cs_engine_config *c, GError **err), (c, err), )                 \
  X(START, gboolean, cs_engine_load, (const cs_engine_config *c, GError **err), (c, err), )                      \
  X(START, gboolean, cs_engine_run,                                                                              \
    (const cs_engine_config *c, cs_proc *procs, cs_proc_main_fn fn, void *user, GError **err),                   \
    (c, procs, fn, user, err), )                                                                                 \
  X(START, cs_routes *, cs_routes_open,                                                                          \
    (const cs_engine_config *cfg, int64_t nodes, const cs_link_namer *namer, GError **err),                      \
    (cfg, nodes, namer, err), )                                                                                  \
  X(ASK, const char *, cs_engine_loaded_platform, (void), (), NULL)                                              \
  X(ASK, int, cs_engine_retired, (void), (), 0)                                                                  \
  X(ASK, int, cs_engine_failed_rank, (void), (), -1)                                                             \
  X(ASK, double, cs_engine_fail_time, (void), (), -1)                                                            \
  X(ASK, bool, cs_engine_deadlocked, (void), (), false)                                                          \
  X(ASK, int, cs_engine_stuck_count, (void), (), 0)                                                              \
  X(ASK, const cs_stuck *, cs_engine_stuck, (int *count), (count), (*count = 0, NULL))                           \
  X(ASK, double, cs_engine_clock, (void), (), 0)                                                                 \
  X(ASK, double, cs_engine_work, (void), (), 0)                                                                  \
  X(ROUTES, int64_t, cs_routes_nodes, (const cs_routes *r), (r), )                                               \
  X(ROUTES, int64_t, cs_routes_nlinks, (const cs_routes *r), (r), )                                              \
  X(ROUTES, const char *, cs_routes_link_name, (const cs_routes *r, int64_t id), (r, id), )                      \
  X(ROUTES, const char *, cs_routes_link_tier, (const cs_routes *r, int64_t id), (r, id), )                      \
  X(ROUTES, const char *, cs_routes_link_src, (const cs_routes *r, int64_t id), (r, id), )                       \
  X(ROUTES, const char *, cs_routes_link_dst, (const cs_routes *r, int64_t id), (r, id), )                       \
  X(ROUTES, gboolean, cs_routes_link_internal, (const cs_routes *r, int64_t id), (r, id), )                      \
  X(ROUTES, double, cs_routes_link_bandwidth, (const cs_routes *r, int64_t id), (r, id), )                       \
  X(ROUTES, double, cs_routes_link_latency, (const cs_routes *r, int64_t id), (r, id), )                         \
  X(ROUTES, int, cs_routes_ntiers, (const cs_routes *r), (r), )                                                  \
  X(ROUTES, const char *, cs_routes_tier_name, (const cs_routes *r, int tier), (r, tier), )                      \
  X(ROUTES, int, cs_routes_link_tier_index, (const cs_routes *r, int64_t id), (r, id), )                         \
  X(ROUTES, int64_t, cs_routes_tier_count, (const cs_routes *r, const char *tier), (r, tier), )                  \
  X(ROUTES, int, cs_routes_get, (cs_routes *r, int64_t a, int64_t b, const int32_t **links), (r, a, b, links), ) \
  X(ROUTES, int, cs_routes_get_direct, (cs_routes *r, int64_t a, int64_t b, const int32_t **links),              \
    (r, a, b, links), )                                                                                          \
  X(ROUTES, int, cs_routes_get_self, (cs_routes *r, int64_t a, const int32_t **links), (r, a, links), )          \
  X(ROUTES, int64_t, cs_routes_queries, (const cs_routes *r), (r), )

#define POINTER(kind, type, name, params, args, none) type(*name) params;
static struct {
  SG_CALLS(POINTER)
  void (*cs_routes_close)(cs_routes *r);
} sg;
static void *module; /* NULL: not loaded */

/* The first path that exists, opened; *why: dlopen's complaint. */
static void *open_module(char **why)
{
  const char *env = getenv("COLLSIM_SIMGRID_MODULE");
  char *self = g_file_read_link("/proc/self/exe", NULL), *dir = self ? g_path_get_dirname(self) : NULL;
  char *beside = dir ? g_build_filename(dir, MODULE_NAME, NULL) : NULL;
  bool given = env && *env; /* then that one only */
  const char *paths[] = {given ? env : NULL, given ? NULL : beside, given ? NULL : COLLSIM_MODULEDIR "/" MODULE_NAME};
  void *h = NULL;
  for (size_t i = 0; !h && i < G_N_ELEMENTS(paths); i++) {
    if (!paths[i] || (!given && !g_file_test(paths[i], G_FILE_TEST_EXISTS)))
      continue;
    if (!(h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL))) {
      g_free(*why);
      *why = g_strdup(dlerror());
    }
  }
  g_free(beside);
  g_free(dir);
  g_free(self);
  return h;
}

static void *resolve(void *h, const char *name)
{
  void *f = dlsym(h, name);
  if (!f) {
    fprintf(stderr, "collsim: error: %s lacks %s\n", MODULE_NAME, name);
    exit(1);
  }
  return f;
}

static void load(void)
{
  if (module)
    return;
  char *why = g_strdup_printf("no %s beside the binary or in %s", MODULE_NAME, COLLSIM_MODULEDIR);
  void *h = open_module(&why);
  if (!h) {
    fprintf(stderr, "collsim: error: cannot load SimGrid's engine: %s\n", why);
    exit(1);
  }
  g_free(why);
#define RESOLVE(kind, type, name, params, args, none) *(void **)&sg.name = resolve(h, #name);
  SG_CALLS(RESOLVE)
  *(void **)&sg.cs_routes_close = resolve(h, "cs_routes_close");
  module = h;
}

void cs_engine_preload(void) { load(); }

#define DEFINE_START(type, name, params, args, none)                                                               \
  type name params                                                                                                 \
  {                                                                                                                \
    load();                                                                                                        \
    return sg.name args;                                                                                           \
  }
#define DEFINE_ASK(type, name, params, args, none)                                                                 \
  type name params { return module ? sg.name args : none; }
#define DEFINE_ROUTES(type, name, params, args, none)                                                              \
  type name params { return sg.name args; }
#define DEFINE(kind, type, name, params, args, none) DEFINE_##kind(type, name, params, args, none)
SG_CALLS(DEFINE)

void cs_routes_close(cs_routes *r)
{
  if (r)
    sg.cs_routes_close(r);
}
