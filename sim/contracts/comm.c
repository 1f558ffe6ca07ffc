/* The communicator layer (see comm.h): worlds, communicators, point to point
 * with group-rank translation, and the per-OS-process table of shared group
 * maps with its memory accounting. */
#include "sim/contracts/comm.h"
#include "sim/contracts/groupmap_strategy.h"

#include <string.h>

struct cs_shared_map {
  cs_groupmap *gm;
  uint64_t bytes;     /* what the representation stores, rounded up to bytes */
  double select_ns;   /* modelled S-One */
  double create_ns;   /* modelled creation, the strategy's tries included */
  int64_t cache_gids; /* SELECT keeps its last decompressed block of this many gids (BWT); 0: no cache */
  double hit_ns;      /* SELECT of a gid in that block */
  int64_t builds;     /* simulated copies built */
};

/* One entry of an OS process's table: a published map and its users. */
typedef struct table_entry {
  cs_shared_map *map; /* NULL until published */
  int64_t users;
  bool claimed;       /* a proclet is building it */
  int64_t cache;      /* the shared copy's SELECT cache: block + 1, 0 = empty (cs_comm) */
  GArray *waiters;    /* world ranks waiting for it (int) */
} table_entry;

static void entry_free(gpointer data)
{
  table_entry *e = data;
  if (e->waiters)
    g_array_free(e->waiters, TRUE);
  g_free(e);
}

typedef struct os_process {
  GHashTable *table;  /* ctx -> table_entry */
  uint64_t map_bytes, map_bytes_peak;
  cs_mem_pool mem;    /* its proclets' memory and its shared maps */
} os_process;

struct cs_world {
  cs_world_config cfg;
  int64_t processes;
  os_process *procs;
  GHashTable *memo;   /* memo key -> cs_shared_map (simulator shortcut) */
  GPtrArray *all_maps; /* every physical map, freed with the world */
  uint64_t map_bytes_total, map_bytes_total_peak;
  int64_t maps_built;
  GHashTable *reps;   /* representation names built */
  GHashTable *oracle; /* key -> oracle_entry */
};

typedef struct oracle_entry {
  void *data;
  GDestroyNotify free_fn;
} oracle_entry;

static void oracle_entry_free(gpointer x)
{
  oracle_entry *e = x;
  if (e->free_fn)
    e->free_fn(e->data);
  g_free(e);
}

void cs_world_config_defaults(cs_world_config *c)
{
  memset(c, 0, sizeof *c);
  c->n = 1;
  c->per_process = 1;
  c->per_machine = 1;
  c->share = true;
  c->map = "ST";
  c->limits = cs_gm_limits_default();
  c->cpu_factor = 1.0;
  c->sort_ns_per_compare = 5.0;
}

cs_world *cs_world_new(const cs_world_config *c)
{
  cs_world *w = g_new0(cs_world, 1);
  w->cfg = *c;
  w->processes = (c->n + c->per_process - 1) / c->per_process;
  w->procs = g_new0(os_process, w->processes);
  for (int64_t i = 0; i < w->processes; i++)
    w->procs[i].table = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, entry_free);
  w->memo = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  w->all_maps = g_ptr_array_new();
  w->reps = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  w->oracle = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, oracle_entry_free);
  return w;
}

void cs_world_free(cs_world *w)
{
  if (!w)
    return;
  for (int64_t i = 0; i < w->processes; i++)
    g_hash_table_destroy(w->procs[i].table);
  g_free(w->procs);
  g_hash_table_destroy(w->memo);
  for (guint i = 0; i < w->all_maps->len; i++) {
    cs_shared_map *m = g_ptr_array_index(w->all_maps, i);
    cs_gm_free(m->gm);
    g_free(m);
  }
  g_ptr_array_free(w->all_maps, TRUE);
  g_hash_table_destroy(w->reps);
  g_hash_table_destroy(w->oracle);
  g_free(w);
}

