/* The executor of collsim's op lists on the native engine (see
 * coll_source.h).  One record per rank: the cursor of the lowering over
 * the rank's packed op list, the id of the current step's first op and how many of
 * the step's ops have not completed.  Op ids count the rank's ops in
 * execution order; only the current step's ops are ever in flight.
 *
 * Ranks whose lists are the same up to a rotation of the ranks share one
 * copy: a list without full ops is stored with relative peers
 * (cs_packed_make_relative) and looked up in a table of the lists in use,
 * with a count of their users.  Every rank of a dissemination barrier or of
 * Bruck's algorithms then reads one list (a million-rank barrier held 690
 * MB of lists, 656 bytes per rank; a ring's lists are loops, short
 * already).  Lists of fewer than SHARE_MIN_OPS ops are not worth
 * it; and once SHARE_TRIAL lists have been looked up with fewer than
 * three in four found, the rest are kept as they are (every rank its own
 * list: a two-tier scatter, each list's peer the root; or one in two
 * shared, as recursive doubling's, where the table costs more time than
 * the memory it saves: a microsecond a rank at 1,048,576 ranks). */
#include "sim/engine/native/coll_source.h"
#include "sim/contracts/errors.h"

#include <inttypes.h>
#include <string.h>

typedef struct rank_state {
  cs_lower cur; /* over the rank's packed op list while it runs (cur.l) */
  uint64_t first_id;
  uint32_t outstanding;
  bool step_is_send; /* the current step is a send (kept here: started() asks at every op) */
} rank_state;

typedef struct coll_source {
  const cs_coll_algo *algo;
  const cs_sched_params *prm;
  cs_lower_ctx lower;
  rank_state *rank;
  cs_oplist scratch;
  GHashTable *shared; /* relative list -> its users (a uint64_t) */
  const cs_packed *last; /* the list share() returned last, and its users */
  uint64_t *last_users;
  uint64_t tries, found; /* lists looked up, found in use */
} coll_source;

enum { SHARE_MIN_OPS = 8, SHARE_TRIAL = 1024 };

/* ---- lists shared by rotation ---- */

static guint list_hash(gconstpointer key)
{
  const cs_packed *l = key;
  uint64_t h = 1469598103934665603u ^ l->n;
  for (uint32_t i = 0; i < l->n; i++) {
    h = (h ^ l->op[i].word) * 1099511628211u;
    h = (h ^ ((uint64_t)l->op[i].peer << 32 | (uint32_t)l->op[i].tag)) * 1099511628211u;
  }
  return (guint)(h ^ h >> 32);
}

static gboolean list_equal(gconstpointer a, gconstpointer b)
{
  const cs_packed *x = a, *y = b;
  return x->n == y->n && memcmp(x->op, y->op, x->n * sizeof x->op[0]) == 0;
}

/* rank's list l (freshly packed), or the same list another rank uses;
 * *relative: its peers are relative to the rank. */
static const cs_packed *share(coll_source *S, cs_packed *l, uint32_t rank, bool *relative)
{
  bool pays = S->tries < SHARE_TRIAL || 4 * S->found >= 3 * S->tries;
  *relative = pays && l->n >= SHARE_MIN_OPS && cs_packed_make_relative(l, rank, (uint32_t)S->prm->p);
  if (!*relative)
    return l;
  S->tries++;
  gpointer key, users;
  if (S->last && list_equal(S->last, l)) { /* the usual case: the rank before's */
    key = (gpointer)S->last;
    users = S->last_users;
  } else if (!g_hash_table_lookup_extended(S->shared, l, &key, &users)) {
    users = g_new0(uint64_t, 1);
    g_hash_table_insert(S->shared, l, users);
    key = l;
  }
  if (key != l) {
    S->found++;
    g_free(l);
  }
  S->last = key;
  S->last_users = users;
  ++*S->last_users;
  return key;
}

static void release(coll_source *S, const cs_lower *cur)
{
  if (!cur->peers) {
    g_free((cs_packed *)cur->l);
    return;
  }
  uint64_t *users = cur->l == S->last ? S->last_users : g_hash_table_lookup(S->shared, cur->l);
  if (--*users > 0)
    return;
  if (cur->l == S->last)
    S->last = NULL;
  g_hash_table_remove(S->shared, cur->l); /* frees the list and its count */
}

