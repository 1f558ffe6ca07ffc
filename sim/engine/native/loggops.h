/* The native engine's LogGOPS model (LogGOPSim's semantics; the rules are
 * at the top of loggops.c) and its interface to schedule sources.
 *
 * A SOURCE gives, rank by rank and on demand, the operations that became
 * free: at the start, when an operation starts (its `irequires`
 * dependants) and when it completes (its `requires` dependants), as op ids
 * of the rank, in the source's order.  Two sources exist: collsim's op
 * lists lowered as goal.h says (coll_source.h) and a GOAL graph
 * (goal_source.h). */
#ifndef COLLSIM_NATIVE_LOGGOPS_H
#define COLLSIM_NATIVE_LOGGOPS_H

#include "sim/contracts/goal.h"
#include "sim/engine/native/links.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* LogGOPSim's parameters, in its units: nanoseconds, nanoseconds per
 * byte, bytes.  Defaults (LogGOPSim's): L 2500, o 1500, g 1000, G 6,
 * S 65535, O 0.  links: the model "loggops-links" (links.c), whose run
 * needs net (the platform's links and routes, set by the driver for the
 * run); false: plain LogGOPS, net unused. */
typedef struct cs_loggops_params {
  uint64_t L, o, g, G, S, O;
  bool links;
  cs_link_switching switching; /* with links: loggops-links (store and forward) or loggops-cut-through */
  cs_link_net *net;
} cs_loggops_params;

void cs_loggops_defaults(cs_loggops_params *m);

/* The native engine's models, by name: one line each in loggops.c's table
 * (loggops, loggops-links, loggops-cut-through). */
typedef struct cs_native_model {
  const char *name;
  bool links;                  /* serialises messages on the platform's links (needs a platform) */
  cs_link_switching switching; /* with links: how a message crosses a route's links */
} cs_native_model;

/* The model named name, or NULL. */
const cs_native_model *cs_native_model_find(const char *name);
/* Their names joined by ", " (for messages). */
const char *cs_native_model_names(void);
/* The name of the model m runs. */
const char *cs_native_model_of(const cs_loggops_params *m);
/* Sets m's links and switching to model's. */
void cs_native_model_apply(const cs_native_model *model, cs_loggops_params *m);
/* "L,o,g,G,S,O" (all six, non-negative integers; S below 2^32 as
 * LogGOPSim's); CS_INPUT_ERROR naming the problem. */
bool cs_loggops_parse(const char *text, cs_loggops_params *m, GError **err);

/* Op ids made free, appended in order. */
typedef struct ng_ids {
  uint64_t *id;
  size_t n, cap;
} ng_ids;

static inline void ng_ids_add(ng_ids *b, uint64_t id)
{
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 16;
    b->id = g_renew(uint64_t, b->id, b->cap);
  }
  b->id[b->n++] = id;
}

typedef struct ng_source {
  void *self;
  uint32_t p;
  uint32_t ncpus, nnics;
  void (*roots)(void *self, uint32_t rank, ng_ids *out);
  void (*started)(void *self, uint32_t rank, uint64_t op, ng_ids *out);
  void (*done)(void *self, uint32_t rank, uint64_t op, ng_ids *out);
  void (*get)(void *self, uint32_t rank, uint64_t op, cs_goal_op *out);
  /* After the run: true when every op of the rank completed; else false
   * and the first op not completed (its text in `waiting`). */
  bool (*finished)(void *self, uint32_t rank, GString *waiting);
} ng_source;

typedef struct cs_native_result {
  uint64_t finish_ns;   /* the latest CPU of any rank (LogGOPSim's "maximum finishing time") */
  uint32_t last_rank;   /* the first rank finishing then */
  uint64_t messages, bytes, max_message_bytes;
  uint64_t size_mismatches; /* receives matched with a message of another size */
  uint64_t events;
  uint64_t op_lists; /* cs_native_run_coll: the packed op lists it made and kept (a list
                        ranks share, coll_source.c, counts once) */
} cs_native_result;

/* A message matched by its receive: src, dst ranks, its bytes and tag,
 * the time its send started and the time it was matched (ns). */
typedef struct cs_native_message {
  uint32_t src, dst, tag;
  uint64_t bytes, sent_ns, matched_ns;
} cs_native_message;
typedef void (*cs_native_delivery)(void *user, const cs_native_message *m);

/* Runs the source's schedule under LogGOPS.  False with CS_INPUT_ERROR
 * when it deadlocks (naming the first rank that did not finish and the op
 * it waits on) or leaves a message no receive matched. */
bool cs_loggops_run(const ng_source *src, const cs_loggops_params *m, cs_native_delivery on_delivery, void *user,
                    cs_native_result *out, GError **err);

#endif