const cs_world_config *cs_world_cfg(const cs_world *w) { return &w->cfg; }
int64_t cs_world_processes(const cs_world *w) { return w->processes; }
int64_t cs_world_process_of(const cs_world *w, int64_t rank) { return rank / w->cfg.per_process; }
int64_t cs_world_machine_of(const cs_world *w, int64_t rank)
{
  return cs_world_process_of(w, rank) / w->cfg.per_machine;
}

double cs_world_cpu_seconds(const cs_world *w, double ns) { return ns * 1e-9 * w->cfg.cpu_factor; }

/* ---- memory accounting of group maps ---- */

static void process_add(cs_world *w, int64_t process, int64_t bytes)
{
  os_process *op = &w->procs[process];
  op->map_bytes = (uint64_t)((int64_t)op->map_bytes + bytes);
  if (op->map_bytes > op->map_bytes_peak)
    op->map_bytes_peak = op->map_bytes;
  w->map_bytes_total = (uint64_t)((int64_t)w->map_bytes_total + bytes);
  if (w->map_bytes_total > w->map_bytes_total_peak)
    w->map_bytes_total_peak = w->map_bytes_total;
}

/* A map shared by the proclets of `process`: its map bytes and its memory. */
static void process_hold_shared(cs_world *w, int64_t process, int64_t bytes)
{
  process_add(w, process, bytes);
  cs_mem_pool_hold_bytes(&w->procs[process].mem, bytes);
}

/* A simulated copy of m held by p alone (share off). */
static void hold_private_copy(cs_proc *p, cs_world *w, const cs_shared_map *m, int sign)
{
  cs_mem_hold_bytes(p, sign * (int64_t)m->bytes);
  process_add(w, cs_world_process_of(w, cs_rank(p)), sign * (int64_t)m->bytes);
}

/* ---- communicators ---- */

cs_comm cs_comm_handle(cs_world *w, uint32_t ctx, int rank, int size, cs_shared_map *map)
{
  return (cs_comm){.ctx = ctx, .rank = rank, .size = size, .map = map, .world = w};
}

cs_comm *cs_comm_new(cs_proc *p, cs_world *w, uint32_t ctx, int rank, int size, cs_shared_map *map)
{
  cs_comm *c = cs_alloc(p, sizeof *c);
  *c = cs_comm_handle(w, ctx, rank, size, map);
  if (!map)
    return c;
  if (!w->cfg.share) {
    hold_private_copy(p, w, map, +1);
    return c;
  }
  table_entry *e = g_hash_table_lookup(w->procs[cs_world_process_of(w, cs_rank(p))].table, GUINT_TO_POINTER(ctx));
  g_assert(e != NULL && e->map == map); /* the local leader published it first */
  e->users++;
  c->shared_cache = &e->cache;
  return c;
}

cs_comm *cs_comm_world(cs_proc *p, cs_world *w)
{
  return cs_comm_new(p, w, CS_CTX_WORLD, cs_rank(p), cs_size(p), NULL);
}

void cs_comm_free(cs_proc *p, cs_comm *c)
{
  if (!c)
    return;
  cs_world *w = c->world;
  if (c->map && !w->cfg.share)
    hold_private_copy(p, w, c->map, -1);
  else if (c->map) {
    int64_t process = cs_world_process_of(w, cs_rank(p));
    GHashTable *t = w->procs[process].table;
    table_entry *e = g_hash_table_lookup(t, GUINT_TO_POINTER(c->ctx));
    g_assert(e != NULL && e->users > 0);
    if (--e->users == 0) {
      process_hold_shared(w, process, -(int64_t)e->map->bytes);
      g_hash_table_remove(t, GUINT_TO_POINTER(c->ctx));
    }
  }
  cs_free(p, c);
}

/* The SELECT cache of c's copy of its map (see cs_comm).  A SELECT updates
 * it through a const handle: the cache is state of the map's copy, not of
 * the communicator (and no handle is defined const). */
static int64_t *select_cache(const cs_comm *c)
{
  return c->shared_cache ? c->shared_cache : (int64_t *)&c->own_cache;
}

/* The modelled cost of SELECT(g) on c's copy of its map: a hit in the block
 * that copy decompressed last, or a full SELECT (which keeps g's block). */
