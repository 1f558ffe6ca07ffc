/* One communicator-creation experiment (see comm_run.h).
 *
 * Verification, for every creation of the run:
 *  - every proclet holds the communicator it should (split: the proclets of
 *    its colour sorted by key, then rank; create: its group in the group's
 *    order), with the right rank and size, or none;
 *  - the map's members are exactly the expected list, in order (decoded
 *    once per distinct map, every holder checked to be of that group);
 *  - all members of a new communicator share its context id, which is not
 *    COMM_WORLD's; ids are unique among the communicators of every OS
 *    process over the whole run (<LID, LBI>: unique in the world, per
 *    creation and over the run; MPICH's mask: unique per proclet);
 *  - shared maps were built exactly once per OS process and communicator
 *    (share off: once per member; not checked for create-group, whose
 *    protocols build a map per round);
 *  - create-group (seed 004): no process outside the groups sent or
 *    received a message;
 *  - the messages counted equal the protocol's documented formula, when it
 *    has one (every repetition counted).
 */
#include "sim/drivers/comm_run.h"
#include "sim/drivers/comm_bench.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/groupmap_strategy.h"
#include "sim/contracts/prng.h"
#include "sim/contracts/transport.h"

#include <string.h>

typedef struct slot {
  cs_comm *comm;
  cs_create_status status;
} slot;

typedef struct run_state {
  const cs_comm_params *prm;
  cs_world *world;
  cs_ctxids *ids;
  cs_comm_request rq;
  int32_t *color, *key, *group_of, *group_rank;
  slot *slots;              /* n x repeat */
  cs_proc *procs;
  cs_bench_plan *bench;
  double *created_at;       /* per proclet: end of its last creation */
  cs_bench_times *times;    /* per proclet (bench) */
} run_state;

static void proclet_main(cs_proc *p, void *user)
{
  run_state *st = user;
  int r = cs_rank(p);
  cs_proc_join_mem_pool(p, cs_world_mem_pool(st->world, cs_world_process_of(st->world, r)));
  cs_comm *world = cs_comm_world(p, st->world);
  for (int it = 0; it < st->prm->repeat; it++) {
    cs_comm_request rq = st->rq;
    rq.seq = (uint32_t)it;
    slot *s = &st->slots[(int64_t)r * st->prm->repeat + it];
    s->status = st->prm->proto->run(p, world, &rq, &s->comm);
  }
  st->created_at[r] = cs_now(p);
  cs_comm *last = st->slots[(int64_t)r * st->prm->repeat + st->prm->repeat - 1].comm;
  if (st->bench && last)
    cs_bench_member(p, last, st->bench, &st->times[r]);
  cs_comm_free(p, world);
  cs_serve(p);
}

/* ---- inputs ---- */

static void make_group_split_inputs(run_state *st)
{
  const cs_comm_params *prm = st->prm;
  for (int64_t r = 0; r < prm->n; r++) {
    st->color[r] = CS_COLOR_UNDEFINED;
    st->key[r] = 0;
  }
  for (int64_t i = 0; i < prm->split_group_size; i++) {
    st->color[prm->split_group[i]] = 0;
    st->key[prm->split_group[i]] = (int32_t)i;
  }
}

static void make_split_inputs(run_state *st)
{
  const cs_comm_params *prm = st->prm;
  int64_t n = prm->n;
  st->color = g_new(int32_t, (gsize)n);
  st->key = g_new(int32_t, (gsize)n);
  st->rq.color = st->color;
  st->rq.key = st->key;
  if (prm->split_group) {
    make_group_split_inputs(st);
    return;
  }
  for (int64_t r = 0; r < n; r++) {
    st->color[r] = cs_layout_color(prm, r);
    if (prm->key_rule == CS_KEY_RANK)
      st->key[r] = (int32_t)r;
    else if (prm->key_rule == CS_KEY_REVERSE)
      st->key[r] = (int32_t)(n - 1 - r);
    else
      st->key[r] = (int32_t)(cs_mix64(prm->seed * 0x9E3779B97F4A7C15ull + (uint64_t)r) >> 33);
  }
}

static void make_create_inputs(run_state *st)
{
  const cs_comm_params *prm = st->prm;
  st->group_of = g_new(int32_t, (gsize)prm->n);
  st->group_rank = g_new(int32_t, (gsize)prm->n);
  for (int64_t r = 0; r < prm->n; r++)
    st->group_of[r] = st->group_rank[r] = -1;
  for (guint g = 0; g < prm->groups->len; g++) {
    const cs_wid *w = g_ptr_array_index(prm->groups, g);
    int64_t m = g_array_index(prm->group_sizes, int64_t, g);
    for (int64_t i = 0; i < m; i++) {
      st->group_of[w[i]] = (int32_t)g;
      st->group_rank[w[i]] = (int32_t)i;
    }
  }
  st->rq.groups = (const cs_wid *const *)prm->groups->pdata;
  st->rq.group_size = (const int64_t *)(void *)prm->group_sizes->data;
  st->rq.ngroups = (int)prm->groups->len;
  st->rq.group_of = st->group_of;
  st->rq.group_rank = st->group_rank;
}

