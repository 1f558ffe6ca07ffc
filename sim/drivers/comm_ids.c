/* Counting context ids (see comm_ids.h).
 *
 * <LID, LBI>: per colour the leader is the member with the fewest bits set,
 * the first in key order (key = rank here) on a tie, exactly as Procedure 1
 * picks it from the gathered bitmaps (cs_lbi_least_used); a cursor per
 * colour finds that member in amortised O(1) (counts only grow by one, so
 * the first member at the minimum is the next one at it after the last
 * pick).  COMM_WORLD's <0, 0> starts proclet 0 at one bit used.
 * Mask: every split takes one id from every proclet's mask (the outer
 * communicator is the world): 2^11 - 3 splits.
 * Pool: split s adds, in each OS process, one object per proclet of it in
 * a new communicator (all of them: every proclet has a colour).
 */
#include "sim/drivers/comm_ids.h"
#include "algorithms/communicators/context_id.h"

#include <glib.h>
#include <string.h>

typedef struct colour_state {
  int64_t first, stride, members; /* members: first + i * stride */
  uint16_t *used;                 /* bits used per member */
  int64_t level, cursor;          /* the minimum count and where to look for it */
} colour_state;

static void colour_init(colour_state *c, const cs_ids_params *prm, int64_t colour)
{
  int64_t n = prm->n, k = prm->colors;
  if (prm->block_layout) {
    /* colour of r is r K / n: ranks ceil(c n / K) .. ceil((c + 1) n / K) - 1 */
    c->first = (colour * n + k - 1) / k;
    c->members = ((colour + 1) * n + k - 1) / k - c->first;
    c->stride = 1;
  } else {
    c->first = colour;
    c->stride = k;
    c->members = (n - colour + k - 1) / k;
  }
  c->used = g_new0(uint16_t, (gsize)c->members);
  if (c->first == 0 && c->members > 0)
    c->used[0] = 1; /* COMM_WORLD = <0, 0> */
  c->level = 0;
  c->cursor = 0;
}

/* The next leader (member index), or -1 when every member is full. */
static int64_t colour_pick(colour_state *c, int bits)
{
  while (c->level < bits) {
    for (; c->cursor < c->members; c->cursor++)
      if (c->used[c->cursor] == c->level) {
        c->used[c->cursor]++;
        return c->cursor++;
      }
    c->level++;
    c->cursor = 0;
  }
  return -1;
}

/* Splits the pool allows: objects per split in the fullest OS process. */
static int64_t pool_splits(const cs_ids_params *prm)
{
  if (prm->pool <= 0)
    return -1;
  int64_t per_split = prm->per_process < prm->n ? prm->per_process : prm->n;
  int64_t room = prm->pool - (prm->world_in_pool ? 2 * per_split : 0);
  return room < 0 ? 0 : room / per_split;
}

/* <LID, LBI>: splits until a colour finds no free bit (limit: at most
 * `until` splits, 0 = none); *partial = colours made in the failing split. */
static int64_t lbi_splits(const cs_ids_params *prm, int64_t until, int64_t *partial)
{
  int bits = 1 << prm->lbi_bits;
  colour_state *cs = g_new0(colour_state, (gsize)prm->colors);
  for (int64_t c = 0; c < prm->colors; c++)
    colour_init(&cs[c], prm, c);
  int64_t s = 0;
  *partial = 0;
  for (bool full = false; !full && (until == 0 || s < until); s += !full)
    for (int64_t c = 0; c < prm->colors && !full; c++) {
      full = colour_pick(&cs[c], bits) < 0;
      if (full)
        *partial = c;
    }
  for (int64_t c = 0; c < prm->colors; c++)
    g_free(cs[c].used);
  g_free(cs);
  return s;
}

/* Most colours held by one OS process (its proclets' colours). */
static int64_t colours_per_process_max(const cs_ids_params *prm)
{
  int64_t best = 0, c = prm->per_process;
  for (int64_t first = 0; first < prm->n; first += c) {
    int64_t last = first + c < prm->n ? first + c - 1 : prm->n - 1, held;
    if (prm->block_layout)
      held = last * prm->colors / prm->n - first * prm->colors / prm->n + 1;
    else
      held = last - first + 1 < prm->colors ? last - first + 1 : prm->colors;
    if (held > best)
      best = held;
  }
  return best;
}

void cs_ids_run(const cs_ids_params *prm, cs_ids_result *res)
{
  memset(res, 0, sizeof *res);
  gint64 t0 = g_get_monotonic_time();
  res->splits_pool = pool_splits(prm);
  res->splits_mask = CS_MASK_BITS - CS_MASK_RESERVED;
  int64_t partial = 0;
  int64_t lbi = lbi_splits(prm, prm->max_splits, &partial);
  res->splits_lbi = prm->max_splits == 0 || lbi < prm->max_splits ? lbi : -1;
  int64_t scheme = prm->mpich ? res->splits_mask : res->splits_lbi;
  struct { const char *name; int64_t splits; } limits[] = {
      {prm->mpich ? "mask" : "lbi", scheme}, {"pool", res->splits_pool}};
  res->limit = "none";
  res->splits = prm->max_splits;
  for (size_t i = 0; i < G_N_ELEMENTS(limits); i++)
    if (limits[i].splits >= 0 && (prm->max_splits == 0 || limits[i].splits < prm->max_splits) &&
        (strcmp(res->limit, "none") == 0 || limits[i].splits < res->splits)) {
      res->limit = limits[i].name;
      res->splits = limits[i].splits;
    }
  int64_t extra = !prm->mpich && strcmp(res->limit, "lbi") == 0 ? partial : 0;
  res->created = res->splits * prm->colors + extra;
  res->ids_per_process_max = prm->mpich ? res->splits : res->splits * colours_per_process_max(prm);
  res->wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
}