static double select_ns(const cs_comm *c, int g)
{
  const cs_shared_map *s = c->map;
  if (s->cache_gids <= 0)
    return s->select_ns;
  int64_t *cache = select_cache(c);
  int64_t block_plus_one = g / s->cache_gids + 1;
  if (*cache == block_plus_one)
    return s->hit_ns;
  *cache = block_plus_one;
  return s->select_ns;
}

int cs_comm_world_rank(cs_proc *p, const cs_comm *c, int g)
{
  g_assert(g >= 0 && g < c->size);
  if (!c->map)
    return g;
  cs_compute(p, cs_world_cpu_seconds(c->world, select_ns(c, g)));
  return (int)cs_gm_select(c->map->gm, g);
}

int cs_comm_group_rank(cs_proc *p, const cs_comm *c, int w)
{
  if (!c->map)
    return w;
  cs_compute(p, cs_world_cpu_seconds(c->world, c->map->select_ns));
  return (int)cs_gm_rank(c->map->gm, w);
}

void cs_comm_send(cs_proc *p, const cs_comm *c, int dst, int tag, const void *data, size_t data_len,
                  size_t bytes)
{
  cs_send_ctx(p, cs_comm_world_rank(p, c, dst), c->ctx, tag, data, data_len, bytes);
}

cs_msg *cs_comm_recv(cs_proc *p, const cs_comm *c, int src, int tag)
{
  int wsrc = src == CS_ANY ? CS_ANY : cs_comm_world_rank(p, c, src);
  return cs_recv_ctx(p, wsrc, c->ctx, tag);
}

/* ---- building and sharing maps ---- */

static double pick_create_ns(const cs_gm_pick *pick, const char *built, int64_t m)
{
  if (!pick->candidates || pick->candidates->len == 0)
    return cs_gm_model_create_ns(built, m);
  double ns = 0;
  for (guint i = 0; i < pick->candidates->len; i++) {
    const cs_gm_candidate *c = &g_array_index(pick->candidates, cs_gm_candidate, i);
    if (c->status == CS_GM_CAND_BUILT)
      ns += cs_gm_model_create_ns(c->name, m);
  }
  return ns;
}

static cs_groupmap *create_with_choice(const cs_world_config *cfg, const cs_wid *wids, int64_t m,
                                       cs_gm_pick *pick, GError **err)
{
  if (cs_gm_strategy_find(cfg->map))
    return cs_gm_create_by_strategy(cfg->map, wids, m, cfg->n, &cfg->limits, pick, err);
  return cs_gm_create(cfg->map, wids, m, cfg->n, &cfg->limits, err);
}

static cs_shared_map *physical_map(cs_world *w, const cs_wid *wids, int64_t m, GError **err)
{
  cs_gm_pick pick = {0};
  cs_groupmap *gm = create_with_choice(&w->cfg, wids, m, &pick, err);
  if (!gm) {
    cs_gm_pick_clear(&pick);
    return NULL;
  }
  cs_shared_map *s = g_new0(cs_shared_map, 1);
  s->gm = gm;
  s->bytes = (cs_gm_size_of(gm).bits + 7) / 8;
  s->select_ns = cs_gm_select_cost_ns(gm);
  s->cache_gids = cs_gm_select_cache_gids(gm, &w->cfg.limits);
  s->hit_ns = cs_gm_cached_select_ns(gm);
  s->create_ns = pick_create_ns(&pick, cs_gm_name(gm), m);
  cs_gm_pick_clear(&pick);
  g_ptr_array_add(w->all_maps, s);
  if (!g_hash_table_contains(w->reps, cs_gm_name(gm)))
    g_hash_table_add(w->reps, g_strdup(cs_gm_name(gm)));
  return s;
}

static void charge_build(cs_proc *p, cs_world *w, cs_shared_map *s)
{
  s->builds++;
  w->maps_built++;
  cs_compute(p, cs_world_cpu_seconds(w, s->create_ns));
}