/* ---- expected result ---- */

typedef struct expected {
  int64_t groups;
  int64_t *start, *size; /* per group: offset into members */
  cs_wid *members;       /* every group's world ranks, in group order */
  int32_t *group_of;     /* per proclet, -1 none */
  int32_t *rank_in;      /* per proclet */
} expected;

static int32_t *sort_color, *sort_key;
static int by_color_key_rank(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  if (sort_color[x] != sort_color[y])
    return sort_color[x] < sort_color[y] ? -1 : 1;
  if (sort_key[x] != sort_key[y])
    return sort_key[x] < sort_key[y] ? -1 : 1;
  return (x > y) - (x < y);
}

static void expected_alloc(expected *x, int64_t n, int64_t groups, int64_t members)
{
  x->groups = groups;
  x->start = g_new0(int64_t, (gsize)groups + 1);
  x->size = g_new0(int64_t, (gsize)groups + 1);
  x->members = g_new(cs_wid, (gsize)members + 1);
  x->group_of = g_new(int32_t, (gsize)n);
  x->rank_in = g_new(int32_t, (gsize)n);
  for (int64_t r = 0; r < n; r++)
    x->group_of[r] = x->rank_in[r] = -1;
}

static void expected_split(const run_state *st, expected *x)
{
  int64_t all = st->prm->n, n = 0;
  int *order = g_new(int, (gsize)all);
  for (int64_t r = 0; r < all; r++)
    if (st->color[r] != CS_COLOR_UNDEFINED)
      order[n++] = (int)r;
  sort_color = st->color;
  sort_key = st->key;
  qsort(order, (size_t)n, sizeof(int), by_color_key_rank);
  int64_t groups = 0;
  for (int64_t i = 0; i < n; i++)
    groups += i == 0 || st->color[order[i]] != st->color[order[i - 1]];
  expected_alloc(x, all, groups, n);
  int64_t g = -1;
  for (int64_t i = 0; i < n; i++) {
    if (i == 0 || st->color[order[i]] != st->color[order[i - 1]])
      x->start[++g] = i;
    x->members[i] = (cs_wid)order[i];
    x->group_of[order[i]] = (int32_t)g;
    x->rank_in[order[i]] = (int32_t)(i - x->start[g]);
    x->size[g]++;
  }
  g_free(order);
}

static void expected_create(const run_state *st, expected *x)
{
  const cs_comm_params *prm = st->prm;
  int64_t total = 0;
  for (guint g = 0; g < prm->groups->len; g++)
    total += g_array_index(prm->group_sizes, int64_t, g);
  expected_alloc(x, prm->n, prm->groups->len, total);
  int64_t at = 0;
  for (guint g = 0; g < prm->groups->len; g++) {
    int64_t m = g_array_index(prm->group_sizes, int64_t, g);
    x->start[g] = at;
    x->size[g] = m;
    memcpy(x->members + at, g_ptr_array_index(prm->groups, g), sizeof(cs_wid) * (size_t)m);
    at += m;
  }
  memcpy(x->group_of, st->group_of, sizeof(int32_t) * (size_t)prm->n);
  memcpy(x->rank_in, st->group_rank, sizeof(int32_t) * (size_t)prm->n);
}

static void expected_free(expected *x)
{
  g_free(x->start);
  g_free(x->size);
  g_free(x->members);
  g_free(x->group_of);
  g_free(x->rank_in);
}

/* ---- verification ---- */

typedef struct verifier {
  const run_state *st;
  const expected *x;
  GHashTable *map_group;   /* cs_shared_map * -> group + 1 (checked) */
  GHashTable *ctx_owner;   /* <LID,LBI>: ctx -> (creation, group) + 1 over the run */
  GHashTable *proc_ctx;    /* (OS process, ctx) -> (creation, group) + 1 */
  uint32_t *group_ctx;     /* per group of this creation */
  char *why;
} verifier;

