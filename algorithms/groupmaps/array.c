/* ARRAY: the group map as a plain array of wids in gid order (seed 003,
 * Section 3's "standard array" and the ARRAY rows of Tables 1 and 2; the
 * framework's input form, Section 6).
 *
 * Choices the paper leaves open:
 *  - Each wid is stored in 32 bits (world < 2^31), so size = 32 x m bits, as
 *    in the paper's 32 bpg.  Kind CS_GM_MAP: any order is stored as given.
 *  - select(gid) is one load.
 *  - rank(wid): binary search when the group is ordered (O(lg m)); a linear
 *    scan when it is not (O(m)), which the contract allows for maps.  An
 *    inverse index would double the space, which is what ARRAY is the
 *    baseline for, so none is kept.
 */
#include "sim/contracts/groupmap.h"

#include <string.h>

typedef struct {
  int64_t m;
  bool ordered;
  cs_wid wids[]; /* gid order */
} array_state;

static void *array_create(const cs_wid *wids, int64_t m, int64_t world, bool ordered,
                          const cs_gm_limits *lim, GError **err)
{
  (void)world;
  (void)lim;
  (void)err;
  array_state *st = g_malloc(sizeof *st + (size_t)m * sizeof(cs_wid));
  st->m = m;
  st->ordered = ordered;
  if (m > 0)
    memcpy(st->wids, wids, (size_t)m * sizeof(cs_wid));
  return st;
}

static cs_wid array_select(void *p, int64_t gid)
{
  return ((const array_state *)p)->wids[gid];
}

static int64_t binary_search(const cs_wid *w, int64_t m, int64_t wid)
{
  int64_t lo = 0, hi = m; /* answer in [lo, hi) */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if ((int64_t)w[mid] < wid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m && (int64_t)w[lo] == wid ? lo : -1;
}

static int64_t linear_scan(const cs_wid *w, int64_t m, int64_t wid)
{
  for (int64_t i = 0; i < m; i++)
    if ((int64_t)w[i] == wid)
      return i;
  return -1;
}

static int64_t array_rank(void *p, int64_t wid)
{
  const array_state *st = p;
  return st->ordered ? binary_search(st->wids, st->m, wid) : linear_scan(st->wids, st->m, wid);
}

static void array_decode(void *p, int64_t first, int64_t count, cs_wid *out)
{
  const array_state *st = p;
  memcpy(out, st->wids + first, (size_t)count * sizeof(cs_wid));
}

static cs_gm_size array_size(const void *p)
{
  const array_state *st = p;
  return (cs_gm_size){.bits = 32 * (uint64_t)st->m, .paths = -1, .runs = -1};
}

static void array_destroy(void *p) { g_free(p); }

static uint64_t array_min_bits(int64_t m, int64_t world)
{
  (void)world;
  return 32 * (uint64_t)m; /* exact: array_size of any group of m */
}

const cs_gm_rep cs_gm_rep_array = {
    .name = "array",
    .description = "plain array of 32-bit wids in gid order; rank by binary search (ordered) or "
                   "linear scan (unordered); 32 x m bits",
    .kind = CS_GM_MAP,
    .from_paper = true,
    .create = array_create,
    .select = array_select,
    .rank = array_rank,
    .decode = array_decode,
    .size = array_size,
    .destroy = array_destroy,
    .min_bits = array_min_bits,
    .select_ns = 2.0,
    .create_ns_per_member = 2.0,
};