enum {
  I_OP, I_IMPL, I_CPM, I_N, I_COLORS, I_LAYOUT, I_LBI_BITS, I_POOL, I_WORLD_IN_POOL, I_SPLITS, I_CREATED,
  I_IDS_PER_PROCESS, I_LIMIT, I_SPLITS_LBI, I_SPLITS_MASK, I_SPLITS_POOL, I_PLATFORM, I_WALL,
};

static const cs_column columns[] = {
    [I_OP] = {"op", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the operation: ids"},
    [I_IMPL] = {"impl", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "context-id scheme: leader (<LID, LBI>) or mpich (mask)"},
    [I_CPM] = {"cpm", CS_COL_INTS, NULL, "", NULL, CS_COL_KEY | CS_COL_NO_CSV,
               "proclets per OS process, OS processes per machine, machines (CSV: the platform column, cpm:C,P,M)"},
    [I_N] = {"n", CS_COL_INT, NULL, "proclets", NULL, CS_COL_KEY, "proclets in the world"},
    [I_COLORS] = {"colors", CS_COL_INT, NULL, "", NULL, CS_COL_KEY, "communicators per split"},
    [I_LAYOUT] = {"layout", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "colour of a rank: cyclic (r mod K) or block"},
    [I_LBI_BITS] = {"lbi_bits", CS_COL_INT, NULL, "bits", NULL, CS_COL_KEY, "leader bits of <LID, LBI>"},
    [I_POOL] = {"pool", CS_COL_INT, NULL, "objects", NULL, CS_COL_KEY,
                "communicator objects per OS process (0: no limit)"},
    [I_WORLD_IN_POOL] = {"world_in_pool", CS_COL_BOOL, NULL, "", NULL, 0,
                         "COMM_WORLD and COMM_SELF of each proclet take 2 objects"},
    [I_SPLITS] = {"splits", CS_COL_INT, NULL, "splits", NULL, 0, "complete splits"},
    [I_CREATED] = {"created", CS_COL_INT, NULL, "communicators", NULL, 0,
                   "communicators (context ids) created: splits x K + a partial split"},
    [I_IDS_PER_PROCESS] = {"ids_per_process_max", CS_COL_INT, NULL, "ids", NULL, 0,
                           "distinct context ids held in one OS process"},
    [I_LIMIT] = {"limit", CS_COL_TEXT, NULL, "", NULL, 0, "what stopped the splits: lbi, mask, pool or none"},
    [I_SPLITS_LBI] = {"splits_lbi", CS_COL_INT, NULL, "splits", NULL, 0,
                      "splits the leader bits alone allow (-1: not reached within the splits run)"},
    [I_SPLITS_MASK] = {"splits_mask", CS_COL_INT, NULL, "splits", NULL, 0,
                       "splits the mask alone allows (-1: not reached within the splits run)"},
    [I_SPLITS_POOL] = {"splits_pool", CS_COL_INT, NULL, "splits", NULL, 0,
                       "splits the pool alone allows (-1: no pool, or not reached within the splits run)"},
    [I_PLATFORM] = {"platform", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the platform's canonical spec"},
    [I_WALL] = {"wall_s", CS_COL_NUM, "%.3f", "s", NULL, CS_COL_MEASURED, "wall-clock time of the run"},
};

const cs_record_kind cs_ids_record_kind = {"comm ids", "how many context ids (Section 8.2)", columns,
                                           G_N_ELEMENTS(columns), NULL};

cs_record *cs_ids_result_record(const cs_ids_params *prm, const cs_ids_result *res, const char *platform)
{
  cs_record *r = cs_record_new();
  cs_col_str(r, &columns[I_OP], "ids");
  cs_col_str(r, &columns[I_IMPL], prm->mpich ? "mpich" : "leader");
  cs_col_i64_list(r, &columns[I_CPM], prm->cpm, 3);
  cs_col_i64(r, &columns[I_N], prm->n);
  cs_col_i64(r, &columns[I_COLORS], prm->colors);
  cs_col_str(r, &columns[I_LAYOUT], prm->block_layout ? "block" : "cyclic");
  cs_col_i64(r, &columns[I_LBI_BITS], prm->lbi_bits);
  cs_col_i64(r, &columns[I_POOL], prm->pool);
  cs_col_bool(r, &columns[I_WORLD_IN_POOL], prm->world_in_pool);
  cs_col_i64(r, &columns[I_SPLITS], res->splits);
  cs_col_i64(r, &columns[I_CREATED], res->created);
  cs_col_i64(r, &columns[I_IDS_PER_PROCESS], res->ids_per_process_max);
  cs_col_str(r, &columns[I_LIMIT], res->limit);
  cs_col_i64(r, &columns[I_SPLITS_LBI], res->splits_lbi);
  cs_col_i64(r, &columns[I_SPLITS_MASK], res->splits_mask);
  cs_col_i64(r, &columns[I_SPLITS_POOL], res->splits_pool);
  cs_col_str(r, &columns[I_PLATFORM], platform);
  cs_col_num(r, &columns[I_WALL], res->wall_s);
  return r;
}
