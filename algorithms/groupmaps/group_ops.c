/* Group operations of seed 003, Section 7 (MPI_Group_union, _intersection,
 * _difference, _incl, _excl, _range_incl, _range_excl, _translate_ranks),
 * on explicit groups with MPI's order semantics, plus Section 7.2's BDD set
 * operations through algorithms/groupmaps/bdd_sets.h.  The API and its
 * semantics are in sim/contracts/groupmap_ops.h.
 *
 * Choices the paper (and MPI) leave open, made here:
 *  - Membership tests use a sorted copy of the other operand and binary
 *    search (O(|A| lg |B|)), never a bitmap of the world, so memory is
 *    O(|A| + |B|) even in a world of 2^31.  An ordered operand is its own
 *    sorted copy.
 *  - incl/excl ranks: each in [0, |A|) and distinct, checked with a bitmap of
 *    |A| bits; the first bad entry is named with its position.
 *  - range triplets: stride 0 is refused; so is a triplet whose stride
 *    points away from last (first < last with stride < 0, or first > last
 *    with stride > 0) — MPI leaves both erroneous.  first == last gives one
 *    rank.  The expanded ranks then go through incl/excl's checks (so
 *    overlapping triplets are refused as repeated ranks).
 *  - translate_ranks runs Section 7.1's composite formula
 *        gid_B = pi_B^-1(RANK_B(SELECT_A(pi_A(gid_A))))
 *    as cs_gm_rank(B, cs_gm_select(A, gid_A)): cs_gm_select applies pi_A
 *    then SELECT_A and cs_gm_rank applies RANK_B then pi_B^-1 (groupmap.c),
 *    so the formula is exactly what runs, for every pair of representations.
 *  - BDD sets: a thin layer over bdd_sets.h (its union/intersection/
 *    difference are BuDDy's apply); conversions from and to groups drop and
 *    restore order (a set is ordered).
 */
#include "sim/contracts/groupmap_ops.h"
#include "algorithms/groupmaps/bdd_sets.h"

#include <string.h>

/* ------------------------------------------------------------- groups */

static cs_gm_group *group_take(cs_wid *wids, int64_t m, int64_t world)
{
  cs_gm_group *g = g_new(cs_gm_group, 1);
  *g = (cs_gm_group){.world = world, .m = m, .wids = wids};
  return g;
}

cs_gm_group *cs_gm_group_new(const cs_wid *wids, int64_t m, int64_t world, GError **err)
{
  if (!cs_gm_check_wids(wids, m, world, NULL, err))
    return NULL;
  return group_take(m > 0 ? g_memdup2(wids, (gsize)m * sizeof(cs_wid)) : NULL, m, world);
}

cs_gm_group *cs_gm_group_world(int64_t world, GError **err)
{
  if (!cs_gm_check_wids(NULL, 0, world, NULL, err))
    return NULL;
  cs_wid *w = g_new(cs_wid, world);
  for (int64_t i = 0; i < world; i++)
    w[i] = (cs_wid)i;
  return group_take(w, world, world);
}

cs_gm_group *cs_gm_group_from_map(cs_groupmap *map)
{
  int64_t m = cs_gm_members(map);
  cs_wid *w = g_new(cs_wid, m > 0 ? m : 1);
  cs_gm_decode(map, 0, m, w);
  return group_take(w, m, cs_gm_world(map));
}

cs_groupmap *cs_gm_group_to_map(const cs_gm_group *g, const char *name, const cs_gm_limits *lim,
                                GError **err)
{
  return cs_gm_create(name, g->wids, g->m, g->world, lim, err);
}

bool cs_gm_group_ordered(const cs_gm_group *g)
{
  for (int64_t i = 1; i < g->m; i++)
    if (g->wids[i] <= g->wids[i - 1])
      return false;
  return true;
}

void cs_gm_group_free(cs_gm_group *g)
{
  if (!g)
    return;
  g_free(g->wids);
  g_free(g);
}

/* ------------------------------------------------- union / inter / diff */

static bool same_world(const cs_gm_group *a, const cs_gm_group *b, GError **err)
{
  if (a->world == b->world)
    return true;
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
              "groups of different worlds (%" G_GINT64_FORMAT " and %" G_GINT64_FORMAT ")", a->world,
              b->world);
  return false;
}

static int compare_wid(const void *x, const void *y)
{
  cs_wid a = *(const cs_wid *)x, b = *(const cs_wid *)y;
  return (a > b) - (a < b);
}

/* Sorted members of g: g's own array when ordered (*owned = NULL), else a
 * sorted copy (*owned = it, to free). */
static const cs_wid *sorted_members(const cs_gm_group *g, cs_wid **owned)
{
  *owned = NULL;
  if (cs_gm_group_ordered(g))
    return g->wids;
  *owned = g_memdup2(g->wids, (gsize)g->m * sizeof(cs_wid));
  qsort(*owned, (size_t)g->m, sizeof(cs_wid), compare_wid);
  return *owned;
}