static bool fail(verifier *v, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool fail(verifier *v, const char *fmt, ...)
{
  if (!v->why) {
    va_list ap;
    va_start(ap, fmt);
    v->why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
  }
  return false;
}

static bool check_map_content(verifier *v, const cs_comm *c, int64_t g)
{
  gpointer seen = g_hash_table_lookup(v->map_group, c->map);
  if (seen)
    return GPOINTER_TO_SIZE(seen) == (gsize)g + 1 ? true : fail(v, "one group map is held by two groups");
  g_hash_table_insert(v->map_group, c->map, GSIZE_TO_POINTER((gsize)g + 1));
  const cs_groupmap *gm = cs_shared_map_groupmap(c->map);
  int64_t m = v->x->size[g];
  if (cs_gm_members(gm) != m)
    return fail(v, "group %lld: map has %lld members, expected %lld", (long long)g, (long long)cs_gm_members(gm),
                (long long)m);
  cs_wid *got = g_new(cs_wid, (gsize)m + 1);
  cs_gm_decode((cs_groupmap *)gm, 0, m, got);
  bool same = memcmp(got, v->x->members + v->x->start[g], sizeof(cs_wid) * (size_t)m) == 0;
  g_free(got);
  return same ? true : fail(v, "group %lld: map members differ from the expected order", (long long)g);
}

static bool check_ctx(verifier *v, int it, int64_t r, const cs_comm *c, int64_t g)
{
  const run_state *st = v->st;
  if (c->ctx == CS_CTX_WORLD)
    return fail(v, "proclet %lld got COMM_WORLD's context id", (long long)r);
  if (v->group_ctx[g] == UINT32_MAX)
    v->group_ctx[g] = c->ctx;
  else if (v->group_ctx[g] != c->ctx)
    return fail(v, "members of group %lld hold different context ids", (long long)g);
  gsize tagv = (gsize)it * (gsize)(v->x->groups + 1) + (gsize)g + 1;
  if (st->ids->scheme == CS_CTXID_LIDLBI) {
    gpointer owner = g_hash_table_lookup(v->ctx_owner, GUINT_TO_POINTER(c->ctx));
    if (owner && GPOINTER_TO_SIZE(owner) != tagv)
      return fail(v, "context id %u given to two communicators", c->ctx);
    g_hash_table_insert(v->ctx_owner, GUINT_TO_POINTER(c->ctx), GSIZE_TO_POINTER(tagv));
  }
  uint64_t pk = (uint64_t)cs_world_process_of(st->world, r) << 32 | c->ctx;
  gpointer had = g_hash_table_lookup(v->proc_ctx, &pk);
  bool shared_key = st->world && cs_world_cfg(st->world)->share;
  bool own_process = st->prm->per_process == 1; /* an MPI process: ids unique per process */
  if (had && GPOINTER_TO_SIZE(had) != tagv && (shared_key || own_process))
    return fail(v, "context id %u not unique in OS process %lld", c->ctx, (long long)(pk >> 32));
  if (!had) {
    uint64_t *k = g_new(uint64_t, 1);
    *k = pk;
    g_hash_table_insert(v->proc_ctx, k, GSIZE_TO_POINTER(tagv));
  }
  return true;
}

static bool check_proclet(verifier *v, int it, int64_t r, const slot *s)
{
  const expected *x = v->x;
  int64_t g = x->group_of[r];
  if (s->status == CS_CREATE_NO_CONTEXT_ID)
    return true; /* counted as exhausted, not a wrong result */
  if (s->status != CS_CREATE_OK)
    return fail(v, "proclet %lld: no group map could be built", (long long)r);
  if (g < 0)
    return s->comm ? fail(v, "proclet %lld is in no group but got a communicator", (long long)r) : true;
  const cs_comm *c = s->comm;
  if (!c)
    return fail(v, "proclet %lld got no communicator", (long long)r);
  if (c->size != x->size[g] || c->rank != x->rank_in[r])
    return fail(v, "proclet %lld: rank %d of %d, expected %d of %lld", (long long)r, c->rank, c->size, x->rank_in[r],
                (long long)x->size[g]);
  return check_map_content(v, c, g) && check_ctx(v, it, r, c, g);
}

/* Builds of each map: once per OS process holding members (share on) or
 * once per member (off). */
static int64_t expected_builds(const run_state *st, const expected *x)
{
  if (!cs_world_cfg(st->world)->share) {
    int64_t total = 0;
    for (int64_t g = 0; g < x->groups; g++)
      total += x->size[g];
    return total;
  }
  int64_t builds = 0;
  GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (int64_t g = 0; g < x->groups; g++) {
    g_hash_table_remove_all(seen);
    for (int64_t i = 0; i < x->size[g]; i++)
      g_hash_table_add(seen, GSIZE_TO_POINTER((gsize)cs_world_process_of(st->world, x->members[x->start[g] + i]) + 1));
    builds += g_hash_table_size(seen);
  }
  g_hash_table_destroy(seen);
  return builds;
}

static bool verify_creation(verifier *v, int it, cs_comm_result *res)
{
  const run_state *st = v->st;
  int repeat = st->prm->repeat;
  bool exhausted = false;
  for (int64_t g = 0; g < v->x->groups; g++)
    v->group_ctx[g] = UINT32_MAX;
  for (int64_t r = 0; r < st->prm->n; r++) {
    const slot *s = &st->slots[r * repeat + it];
    exhausted |= s->status == CS_CREATE_NO_CONTEXT_ID;
    if (!check_proclet(v, it, r, s))
      return false;
  }
  res->exhausted += exhausted;
  for (int64_t g = 0; g < v->x->groups; g++)
    res->created += v->group_ctx[g] != UINT32_MAX;
  return true;
}

static bool verify_run(run_state *st, cs_comm_result *res)
{
  expected x = {0};
  if (st->prm->proto->op == CS_COMM_SPLIT)
    expected_split(st, &x);
  else
    expected_create(st, &x);
  verifier v = {.st = st, .x = &x};
  v.map_group = g_hash_table_new(g_direct_hash, g_direct_equal);
  v.ctx_owner = g_hash_table_new(g_direct_hash, g_direct_equal);
  v.proc_ctx = g_hash_table_new_full(cs_u64_hash, g_int64_equal, g_free, NULL);
  v.group_ctx = g_new(uint32_t, (gsize)x.groups + 1);
  bool ok = true;
  for (int it = 0; ok && it < st->prm->repeat; it++)
    ok = verify_creation(&v, it, res);
  res->maps_expected = expected_builds(st, &x) * (res->exhausted ? 0 : st->prm->repeat);
  bool group_op = st->prm->proto->op == CS_COMM_CREATE_GROUP;
  if (ok && group_op && res->nonmember_messages > 0)
    ok = fail(&v, "processes outside the groups sent or received %llu messages",
              (unsigned long long)res->nonmember_messages);
  if (ok && res->has_formula && !res->exhausted && res->messages != res->messages_expected)
    ok = fail(&v, "%llu messages, the documented formula gives %llu", (unsigned long long)res->messages,
              (unsigned long long)res->messages_expected);
  if (ok && !group_op && !res->exhausted && res->maps_built != res->maps_expected)
    ok = fail(&v, "group maps built %lld times, expected %lld (once per %s and communicator)",
              (long long)res->maps_built, (long long)res->maps_expected,
              cs_world_cfg(st->world)->share ? "OS process" : "member");
  for (int64_t r = 0; ok && st->times && r < st->prm->n; r++)
    if (st->times[r].gather_wrong)
      ok = fail(&v, "the gather at group rank 0 (proclet %lld) holds a wrong word", (long long)r);
  res->verified = ok;
  res->why = v.why;
  g_hash_table_destroy(v.map_group);
  g_hash_table_destroy(v.ctx_owner);
  g_hash_table_destroy(v.proc_ctx);
  g_free(v.group_ctx);
  expected_free(&x);
  return ok;
}

/* ---- summary ---- */

static double max_of(const double *v, int64_t n, const run_state *st, bool members_only)
{
  double m = 0;
  for (int64_t r = 0; r < n; r++) {
    bool member = st->slots[r * st->prm->repeat + st->prm->repeat - 1].comm != NULL;
    if ((!members_only || member) && v[r] > m)
      m = v[r];
  }
  return m;
}

/* Phase times and, for the last communicator of the first member, the
 * space against ARRAY maps (one copy per OS process holding members). */
static void summarise_bench(run_state *st, cs_comm_result *res)
{
  const cs_comm_params *prm = st->prm;
  int64_t n = prm->n;
  res->create_s = max_of(st->created_at, n, st, false);
  if (!st->bench || n < 1)
    return;
  double *p2p = g_new0(double, (gsize)n), *gat = g_new0(double, (gsize)n);
  for (int64_t r = 0; r < n; r++) {
    p2p[r] = st->times[r].p2p_end;
    gat[r] = st->times[r].gather_end;
  }
  double p2p_end = max_of(p2p, n, st, true);
  res->p2p_s = p2p_end - res->create_s;
  res->gather_s = max_of(gat, n, st, true) - p2p_end;
  g_free(p2p);
  g_free(gat);
  GHashTable *procs = g_hash_table_new(g_direct_hash, g_direct_equal);
  const cs_comm *first = NULL;
  for (int64_t r = 0; r < n; r++) {
    const cs_comm *c = st->slots[r * prm->repeat + prm->repeat - 1].comm;
    if (c && (!first || c->map == first->map)) {
      first = c;
      g_hash_table_add(procs, GSIZE_TO_POINTER((gsize)cs_world_process_of(st->world, r) + 1));
    }
  }
  if (first) {
    int64_t copies = g_hash_table_size(procs);
    res->array_bytes_per_process = 4 * (int64_t)first->size;
    int64_t ours = (int64_t)cs_shared_map_bytes(first->map);
    res->space_saved_bytes = prm->space_comms * copies * (res->array_bytes_per_process - ours);
  }
  g_hash_table_destroy(procs);
}

static int by_int32(const void *a, const void *b)
{
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* A split's group sizes (colour order, the undefined colour left out). */
static GArray *split_group_sizes(const run_state *st)
{
  int64_t n = st->prm->n, m = 0;
  int32_t *c = g_new(int32_t, (gsize)n + 1);
  for (int64_t r = 0; r < n; r++)
    if (st->color[r] != CS_COLOR_UNDEFINED)
      c[m++] = st->color[r];
  qsort(c, (size_t)m, sizeof *c, by_int32);
  GArray *sizes = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int64_t a = 0, b; a < m; a = b) {
    for (b = a + 1; b < m && c[b] == c[a]; b++)
      ;
    int64_t size = b - a;
    g_array_append_val(sizes, size);
  }
  g_free(c);
  return sizes;
}

static void count_formula(const run_state *st, cs_comm_result *res)
{
  const cs_comm_params *prm = st->prm;
  if (!prm->proto->messages || prm->bench)
    return;
  if (prm->proto->formula_creations > 0 && prm->repeat > prm->proto->formula_creations)
    return;
  if (cs_comm_protocol_formula_waived(prm->proto, prm->per_process, prm->share))
    return;
  res->has_formula = true;
  if (prm->proto->op == CS_COMM_SPLIT) {
    GArray *sizes = split_group_sizes(st);
    res->messages_expected =
        prm->proto->messages(prm->n, (const int64_t *)(void *)sizes->data, (int)sizes->len) * (uint64_t)prm->repeat;
    g_array_free(sizes, TRUE);
    return;
  }
  res->messages_expected = prm->proto->messages(prm->n, st->rq.group_size, st->rq.ngroups) * (uint64_t)prm->repeat;
}

static void summarise(run_state *st, cs_comm_result *res)
{
  const cs_comm_params *prm = st->prm;
  count_formula(st, res);
  for (int64_t r = 0; r < prm->n; r++) {
    const cs_counters *c = cs_proc_counters(&st->procs[r], CS_PHASE_ALGO);
    if (st->group_of && st->group_of[r] < 0)
      res->nonmember_messages += c->messages + cs_proc_received(&st->procs[r]);
    res->messages += c->messages;
    res->bytes += c->bytes;
    res->wakeups += cs_proc_counters(&st->procs[r], CS_PHASE_LOCAL)->messages;
    if (c->max_message_bytes > res->max_message_bytes)
      res->max_message_bytes = c->max_message_bytes;
    int64_t peak = cs_proc_mem_peak_words(&st->procs[r]) * 8;
    if (peak > res->peak_mem_bytes_per_proclet_max)
      res->peak_mem_bytes_per_proclet_max = peak;
    res->peak_mem_bytes_per_proclet_mean += (double)peak / (double)prm->n;
  }
  for (int64_t q = 0; q < cs_world_processes(st->world); q++) {
    uint64_t b = cs_world_map_bytes_peak(st->world, q);
    if (b > res->map_bytes_per_process_max)
      res->map_bytes_per_process_max = b;
    int64_t peak = cs_world_mem_pool(st->world, q)->peak * 8;
    if (peak > res->peak_mem_bytes_per_process_max)
      res->peak_mem_bytes_per_process_max = peak;
  }
  res->map_bytes_total = cs_world_map_bytes_total_peak(st->world);
  res->maps_built = cs_world_maps_built(st->world);
  res->reps = cs_world_reps_used(st->world);
  res->sim_time_s = cs_procs_clock();
  summarise_bench(st, res);
}

static void state_free(run_state *st)
{
  if (st->slots && st->procs)
    for (int64_t r = 0; r < st->prm->n; r++) {
      for (int it = 0; it < st->prm->repeat; it++)
        cs_comm_free(&st->procs[r], st->slots[r * st->prm->repeat + it].comm);
      cs_proc_release(&st->procs[r]);
    }
  g_free(st->slots);
  g_free(st->procs);
  g_free(st->created_at);
  g_free(st->times);
  cs_bench_plan_free(st->bench);
  g_free(st->color);
  g_free(st->key);
  g_free(st->group_of);
  g_free(st->group_rank);
  cs_ctxids_free(st->ids);
  cs_world_free(st->world);
}

static cs_world *make_world(const cs_comm_params *prm)
{
  cs_world_config wc;
  cs_world_config_defaults(&wc);
  wc.n = prm->n;
  wc.per_process = prm->per_process;
  wc.per_machine = prm->per_machine;
  wc.share = prm->share && prm->proto->shares_maps;
  wc.map = prm->map;
  wc.cpu_factor = prm->cpu_factor;
  return cs_world_new(&wc);
}

/* A set representation named by --map cannot hold an unordered group: bad
 * input, said before the run. */
static bool check_map_fits(const run_state *st, GError **err)
{
  const char *map = st->prm->map;
  const cs_gm_rep *rep = cs_gm_strategy_find(map) ? NULL : cs_gm_rep_find(map);
  if (!rep || rep->kind != CS_GM_SET)
    return true;
  expected x = {0};
  if (st->prm->proto->op == CS_COMM_SPLIT)
    expected_split(st, &x);
  else
    expected_create(st, &x);
  bool ok = true;
  for (int64_t g = 0; ok && g < x.groups; g++)
    for (int64_t i = 1; ok && i < x.size[g]; i++)
      if (x.members[x.start[g] + i] <= x.members[x.start[g] + i - 1])
        ok = cs_input_error(err, "--map %s holds sets only: group %lld is not in increasing rank order "
                            "(use wtr+%s or a strategy)", map, (long long)g, map);
  expected_free(&x);
  return ok;
}

int cs_comm_run(const cs_comm_params *prm, cs_comm_result *res, GError **err)
{
  memset(res, 0, sizeof *res);
  run_state st = {.prm = prm};
  st.world = make_world(prm);
  st.ids = cs_ctxids_new(prm->proto->scheme, prm->n, prm->lid_bits, prm->lbi_bits);
  st.rq = (cs_comm_request){.op = prm->proto->op, .ids = st.ids};
  if (prm->proto->op == CS_COMM_SPLIT)
    make_split_inputs(&st);
  else
    make_create_inputs(&st);
  st.rq.tag_base = prm->tag_base;
  st.slots = g_new0(slot, (gsize)prm->n * (gsize)prm->repeat);
  st.procs = g_new0(cs_proc, (gsize)prm->n);
  st.created_at = g_new0(double, (gsize)prm->n);
  if (prm->bench) {
    int64_t m = prm->split_group ? prm->split_group_size : g_array_index(prm->group_sizes, int64_t, 0);
    st.bench = cs_bench_plan_new(m, prm->bench_messages, prm->bench_gathers, prm->seed);
    st.times = g_new0(cs_bench_times, (gsize)prm->n);
  }
  cs_engine_config ec = prm->engine;
  ec.n = (int)prm->n;
  ec.cores = prm->ranks_per_host > 0 ? prm->ranks_per_host : (int)prm->per_process;
  ec.shared_cpu = prm->per_process > 1; /* proclets of an OS process take turns on its processor */
  cs_comm_result expected = {0};
  count_formula(&st, &expected);
  ec.progress_messages = expected.has_formula ? (double)expected.messages_expected : 0; /* progress against it */
  gint64 t0 = g_get_monotonic_time();
  int rc = 0;
  if (!check_map_fits(&st, err))
    rc = 2;
  else if (!cs_procs_run(&prm->procs, &ec, st.procs, proclet_main, &st, err))
    rc = err && *err && (*err)->domain == CS_INPUT_ERROR ? 2 : 1;
  else if (cs_procs_retired() != prm->n) {
    char *stuck = cs_procs_first_stuck();
    g_set_error(err, CS_INTERNAL_ERROR, 1, "%s %s deadlocked: %d of %lld proclets finished%s%s", prm->proto->impl,
                cs_comm_op_name(prm->proto->op), cs_procs_retired(), (long long)prm->n, stuck ? "; " : "",
                stuck ? stuck : "");
    g_free(stuck);
    rc = 1;
  } else {
    res->wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
    summarise(&st, res);
    if (!verify_run(&st, res)) {
      g_set_error(err, CS_INTERNAL_ERROR, 1, "verification failed: %s", res->why);
      rc = 1;
    }
  }
  state_free(&st);
  return rc;
}

void cs_comm_result_clear(cs_comm_result *r)
{
  g_free(r->why);
  g_free(r->reps);
  memset(r, 0, sizeof *r);
}

enum {
  C_OP, C_SET, C_IMPL, C_METHOD, C_CPM, C_N, C_COLORS, C_GROUPS, C_GROUP_SIZE, C_MAP, C_SHARED, C_IDS, C_REPEAT,
  C_VERIFIED, C_CREATED, C_EXHAUSTED, C_SIM_TIME, C_MESSAGES, C_MESSAGES_EXPECTED, C_MESSAGES_FORMULA, C_NONMEMBER_MESSAGES, C_BYTES,
  C_WAKEUPS, C_PEAK_PROCLET, C_PEAK_PROCESS, C_MAP_BYTES_PROCESS, C_MAP_BYTES_TOTAL, C_MAPS_BUILT, C_CREATE_S,
  C_P2P_MESSAGES, C_P2P_S, C_GATHERS, C_GATHER_S, C_SPACE_COMMS, C_SPACE_SAVED, C_PLATFORM, C_SEED, C_WALL,
};

#define BENCH "--bench"
static const cs_column columns[] = {
    [C_OP] = {"op", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the operation (split, create, create-group; bench)"},
    [C_SET] = {"set", CS_COL_TEXT, NULL, "", BENCH, CS_COL_KEY, "the Section 8 set's name"},
    [C_IMPL] = {"impl", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the protocol's implementation (collsim comm --list)"},
    [C_METHOD] = {"method", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY,
                  "the method in seed 004's words (group-direct, parent-collective, mpich-split ...)"},
    [C_CPM] = {"cpm", CS_COL_INTS, NULL, "", NULL, CS_COL_KEY | CS_COL_NO_CSV,
               "proclets per OS process, OS processes per machine, machines (CSV: the platform column, cpm:C,P,M)"},
    [C_N] = {"n", CS_COL_INT, NULL, "proclets", NULL, CS_COL_KEY, "proclets in the world"},
    [C_COLORS] = {"colors", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "colours of the split (0 for the other operations)"},
    [C_GROUPS] = {"groups", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "groups created (create, create-group)"},
    [C_GROUP_SIZE] = {"group_size", CS_COL_INT, NULL, "proclets", "groups given", CS_COL_KEY, "size of the first group"},
    [C_MAP] = {"map", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "group-map representations built, comma-separated"},
    [C_SHARED] = {"shared", CS_COL_BOOL, NULL, "", NULL, CS_COL_KEY, "maps shared by the proclets of an OS process"},
    [C_IDS] = {"ids", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "context-id scheme"},
    [C_REPEAT] = {"repeat", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "creations in a row, each from the world"},
    [C_VERIFIED] = {"verified", CS_COL_BOOL, NULL, "", NULL, 0, "every proclet's result checked: true or false"},
    [C_CREATED] = {"created", CS_COL_INT, NULL, "communicators", NULL, 0,
                   "communicators created (distinct context ids x creations)"},
    [C_EXHAUSTED] = {"exhausted", CS_COL_INT, NULL, "creations", NULL, 0, "creations that ran out of context ids"},
    [C_SIM_TIME] = {"sim_time_s", CS_COL_NUM, "%.9g", "s", NULL, 0, "simulated time of the whole run"},
    [C_MESSAGES] = {"messages", CS_COL_INT, NULL, "messages", NULL, 0, "messages sent"},
    [C_MESSAGES_EXPECTED] = {"messages_expected", CS_COL_INT, NULL, "messages", "the protocol has a formula", 0,
                            "the protocol's documented message count (its formula is at the top of its file)"},
    [C_MESSAGES_FORMULA] = {"messages_formula", CS_COL_TEXT, NULL, "", "the protocol has a formula", CS_COL_NO_CSV,
                            "messages_expected's formula, in the protocol file's words (per creation)"},
    [C_NONMEMBER_MESSAGES] = {"nonmember_messages", CS_COL_INT, NULL, "messages", "create, create-group", 0,
                              "messages sent plus messages received by processes in no group: a message between two "
                              "such processes counts twice, so with MPI_Comm_create (every process of the parent takes "
                              "part) it can exceed messages; 0 for the group-collective methods"},
    [C_BYTES] = {"bytes", CS_COL_INT, NULL, "bytes", NULL, 0, "bytes sent"},
    [C_WAKEUPS] = {"wakeups", CS_COL_INT, NULL, "", NULL, 0, "scheduler wake-ups inside OS processes (not messages)"},
    [C_PEAK_PROCLET] = {"peak_mem_bytes_per_proclet_max", CS_COL_INT, NULL, "bytes", NULL, 0,
                        "largest peak memory of a proclet"},
    [C_PEAK_PROCESS] = {"peak_mem_bytes_per_process_max", CS_COL_INT, NULL, "bytes", NULL, 0,
                        "largest peak memory of an OS process: its proclets and shared maps"},
    [C_MAP_BYTES_PROCESS] = {"map_bytes_per_process_max", CS_COL_INT, NULL, "bytes", NULL, 0,
                             "largest group-map memory of an OS process"},
    [C_MAP_BYTES_TOTAL] = {"map_bytes_total", CS_COL_INT, NULL, "bytes", NULL, 0, "group-map memory, all processes"},
    [C_MAPS_BUILT] = {"maps_built", CS_COL_INT, NULL, "maps", NULL, 0, "group maps built"},
    [C_CREATE_S] = {"create_s", CS_COL_NUM, "%.9g", "s", NULL, 0, "simulated time of the creation phase"},
    [C_P2P_MESSAGES] = {"p2p_messages", CS_COL_INT, NULL, "messages", BENCH, 0,
                        "point-to-point messages on the last communicator"},
    [C_P2P_S] = {"p2p_s", CS_COL_NUM, "%.9g", "s", BENCH, 0, "simulated time of the point-to-point phase"},
    [C_GATHERS] = {"gathers", CS_COL_INT, NULL, "", BENCH, 0, "gathers on the last communicator"},
    [C_GATHER_S] = {"gather_s", CS_COL_NUM, "%.9g", "s", BENCH, 0, "simulated time of the gather phase"},
    [C_SPACE_COMMS] = {"space_comms", CS_COL_INT, NULL, "communicators", BENCH, 0,
                       "communicators of the space-saving report"},
    [C_SPACE_SAVED] = {"space_saved_bytes", CS_COL_INT, NULL, "bytes", BENCH, 0,
                       "bytes saved against ARRAY maps by space_comms communicators"},
    [C_PLATFORM] = {"platform", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the platform's canonical spec"},
    [C_SEED] = {"seed", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "random seed"},
    [C_WALL] = {"wall_s", CS_COL_NUM, "%.3f", "s", NULL, CS_COL_MEASURED, "wall-clock time of the run"},
};

/* Splits (seed 003's results) keep their columns; create and create-group
 * (seed 004 included) add the method, the group size and the message
 * checks.  One CSV layout per operation, so a sweep over one operation has
 * one header. */
static const int split_csv[] = {
    C_OP, C_SET, C_IMPL, C_CPM, C_N, C_COLORS, C_GROUPS, C_MAP, C_SHARED, C_IDS, C_REPEAT, C_VERIFIED, C_CREATED,
    C_EXHAUSTED, C_SIM_TIME, C_MESSAGES, C_BYTES, C_WAKEUPS, C_PEAK_PROCLET, C_PEAK_PROCESS, C_MAP_BYTES_PROCESS,
    C_MAP_BYTES_TOTAL, C_MAPS_BUILT, C_CREATE_S, C_P2P_S, C_GATHER_S, C_SPACE_SAVED, C_PLATFORM, C_SEED, C_WALL, -1};

static const int create_csv[] = {
    C_OP, C_IMPL, C_METHOD, C_CPM, C_N, C_GROUPS, C_GROUP_SIZE, C_MAP, C_SHARED, C_IDS, C_REPEAT, C_VERIFIED,
    C_CREATED, C_EXHAUSTED, C_SIM_TIME, C_CREATE_S, C_MESSAGES, C_MESSAGES_EXPECTED, C_NONMEMBER_MESSAGES, C_BYTES,
    C_WAKEUPS, C_PEAK_PROCLET, C_PEAK_PROCESS, C_MAP_BYTES_PROCESS, C_MAP_BYTES_TOTAL, C_MAPS_BUILT, C_PLATFORM,
    C_SEED, C_WALL, -1};

const cs_record_kind cs_comm_split_record_kind = {"comm split", "one communicator-splitting run (and --bench)",
                                                  columns, G_N_ELEMENTS(columns), split_csv};
const cs_record_kind cs_comm_create_record_kind = {"comm create", "one create or create-group run", columns,
                                                   G_N_ELEMENTS(columns), create_csv};

const cs_record_kind *cs_comm_record_kind(cs_comm_op op)
{
  return op == CS_COMM_SPLIT ? &cs_comm_split_record_kind : &cs_comm_create_record_kind;
}

cs_record *cs_comm_result_record(const cs_comm_params *prm, const cs_comm_result *res)
{
  cs_record *r = cs_record_new();
  cs_col_str(r, &columns[C_OP], prm->bench ? "bench" : cs_comm_op_name(prm->proto->op));
  if (prm->bench)
    cs_col_str(r, &columns[C_SET], prm->set);
  cs_col_str(r, &columns[C_IMPL], prm->proto->impl);
  cs_col_str(r, &columns[C_METHOD], prm->proto->method);
  cs_col_i64_list(r, &columns[C_CPM], prm->cpm, 3);
  cs_col_i64(r, &columns[C_N], prm->n);
  cs_col_i64(r, &columns[C_COLORS], prm->proto->op == CS_COMM_SPLIT ? prm->colors : 0);
  cs_col_i64(r, &columns[C_GROUPS], prm->groups ? (int64_t)prm->groups->len : 0);
  if (prm->groups && prm->groups->len > 0)
    cs_col_i64(r, &columns[C_GROUP_SIZE], g_array_index(prm->group_sizes, int64_t, 0));
  cs_col_str(r, &columns[C_MAP], res->reps);
  cs_col_bool(r, &columns[C_SHARED], prm->share && prm->proto->shares_maps);
  cs_col_str(r, &columns[C_IDS], cs_ctxid_scheme_name(prm->proto->scheme));
  cs_col_i64(r, &columns[C_REPEAT], prm->repeat);
  cs_col_bool(r, &columns[C_VERIFIED], res->verified);
  cs_col_i64(r, &columns[C_CREATED], res->created);
  cs_col_i64(r, &columns[C_EXHAUSTED], res->exhausted);
  cs_col_num(r, &columns[C_SIM_TIME], res->sim_time_s);
  cs_col_u64(r, &columns[C_MESSAGES], res->messages);
  if (res->has_formula)
    cs_col_u64(r, &columns[C_MESSAGES_EXPECTED], res->messages_expected);
  if (res->has_formula && prm->proto->messages_text)
    cs_col_str(r, &columns[C_MESSAGES_FORMULA], prm->proto->messages_text);
  if (prm->proto->op != CS_COMM_SPLIT)
    cs_col_u64(r, &columns[C_NONMEMBER_MESSAGES], res->nonmember_messages);
  cs_col_u64(r, &columns[C_BYTES], res->bytes);
  cs_col_u64(r, &columns[C_WAKEUPS], res->wakeups);
  cs_col_i64(r, &columns[C_PEAK_PROCLET], res->peak_mem_bytes_per_proclet_max);
  cs_col_i64(r, &columns[C_PEAK_PROCESS], res->peak_mem_bytes_per_process_max);
  cs_col_u64(r, &columns[C_MAP_BYTES_PROCESS], res->map_bytes_per_process_max);
  cs_col_u64(r, &columns[C_MAP_BYTES_TOTAL], res->map_bytes_total);
  cs_col_i64(r, &columns[C_MAPS_BUILT], res->maps_built);
  cs_col_num(r, &columns[C_CREATE_S], res->create_s);
  if (prm->bench) {
    cs_col_i64(r, &columns[C_P2P_MESSAGES], prm->bench_messages);
    cs_col_num(r, &columns[C_P2P_S], res->p2p_s);
    cs_col_i64(r, &columns[C_GATHERS], prm->bench_gathers);
    cs_col_num(r, &columns[C_GATHER_S], res->gather_s);
    cs_col_i64(r, &columns[C_SPACE_COMMS], prm->space_comms);
    cs_col_i64(r, &columns[C_SPACE_SAVED], res->space_saved_bytes);
  }
  cs_col_str(r, &columns[C_PLATFORM], prm->platform_desc);
  cs_col_u64(r, &columns[C_SEED], prm->seed);
  cs_col_num(r, &columns[C_WALL], res->wall_s);
  return r;
}