/* The current step's ops become free (or the rank's list is released). */
static void offer_step(coll_source *S, rank_state *r, ng_ids *out)
{
  if (cs_lower_finished(&r->cur)) {
    release(S, &r->cur);
    r->cur.l = NULL;
    r->step_is_send = false;
    return;
  }
  r->step_is_send = cs_lower_step_is_send(&r->cur);
  r->outstanding = cs_lower_step_size(&r->cur);
  for (uint32_t j = 0; j < r->outstanding; j++)
    ng_ids_add(out, r->first_id + j);
}

static void roots(void *self, uint32_t rank, ng_ids *out)
{
  coll_source *S = self;
  rank_state *r = &S->rank[rank];
  cs_oplist_clear(&S->scratch);
  S->algo->ops(S->prm, rank, &S->scratch);
  bool relative;
  const cs_packed *l = share(S, cs_lower_pack(&S->lower, S->scratch.op, S->scratch.n), rank, &relative);
  cs_lower_start(&r->cur, &S->lower, l);
  if (relative)
    cs_lower_rotate(&r->cur, rank, (uint32_t)S->prm->p);
  offer_step(S, r, out);
}

static void next_step(coll_source *S, rank_state *r, ng_ids *out)
{
  r->first_id += cs_lower_step_size(&r->cur);
  cs_lower_next(&r->cur);
  offer_step(S, r, out);
}

/* A send step is passed when its send starts (the next step irequires it). */
static void started(void *self, uint32_t rank, uint64_t op, ng_ids *out)
{
  coll_source *S = self;
  rank_state *r = &S->rank[rank];
  if (op == r->first_id && r->step_is_send)
    next_step(S, r, out);
}

/* Other steps when all their ops completed (a passed send completes later). */
static void done(void *self, uint32_t rank, uint64_t op, ng_ids *out)
{
  coll_source *S = self;
  rank_state *r = &S->rank[rank];
  if (op < r->first_id)
    return;
  if (--r->outstanding == 0)
    next_step(S, r, out);
}

static void get(void *self, uint32_t rank, uint64_t op, cs_goal_op *out)
{
  rank_state *r = &((coll_source *)self)->rank[rank];
  cs_lower_op(&r->cur, (uint32_t)(op - r->first_id), out);
}

static bool finished(void *self, uint32_t rank, GString *waiting)
{
  rank_state *r = &((coll_source *)self)->rank[rank];
  if (cs_lower_finished(&r->cur))
    return true;
  cs_goal_op op;
  cs_lower_op(&r->cur, 0, &op);
  g_string_append_printf(waiting, "its op %" PRIu64 " (", r->first_id + 1);
  cs_goal_op_text(&op, waiting);
  if (cs_lower_step_size(&r->cur) > 1)
    g_string_append_printf(waiting, ", first of a group of %u receives", cs_lower_step_size(&r->cur));
  g_string_append_c(waiting, ')');
  return false;
}

bool cs_native_run_coll(const cs_coll_algo *a, const cs_sched_params *prm, double gamma, const cs_loggops_params *m,
                        cs_native_delivery on_delivery, void *user, cs_native_result *out, GError **err)
{
  if (prm->p > UINT32_MAX - 1)
    return cs_input_error(err, "the native engine takes at most 2^32 - 2 ranks (p = %" PRId64 ")", prm->p);
  coll_source S = {.algo = a, .prm = prm, .shared = g_hash_table_new_full(list_hash, list_equal, g_free, g_free)};
  cs_lower_ctx_init(&S.lower, prm, gamma * 1e9);
  S.rank = g_new0(rank_state, prm->p);
  cs_oplist_init(&S.scratch);
  ng_source src = {.self = &S, .p = (uint32_t)prm->p, .ncpus = 1, .nnics = 1, .roots = roots, .started = started,
                   .done = done, .get = get, .finished = finished};
  bool ok = cs_loggops_run(&src, m, on_delivery, user, out, err);
  out->op_lists = (uint64_t)prm->p - S.found; /* every rank made one list (roots) */
  for (int64_t r = 0; r < prm->p; r++)
    if (S.rank[r].cur.l && !S.rank[r].cur.peers) /* a deadlock leaves lists */
      g_free((cs_packed *)S.rank[r].cur.l);
  g_hash_table_destroy(S.shared);
  g_free(S.rank);
  cs_oplist_free(&S.scratch);
  return ok;
}