static bool in_sorted(const cs_wid *s, int64_t n, cs_wid w)
{
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (s[mid] < w)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && s[lo] == w;
}

/* Appends to out the members of `from`, in its order, whose membership in
 * `other` equals `keep_members`. */
static int64_t filter_by_membership(const cs_gm_group *from, const cs_gm_group *other,
                                    bool keep_members, cs_wid *out)
{
  cs_wid *owned;
  const cs_wid *sorted = sorted_members(other, &owned);
  int64_t n = 0;
  for (int64_t i = 0; i < from->m; i++)
    if (in_sorted(sorted, other->m, from->wids[i]) == keep_members)
      out[n++] = from->wids[i];
  g_free(owned);
  return n;
}

cs_gm_group *cs_gm_group_union(const cs_gm_group *a, const cs_gm_group *b, GError **err)
{
  if (!same_world(a, b, err))
    return NULL;
  cs_wid *w = g_new(cs_wid, a->m + b->m + 1);
  if (a->m > 0)
    memcpy(w, a->wids, (size_t)a->m * sizeof(cs_wid));
  int64_t n = a->m + filter_by_membership(b, a, false, w + a->m);
  return group_take(w, n, a->world);
}

cs_gm_group *cs_gm_group_intersection(const cs_gm_group *a, const cs_gm_group *b, GError **err)
{
  if (!same_world(a, b, err))
    return NULL;
  cs_wid *w = g_new(cs_wid, a->m + 1);
  int64_t n = filter_by_membership(a, b, true, w);
  return group_take(w, n, a->world);
}

cs_gm_group *cs_gm_group_difference(const cs_gm_group *a, const cs_gm_group *b, GError **err)
{
  if (!same_world(a, b, err))
    return NULL;
  cs_wid *w = g_new(cs_wid, a->m + 1);
  int64_t n = filter_by_membership(a, b, false, w);
  return group_take(w, n, a->world);
}

/* -------------------------------------------------------- incl / excl */

/* Ranks in [0, m) and distinct; returns a bitmap of them (g_free), or NULL
 * with err naming the first bad entry. */
static uint64_t *checked_rank_marks(const int64_t *ranks, int64_t n, int64_t m, GError **err)
{
  if (n < 0 || (n > 0 && !ranks)) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT, "bad rank list (%" G_GINT64_FORMAT " ranks)", n);
    return NULL;
  }
  uint64_t *mark = g_new0(uint64_t, m / 64 + 1);
  for (int64_t i = 0; i < n; i++) {
    int64_t r = ranks[i];
    const char *why = r < 0 || r >= m ? "is outside the group" :
                      mark[r / 64] >> (r % 64) & 1 ? "is repeated" : NULL;
    if (why) {
      g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                  "rank %" G_GINT64_FORMAT " at position %" G_GINT64_FORMAT " %s (group of %"
                  G_GINT64_FORMAT ")", r, i, why, m);
      g_free(mark);
      return NULL;
    }
    mark[r / 64] |= UINT64_C(1) << (r % 64);
  }
  return mark;
}

cs_gm_group *cs_gm_group_incl(const cs_gm_group *a, const int64_t *ranks, int64_t n, GError **err)
{
  uint64_t *mark = checked_rank_marks(ranks, n, a->m, err);
  if (!mark)
    return NULL;
  g_free(mark);
  cs_wid *w = g_new(cs_wid, n + 1);
  for (int64_t i = 0; i < n; i++)
    w[i] = a->wids[ranks[i]];
  return group_take(w, n, a->world);
}

cs_gm_group *cs_gm_group_excl(const cs_gm_group *a, const int64_t *ranks, int64_t n, GError **err)
{
  uint64_t *mark = checked_rank_marks(ranks, n, a->m, err);
  if (!mark)
    return NULL;
  cs_wid *w = g_new(cs_wid, a->m + 1);
  int64_t k = 0;
  for (int64_t i = 0; i < a->m; i++)
    if (!(mark[i / 64] >> (i % 64) & 1))
      w[k++] = a->wids[i];
  g_free(mark);
  return group_take(w, k, a->world);
}

/* -------------------------------------------------------------- ranges */

static bool triplet_ok(const cs_gm_range *r, int64_t i, GError **err)
{
  bool away = (r->last > r->first && r->stride < 0) || (r->last < r->first && r->stride > 0);
  const char *why = r->stride == 0 ? "has stride 0"
                    : away         ? "has a stride pointing away from last"
                                   : NULL;
  if (!why)
    return true;
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
              "range %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
              ") %s", i, r->first, r->last, r->stride, why);
  return false;
}

/* Ranks of a triplet: first + k stride for k = 0 .. (last - first) / stride. */
static int64_t triplet_count(const cs_gm_range *r) { return (r->last - r->first) / r->stride + 1; }