cs_shared_map *cs_comm_build_map(cs_proc *p, cs_world *w, uint64_t memo_key, const cs_wid *wids, int64_t m,
                                 GError **err)
{
  cs_shared_map *s = memo_key ? g_hash_table_lookup(w->memo, &memo_key) : NULL;
  if (!s) {
    s = physical_map(w, wids, m, err);
    if (!s)
      return NULL;
    if (memo_key) {
      uint64_t *k = g_new(uint64_t, 1);
      *k = memo_key;
      g_hash_table_insert(w->memo, k, s);
    }
  }
  charge_build(p, w, s);
  return s;
}

cs_shared_map *cs_comm_copy_memo_map(cs_proc *p, cs_world *w, uint64_t memo_key)
{
  cs_shared_map *s = g_hash_table_lookup(w->memo, &memo_key);
  if (s)
    charge_build(p, w, s);
  return s;
}

static table_entry *entry_of(cs_proc *p, cs_world *w, uint32_t ctx, bool create)
{
  GHashTable *t = w->procs[cs_world_process_of(w, cs_rank(p))].table;
  table_entry *e = g_hash_table_lookup(t, GUINT_TO_POINTER(ctx));
  if (!e && create) {
    e = g_new0(table_entry, 1); /* its cache empty */
    g_hash_table_insert(t, GUINT_TO_POINTER(ctx), e);
  }
  return e;
}

bool cs_comm_claim_map(cs_proc *p, cs_world *w, uint32_t ctx)
{
  table_entry *e = entry_of(p, w, ctx, true);
  if (e->claimed || e->map)
    return false;
  e->claimed = true;
  return true;
}

void cs_comm_publish_map(cs_proc *p, cs_world *w, uint32_t ctx, cs_shared_map *map)
{
  table_entry *e = entry_of(p, w, ctx, true);
  g_assert(e->map == NULL); /* ids are unique in the OS process */
  e->map = map;
  e->claimed = true;
  process_hold_shared(w, cs_world_process_of(w, cs_rank(p)), (int64_t)map->bytes);
  cs_phase phase = cs_get_phase(p);
  cs_set_phase(p, CS_PHASE_LOCAL);
  for (guint i = 0; e->waiters && i < e->waiters->len; i++)
    cs_send_ctx(p, g_array_index(e->waiters, int, i), ctx, CS_COMM_TAG_WAKE, NULL, 0, 0);
  cs_set_phase(p, phase);
  if (e->waiters)
    g_array_set_size(e->waiters, 0);
}

cs_shared_map *cs_comm_wait_map(cs_proc *p, cs_world *w, uint32_t ctx)
{
  table_entry *e = entry_of(p, w, ctx, true);
  if (e->map)
    return e->map;
  if (!e->waiters)
    e->waiters = g_array_new(FALSE, FALSE, sizeof(int));
  int me = cs_rank(p);
  g_array_append_val(e->waiters, me);
  cs_msg_free(p, cs_recv_ctx(p, CS_ANY, ctx, CS_COMM_TAG_WAKE));
  e = entry_of(p, w, ctx, false);
  g_assert(e && e->map);
  return e->map;
}

cs_shared_map *cs_comm_lookup_map(cs_proc *p, cs_world *w, uint32_t ctx)
{
  table_entry *e = entry_of(p, w, ctx, false);
  return e ? e->map : NULL;
}

bool cs_comm_memo_deposit(cs_world *w, uint64_t memo_key, const cs_wid *wids, int64_t m, GError **err)
{
  if (g_hash_table_contains(w->memo, &memo_key))
    return true;
  cs_shared_map *s = physical_map(w, wids, m, err);
  if (!s)
    return false;
  uint64_t *k = g_new(uint64_t, 1);
  *k = memo_key;
  g_hash_table_insert(w->memo, k, s);
  return true;
}

bool cs_comm_memo_has(const cs_world *w, uint64_t memo_key) { return g_hash_table_contains(w->memo, &memo_key); }

cs_shared_map *cs_comm_memo_peek(cs_world *w, uint64_t memo_key) { return g_hash_table_lookup(w->memo, &memo_key); }

