/* R/S: range and stride, wid = gid x S1 + S2 (seed 003, Section 5.1).
 * Constant space, constant-time SELECT and RANK.
 *
 * Kind and order.  The paper's R/S is a set representation: S1 >= 1, an
 * ordered group.  With lim->rs_allow_negative (our extension, off by default)
 * it also stores a decreasing progression, S1 <= -1, which is an unordered
 * map (Table 2's group 4, Section 8's set A).  Because of that the registry
 * row has kind CS_GM_MAP, so that the core hands it unordered groups; create()
 * then decides:
 *   ordered group                     -> accepted when it is a progression;
 *   unordered, rs_allow_negative off  -> refused (NOT_APPLICABLE, suggesting
 *                                        wtr+rs), exactly as a set would be;
 *   unordered, rs_allow_negative on   -> accepted when it is a decreasing
 *                                        progression, else refused.
 * So with the default limits R/S behaves as a CS_GM_SET.  A group of 0 or 1
 * members is a progression (S1 = 1; S2 = its wid, or 0 when empty), and an
 * ordered one.
 *
 * Size: 3 x 32 bits = 96 bits, the member count m, the stride S1 and the
 * offset S2 (|S1| < 2^31, 0 <= S2 < 2^31, m <= 2^31 fits 32 unsigned bits).
 */
#include "sim/contracts/groupmap.h"

typedef struct {
  int64_t m;
  int64_t s1; /* stride, never 0 */
  int64_t s2; /* wid of gid 0 */
} rs_state;

#define RS_BITS (3 * 32)

/* The first gid whose wid breaks wid = gid x s1 + s2, or -1. */
static int64_t first_break(const cs_wid *wids, int64_t m, int64_t s1, int64_t s2)
{
  for (int64_t i = 0; i < m; i++)
    if ((int64_t)wids[i] != i * s1 + s2)
      return i;
  return -1;
}

/* Do the members, as a set, form one progression (so wtr+rs, which keeps
 * the order apart, could store them)?  Distinct members spanning
 * (m - 1) x step from their least, each a multiple of step away from it,
 * are exactly that progression. */
static bool set_is_progression(const cs_wid *wids, int64_t m)
{
  if (m < 3)
    return true;
  int64_t lo = wids[0], hi = wids[0];
  for (int64_t i = 1; i < m; i++) {
    lo = MIN(lo, (int64_t)wids[i]);
    hi = MAX(hi, (int64_t)wids[i]);
  }
  if ((hi - lo) % (m - 1) != 0 || hi == lo)
    return false;
  int64_t step = (hi - lo) / (m - 1);
  for (int64_t i = 0; i < m; i++)
    if (((int64_t)wids[i] - lo) % step != 0)
      return false;
  return true;
}

/* The advice after a refusal of an unordered group: wtr+rs only where it
 * would succeed. */
static const char *unordered_advice(const cs_wid *wids, int64_t m)
{
  return set_is_progression(wids, m) ? "; use wtr+rs" : "; its members as a set are no progression either";
}

static bool refuse_decreasing(const cs_wid *wids, int64_t m, int64_t s1, const cs_gm_limits *lim, GError **err)
{
  if (s1 > 0 || lim->rs_allow_negative)
    return false;
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE,
              "rs stores an unordered group only as a decreasing progression with rs_allow_negative "
              "(off)%s", unordered_advice(wids, m));
  return true;
}

static void *rs_create(const cs_wid *wids, int64_t m, int64_t world, bool ordered,
                       const cs_gm_limits *lim, GError **err)
{
  (void)world;
  int64_t s2 = m > 0 ? wids[0] : 0;
  int64_t s1 = m > 1 ? (int64_t)wids[1] - (int64_t)wids[0] : 1;
  if (!ordered && refuse_decreasing(wids, m, s1, lim, err))
    return NULL;
  int64_t bad = first_break(wids, m, s1, s2);
  if (bad >= 0) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE,
                "no progression: gid %" G_GINT64_FORMAT " has wid %u, not %" G_GINT64_FORMAT
                " x %" G_GINT64_FORMAT " + %" G_GINT64_FORMAT "%s",
                bad, wids[bad], bad, s1, s2, ordered ? "" : unordered_advice(wids, m));
    return NULL;
  }
  rs_state *st = g_new(rs_state, 1);
  *st = (rs_state){.m = m, .s1 = s1, .s2 = s2};
  return st;
}

static cs_wid rs_select(void *p, int64_t gid)
{
  const rs_state *st = p;
  return (cs_wid)(gid * st->s1 + st->s2);
}

static int64_t rs_rank(void *p, int64_t wid)
{
  const rs_state *st = p;
  int64_t d = wid - st->s2;
  if (d % st->s1 != 0)
    return -1;
  int64_t gid = d / st->s1;
  return gid >= 0 && gid < st->m ? gid : -1;
}

static void rs_decode(void *p, int64_t first, int64_t count, cs_wid *out)
{
  const rs_state *st = p;
  int64_t wid = first * st->s1 + st->s2;
  for (int64_t i = 0; i < count; i++, wid += st->s1)
    out[i] = (cs_wid)wid;
}

static cs_gm_size rs_size(const void *p)
{
  (void)p;
  return (cs_gm_size){.bits = RS_BITS, .paths = -1, .runs = -1};
}

static void rs_destroy(void *p) { g_free(p); }

const cs_gm_rep cs_gm_rep_range_stride = {
    .name = "rs",
    .description = "range/stride wid = gid x S1 + S2 (S1 >= 1; S1 <= -1 with rs_allow_negative); "
                   "96 bits, O(1) select and rank",
    .kind = CS_GM_MAP,
    .from_paper = true,
    .create = rs_create,
    .select = rs_select,
    .rank = rs_rank,
    .decode = rs_decode,
    .size = rs_size,
    .destroy = rs_destroy,
    .select_ns = 2.0,
    .create_ns_per_member = 1.0,
};