/* The ranks of all triplets, in order (g_free), or NULL with err.  A
 * triplet longer than the group cannot be valid: refused before expanding. */
static int64_t *expand_ranges(const cs_gm_range *ranges, int64_t n, int64_t m, int64_t *count,
                              GError **err)
{
  int64_t total = 0;
  for (int64_t i = 0; i < n; i++) {
    if (!triplet_ok(&ranges[i], i, err))
      return NULL;
    total += triplet_count(&ranges[i]);
    if (total > m) {
      g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                  "ranges up to %" G_GINT64_FORMAT " name more ranks than the group's %" G_GINT64_FORMAT,
                  i, m);
      return NULL;
    }
  }
  int64_t *ranks = g_new(int64_t, total + 1);
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0, c = triplet_count(&ranges[i]); j < c; j++)
      ranks[k++] = ranges[i].first + j * ranges[i].stride;
  *count = total;
  return ranks;
}

static bool ranges_present(const cs_gm_range *ranges, int64_t n, GError **err)
{
  if (n >= 0 && (n == 0 || ranges))
    return true;
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT, "bad range list (%" G_GINT64_FORMAT " ranges)", n);
  return false;
}

cs_gm_group *cs_gm_group_range_incl(const cs_gm_group *a, const cs_gm_range *ranges, int64_t n,
                                    GError **err)
{
  int64_t count = 0;
  int64_t *ranks = ranges_present(ranges, n, err) ? expand_ranges(ranges, n, a->m, &count, err) : NULL;
  if (!ranks)
    return NULL;
  cs_gm_group *g = cs_gm_group_incl(a, ranks, count, err);
  g_free(ranks);
  return g;
}

cs_gm_group *cs_gm_group_range_excl(const cs_gm_group *a, const cs_gm_range *ranges, int64_t n,
                                    GError **err)
{
  int64_t count = 0;
  int64_t *ranks = ranges_present(ranges, n, err) ? expand_ranges(ranges, n, a->m, &count, err) : NULL;
  if (!ranks)
    return NULL;
  cs_gm_group *g = cs_gm_group_excl(a, ranks, count, err);
  g_free(ranks);
  return g;
}

/* ----------------------------------------------------- translate ranks */

/* gid_B = pi_B^-1(RANK_B(SELECT_A(pi_A(gid_A)))): cs_gm_select(A, gid) is
 * SELECT_A(pi_A(gid)) and cs_gm_rank(B, wid) is pi_B^-1(RANK_B(wid)), -1
 * for a non-member (groupmap.c). */
static int64_t translate_one(cs_groupmap *a, int64_t gid_a, cs_groupmap *b)
{
  cs_wid wid = cs_gm_select(a, gid_a);
  return cs_gm_rank(b, wid);
}

bool cs_gm_translate_ranks(cs_groupmap *a, const int64_t *gids_a, int64_t n, cs_groupmap *b,
                           int64_t *out, GError **err)
{
  if (cs_gm_world(a) != cs_gm_world(b)) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                "group maps of different worlds (%" G_GINT64_FORMAT " and %" G_GINT64_FORMAT ")",
                cs_gm_world(a), cs_gm_world(b));
    return false;
  }
  for (int64_t i = 0; i < n; i++)
    if (gids_a[i] < 0 || gids_a[i] >= cs_gm_members(a)) {
      g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                  "rank %" G_GINT64_FORMAT " at position %" G_GINT64_FORMAT
                  " is outside the first group (of %" G_GINT64_FORMAT ")", gids_a[i], i,
                  cs_gm_members(a));
      return false;
    }
  for (int64_t i = 0; i < n; i++)
    out[i] = translate_one(a, gids_a[i], b);
  return true;
}

/* ---------------------------------------------------------- BDD sets */

cs_bdd_set *cs_gm_group_to_bdd_set(const cs_gm_group *g, GError **err)
{
  cs_wid *owned;
  const cs_wid *sorted = sorted_members(g, &owned);
  cs_bdd_set *s = cs_bdd_set_from_wids(sorted, g->m, g->world, err);
  g_free(owned);
  return s;
}

cs_gm_group *cs_gm_group_from_bdd_set(const cs_bdd_set *s)
{
  int64_t m = 0;
  cs_wid *w = cs_bdd_set_to_wids(s, &m);
  return group_take(w, m, cs_bdd_set_world(s));
}

cs_bdd_set *cs_gm_bdd_union(const cs_bdd_set *a, const cs_bdd_set *b, GError **err)
{
  return cs_bdd_set_union(a, b, err);
}

cs_bdd_set *cs_gm_bdd_intersection(const cs_bdd_set *a, const cs_bdd_set *b, GError **err)
{
  return cs_bdd_set_intersection(a, b, err);
}

cs_bdd_set *cs_gm_bdd_difference(const cs_bdd_set *a, const cs_bdd_set *b, GError **err)
{
  return cs_bdd_set_difference(a, b, err);
}