void *cs_world_oracle(cs_world *w, uint64_t key)
{
  oracle_entry *e = g_hash_table_lookup(w->oracle, &key);
  return e ? e->data : NULL;
}

void cs_world_oracle_put(cs_world *w, uint64_t key, void *data, GDestroyNotify free_fn)
{
  uint64_t *k = g_new(uint64_t, 1);
  *k = key;
  oracle_entry *e = g_new(oracle_entry, 1);
  *e = (oracle_entry){data, free_fn};
  g_hash_table_replace(w->oracle, k, e);
}

void cs_comm_world_ranks(cs_proc *p, const cs_comm *c, cs_wid *out)
{
  if (!c->map) {
    for (int i = 0; i < c->size; i++)
      out[i] = (cs_wid)i;
    return;
  }
  const cs_shared_map *s = c->map;
  double ns = s->select_ns * c->size;
  if (s->cache_gids > 0) { /* each block decompressed once, the other gids read from it */
    int64_t blocks = (c->size + s->cache_gids - 1) / s->cache_gids;
    ns = s->select_ns * (double)blocks + s->hit_ns * (double)(c->size - blocks);
    *select_cache(c) = (c->size - 1) / s->cache_gids + 1; /* the last block's */
  }
  cs_compute(p, cs_world_cpu_seconds(c->world, ns));
  cs_gm_decode(c->map->gm, 0, c->size, out);
}

int64_t cs_comm_published_count(const cs_world *w, int64_t process)
{
  return g_hash_table_size(w->procs[process].table);
}

const cs_groupmap *cs_shared_map_groupmap(const cs_shared_map *m) { return m->gm; }
uint64_t cs_shared_map_bytes(const cs_shared_map *m) { return m->bytes; }
const char *cs_shared_map_rep(const cs_shared_map *m) { return cs_gm_name(m->gm); }
int64_t cs_shared_map_builds(const cs_shared_map *m) { return m->builds; }

uint64_t cs_world_map_bytes_now(const cs_world *w, int64_t process) { return w->procs[process].map_bytes; }
uint64_t cs_world_map_bytes_peak(const cs_world *w, int64_t process) { return w->procs[process].map_bytes_peak; }

cs_mem_pool *cs_world_mem_pool(cs_world *w, int64_t process) { return &w->procs[process].mem; }
uint64_t cs_world_map_bytes_total_peak(const cs_world *w) { return w->map_bytes_total_peak; }
int64_t cs_world_maps_built(const cs_world *w) { return w->maps_built; }

static gint by_name(gconstpointer a, gconstpointer b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char *cs_world_reps_used(const cs_world *w)
{
  GPtrArray *names = g_ptr_array_new();
  GHashTableIter it;
  gpointer k;
  g_hash_table_iter_init(&it, w->reps);
  while (g_hash_table_iter_next(&it, &k, NULL))
    g_ptr_array_add(names, k);
  g_ptr_array_sort(names, by_name);
  GString *s = g_string_new("");
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf(s, "%s%s", i ? "," : "", (char *)g_ptr_array_index(names, i));
  g_ptr_array_free(names, TRUE);
  return g_string_free(s, FALSE);
}

void cs_intercomm_send(cs_proc *p, const cs_intercomm *ic, int remote_rank, int tag, const void *data,
                       size_t data_len, size_t bytes)
{
  g_assert(remote_rank >= 0 && remote_rank < ic->remote_size);
  cs_send_ctx(p, (int)ic->remote[remote_rank], ic->send_ctx, tag, data, data_len, bytes);
}

cs_msg *cs_intercomm_recv(cs_proc *p, const cs_intercomm *ic, int remote_rank, int tag)
{
  int src = remote_rank == CS_ANY ? CS_ANY : (int)ic->remote[remote_rank];
  return cs_recv_ctx(p, src, ic->recv_ctx, tag);
}

int cs_comm_next_coll_tag(cs_comm *c)
{
  return CS_COMM_TAG_RESERVED + 1024 + (int)(c->coll_seq++ % (1u << 22));
}
