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

const char *const cs_ids_csv_columns[] = {"op", "impl", "cpm", "n", "colors", "layout", "lbi_bits", "pool",
                                          "world_in_pool", "splits", "created", "ids_per_process_max", "limit",
                                          "splits_lbi", "splits_mask", "splits_pool", "platform", "wall_s", NULL};

cs_record *cs_ids_result_record(const cs_ids_params *prm, const cs_ids_result *res, const char *platform)
{
  cs_record *r = cs_record_new();
  cs_rec_str(r, "op", "ids");
  cs_rec_str(r, "impl", prm->mpich ? "mpich" : "leader");
  cs_rec_i64_list(r, "cpm", prm->cpm, 3);
  cs_rec_i64(r, "n", prm->n);
  cs_rec_i64(r, "colors", prm->colors);
  cs_rec_str(r, "layout", prm->block_layout ? "block" : "cyclic");
  cs_rec_i64(r, "lbi_bits", prm->lbi_bits);
  cs_rec_i64(r, "pool", prm->pool);
  cs_rec_bool(r, "world_in_pool", prm->world_in_pool);
  cs_rec_i64(r, "splits", res->splits);
  cs_rec_i64(r, "created", res->created);
  cs_rec_i64(r, "ids_per_process_max", res->ids_per_process_max);
  cs_rec_str(r, "limit", res->limit);
  cs_rec_i64(r, "splits_lbi", res->splits_lbi);
  cs_rec_i64(r, "splits_mask", res->splits_mask);
  cs_rec_i64(r, "splits_pool", res->splits_pool);
  cs_rec_str(r, "platform", platform);
  cs_rec_num(r, "wall_s", res->wall_s, "%.3f");
  return r;
}
