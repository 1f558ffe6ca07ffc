/* Group maps, the module core (seed 003, Section 5 and Figure 3; Section 6's
 * "independent module that hides all the internals"; Section 7's composite
 * formula).  Implements the cs_gm_* functions of sim/contracts/groupmap.h:
 * input checks, `ordered` computed once, dispatch to one representation of
 * the registry (registry.c), and the composite "wtr+X" of Figure 3's AND
 * branch (a permutation plus a set).
 *
 * Choices the paper leaves open, made here:
 *  - Input check.  Every wid must be below world, world must lie in
 *    [1, 2^31] and the wids must be distinct; a failure is
 *    CS_GM_ERROR_INPUT with a message naming the first offending entry by
 *    position (for a duplicate: the first position whose wid occurred
 *    earlier).  A strictly increasing list is distinct by construction, so
 *    only an unordered list is sorted to look for duplicates (a two-pass
 *    radix sort, O(m) time and memory whatever the world size; naming the
 *    duplicate's position sorts (wid, position) pairs, on the error path
 *    only).  The sorted copy is kept for the composite, so an unordered
 *    group is sorted once.
 *  - `ordered` (Section 5: gid order is wid order) is computed once here and
 *    handed to the representation; groups of 0 and 1 members are ordered.
 *  - A representation of kind CS_GM_SET named alone refuses an unordered
 *    group here, before its create() runs, with CS_GM_ERROR_NOT_APPLICABLE
 *    and a message naming the first descent and suggesting "wtr+X".  A
 *    CS_GM_MAP representation sees every group (R/S is one: see
 *    range_stride.c for how it treats unordered input).
 *  - Composite "wtr+X": X may be any registered representation (each stores
 *    an ordered group); the strategies and tests use it with every X.  The
 *    permutation is built on the wids in gid order, X on the sorted wids
 *    (ordered = true), so
 *        select(gid) = X.select(pi(gid)),
 *        rank(wid)   = pi_inv(X.rank(wid))   (-1 stays -1),
 *        decode      = X.select(pi(gid)) for each gid of the range.
 *    Its size is the permutation's bits plus the set's, with the parts named
 *    "permutation" and "set"; paths come from X, runs from the permutation.
 *    "wtr+X" is accepted for an ordered group too (one run).
 *  - Out-of-range arguments of select/decode are caller errors:
 *    g_return_val_if_fail reports them (select returns 0, decode writes
 *    nothing).  rank() of a wid outside [0, world) is -1 without asking the
 *    representation.
 *  - lim NULL means cs_gm_limits_default() (gm_common.c documents the
 *    default values; the contract points here for them).
 */
#include "sim/contracts/groupmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPOSITE_PREFIX "wtr+"

struct cs_groupmap {
  char *name;                /* "bm", "wtr+bm" */
  const cs_gm_rep *rep;      /* the representation, or X of the composite */
  void *rep_st;
  const cs_perm_rep *perm;   /* NULL unless composite */
  void *perm_st;
  int64_t m;
  int64_t world;
  bool ordered;
};

/* ---------------------------------------------------------- input checks */

static bool check_world_and_count(const cs_wid *wids, int64_t m, int64_t world, GError **err)
{
  if (world < 1 || world > CS_GM_MAX_WORLD) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                "world size %" G_GINT64_FORMAT " is outside [1, 2^31]", world);
    return false;
  }
  if (m < 0) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT, "member count %" G_GINT64_FORMAT " is negative",
                m);
    return false;
  }
  if (m > 0 && wids == NULL) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                "%" G_GINT64_FORMAT " members but no wid list", m);
    return false;
  }
  return true;
}

static bool check_below_world(const cs_wid *wids, int64_t m, int64_t world, GError **err)
{
  for (int64_t i = 0; i < m; i++)
    if ((int64_t)wids[i] >= world) {
      g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                  "wid %u at position %" G_GINT64_FORMAT " is not below the world size %" G_GINT64_FORMAT,
                  wids[i], i, world);
      return false;
    }
  return true;
}

static bool strictly_increasing(const cs_wid *wids, int64_t m)
{
  for (int64_t i = 1; i < m; i++)
    if (wids[i] <= wids[i - 1])
      return false;
  return true;
}

static int compare_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Keys wid << 32 | position, sorted: equal wids are adjacent, by position. */
static uint64_t *sorted_keys(const cs_wid *wids, int64_t m)
{
  uint64_t *key = g_new(uint64_t, m);
  for (int64_t i = 0; i < m; i++)
    key[i] = (uint64_t)wids[i] << 32 | (uint64_t)i;
  qsort(key, (size_t)m, sizeof *key, compare_u64);
  return key;
}

/* The first position (in gid order) whose wid occurred at an earlier
 * position, or -1.  For each repeated wid that is its second occurrence. */
static int64_t first_repeat(const uint64_t *key, int64_t m, int64_t *earlier)
{
  int64_t best = -1;
  for (int64_t i = 1; i < m; i++) {
    if (key[i] >> 32 != key[i - 1] >> 32)
      continue;
    if (i >= 2 && key[i - 2] >> 32 == key[i] >> 32)
      continue; /* a third occurrence comes after the second */
    int64_t pos = (int64_t)(key[i] & 0xffffffffu);
    if (best < 0 || pos < best) {
      best = pos;
      *earlier = (int64_t)(key[i - 1] & 0xffffffffu);
    }
  }
  return best;
}

static int compare_wid(const void *a, const void *b)
{
  cs_wid x = *(const cs_wid *)a, y = *(const cs_wid *)b;
  return (x > y) - (x < y);
}

/* LSD radix sort of 32-bit wids, two passes of 16 bits (qsort below
 * RADIX_MIN, where the 2^16 counters would dominate). */
#define RADIX_MIN 4096

static void radix_pass(const cs_wid *from, cs_wid *to, int64_t m, int shift)
{
  int64_t *count = g_new0(int64_t, 65537);
  for (int64_t i = 0; i < m; i++)
    count[(from[i] >> shift & 0xffff) + 1]++;
  for (int d = 0; d < 65536; d++)
    count[d + 1] += count[d];
  for (int64_t i = 0; i < m; i++)
    to[count[from[i] >> shift & 0xffff]++] = from[i];
  g_free(count);
}

/* The bitmap of the world's wids in the list; *repeats when one occurs
 * twice (the bitmap is then incomplete).  Used where it is no larger than
 * the list itself (world <= 32 m: at most m 4-byte words), so a large group
 * is checked and sorted without a second copy or a sort buffer. */
static uint64_t *member_bitmap(const cs_wid *wids, int64_t m, int64_t world, bool *repeats)
{
  uint64_t *seen = g_new0(uint64_t, (gsize)(world / 64 + 1));
  *repeats = false;
  for (int64_t i = 0; i < m && !*repeats; i++) {
    uint64_t bit = UINT64_C(1) << (wids[i] & 63);
    *repeats = (seen[wids[i] >> 6] & bit) != 0;
    seen[wids[i] >> 6] |= bit;
  }
  return seen;
}

#define BITMAP_WORLD_PER_MEMBER 32

/* Sorted through member_bitmap; NULL when a wid repeats. */
static cs_wid *sorted_by_bitmap(const cs_wid *wids, int64_t m, int64_t world)
{
  bool repeats;
  uint64_t *seen = member_bitmap(wids, m, world, &repeats);
  cs_wid *out = repeats ? NULL : g_new(cs_wid, MAX(m, 1));
  for (int64_t word = 0, k = 0; out && word <= world / 64; word++)
    for (uint64_t bits = seen[word]; bits; bits &= bits - 1)
      out[k++] = (cs_wid)(64 * word + __builtin_ctzll(bits));
  g_free(seen);
  return out;
}

static cs_wid *sorted_copy(const cs_wid *wids, int64_t m)
{
  cs_wid *out = g_memdup2(wids, (gsize)m * sizeof(cs_wid));
  if (m < RADIX_MIN) {
    qsort(out, (size_t)m, sizeof *out, compare_wid);
    return out;
  }
  cs_wid *tmp = g_new(cs_wid, m);
  radix_pass(out, tmp, m, 0);
  radix_pass(tmp, out, m, 16);
  g_free(tmp);
  return out;
}

static bool has_adjacent_equal(const cs_wid *sorted, int64_t m)
{
  for (int64_t i = 1; i < m; i++)
    if (sorted[i] == sorted[i - 1])
      return true;
  return false;
}

/* The error for a list known to hold a duplicate: sorts (wid, position)
 * keys to name the first repeating position. */
static void set_duplicate_error(const cs_wid *wids, int64_t m, GError **err)
{
  uint64_t *key = sorted_keys(wids, m);
  int64_t earlier = -1;
  int64_t pos = first_repeat(key, m, &earlier);
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
              "wid %u at position %" G_GINT64_FORMAT " repeats position %" G_GINT64_FORMAT, wids[pos],
              pos, earlier);
  g_free(key);
}

/* Checks an unordered list for duplicates; returns its sorted wids (the
 * caller frees) or NULL with err set. */
static cs_wid *sorted_distinct_or_error(const cs_wid *wids, int64_t m, int64_t world, GError **err)
{
  if (world <= BITMAP_WORLD_PER_MEMBER * m) {
    cs_wid *sorted = sorted_by_bitmap(wids, m, world);
    if (!sorted)
      set_duplicate_error(wids, m, err);
    return sorted;
  }
  cs_wid *sorted = sorted_copy(wids, m);
  if (!has_adjacent_equal(sorted, m))
    return sorted;
  g_free(sorted);
  set_duplicate_error(wids, m, err);
  return NULL;
}

/* Does an unordered list repeat a wid?  1 or 0 through member_bitmap, -1
 * when the world is too large for it (the caller sorts instead). */
static int repeats_by_bitmap(const cs_wid *wids, int64_t m, int64_t world)
{
  if (world > BITMAP_WORLD_PER_MEMBER * m)
    return -1;
  bool repeats;
  g_free(member_bitmap(wids, m, world, &repeats));
  return repeats;
}

/* The core's input check, shared with the strategies and the group
 * operations (declared in sim/contracts/groupmap_ops.h).  On success sets
 * *ordered and, when sorted_out is given and the list is unordered, a sorted
 * copy for the caller to free (NULL when the list is ordered). */
bool cs_gm_check_wids_sorted(const cs_wid *wids, int64_t m, int64_t world, bool *ordered,
                             cs_wid **sorted_out, GError **err)
{
  if (sorted_out)
    *sorted_out = NULL;
  if (!check_world_and_count(wids, m, world, err) || !check_below_world(wids, m, world, err))
    return false;
  bool ord = strictly_increasing(wids, m);
  int repeats = ord || sorted_out ? -1 : repeats_by_bitmap(wids, m, world);
  if (repeats == 1) {
    set_duplicate_error(wids, m, err);
    return false;
  }
  if (!ord && repeats == -1) {
    cs_wid *sorted = sorted_distinct_or_error(wids, m, world, err);
    if (!sorted)
      return false;
    if (sorted_out)
      *sorted_out = sorted;
    else
      g_free(sorted);
  }
  if (ordered)
    *ordered = ord;
  return true;
}

bool cs_gm_check_wids(const cs_wid *wids, int64_t m, int64_t world, bool *ordered, GError **err)
{
  return cs_gm_check_wids_sorted(wids, m, world, ordered, NULL, err);
}

/* ------------------------------------------------------------- creation */

static int64_t first_descent(const cs_wid *wids, int64_t m)
{
  for (int64_t i = 1; i < m; i++)
    if (wids[i] < wids[i - 1])
      return i;
  return -1;
}

static const cs_gm_rep *find_rep_or_error(const char *name, GError **err)
{
  const cs_gm_rep *rep = name ? cs_gm_rep_find(name) : NULL;
  if (rep)
    return rep;
  GString *known = g_string_new(NULL);
  for (size_t i = 0; i < cs_gm_rep_count(); i++)
    g_string_append_printf(known, "%s%s", i ? ", " : "", cs_gm_rep_at(i)->name);
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
              "unknown group-map representation '%s' (known: %s, and " COMPOSITE_PREFIX "X for any of them)",
              name ? name : "(null)", known->str);
  g_string_free(known, TRUE);
  return NULL;
}

static bool refuse_unordered_for_set(const cs_gm_rep *rep, const cs_wid *wids, int64_t m,
                                     GError **err)
{
  int64_t i = first_descent(wids, m);
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE,
              "%s is a set representation and the group is unordered (gid %" G_GINT64_FORMAT
              " has wid %u after wid %u); use " COMPOSITE_PREFIX "%s",
              rep->name, i, wids[i], wids[i - 1], rep->name);
  return false;
}

static bool build_single(cs_groupmap *g, const cs_wid *wids, const cs_gm_limits *lim, GError **err)
{
  if (g->rep->kind == CS_GM_SET && !g->ordered)
    return refuse_unordered_for_set(g->rep, wids, g->m, err);
  g->rep_st = g->rep->create(wids, g->m, g->world, g->ordered, lim, err);
  return g->rep_st != NULL;
}

/* The permutation first (its run limit is the usual reason a composite
 * fails, and it fails before allocating), then the sorted copy for the set:
 * the two builds' working memories are never alive together. */
static bool build_composite(cs_groupmap *g, const cs_wid *wids, const cs_gm_limits *lim, GError **err)
{
  g->perm = cs_perm_rep_wtr();
  if (!g->perm) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT, "no permutation representation is registered");
    return false;
  }
  g->perm_st = g->perm->create(wids, g->m, lim, err);
  if (!g->perm_st)
    return false;
  cs_wid *sorted = g->ordered ? NULL : sorted_distinct_or_error(wids, g->m, g->world, err);
  if (!g->ordered && !sorted)
    return false; /* cannot happen: the wids were checked */
  g->rep_st = g->rep->create(sorted ? sorted : wids, g->m, g->world, true, lim, err);
  g_free(sorted);
  return g->rep_st != NULL;
}

static void destroy_parts(cs_groupmap *g)
{
  if (g->rep_st)
    g->rep->destroy(g->rep_st);
  if (g->perm_st)
    g->perm->destroy(g->perm_st);
  g_free(g->name);
  g_free(g);
}

cs_groupmap *cs_gm_create(const char *name, const cs_wid *wids, int64_t m, int64_t world,
                          const cs_gm_limits *lim, GError **err)
{
  bool composite = name && g_str_has_prefix(name, COMPOSITE_PREFIX);
  const cs_gm_rep *rep =
      find_rep_or_error(composite ? name + strlen(COMPOSITE_PREFIX) : name, err);
  if (!rep)
    return NULL;
  bool ordered = false;
  if (!cs_gm_check_wids(wids, m, world, &ordered, err))
    return NULL;
  cs_gm_limits def = cs_gm_limits_default();
  cs_groupmap *g = g_new0(cs_groupmap, 1);
  g->name = g_strdup(name);
  g->rep = rep;
  g->m = m;
  g->world = world;
  g->ordered = ordered;
  bool ok = composite ? build_composite(g, wids, lim ? lim : &def, err)
                      : build_single(g, wids, lim ? lim : &def, err);
  if (!ok) {
    destroy_parts(g);
    return NULL;
  }
  return g;
}

void cs_gm_free(cs_groupmap *g)
{
  if (g)
    destroy_parts(g);
}

/* ------------------------------------------------------------- queries */

cs_wid cs_gm_select(cs_groupmap *g, int64_t gid)
{
  g_return_val_if_fail(g && gid >= 0 && gid < g->m, 0);
  if (!g->perm)
    return g->rep->select(g->rep_st, gid);
  return g->rep->select(g->rep_st, g->perm->pi(g->perm_st, gid));
}

int64_t cs_gm_rank(cs_groupmap *g, int64_t wid)
{
  g_return_val_if_fail(g, -1);
  if (wid < 0 || wid >= g->world)
    return -1;
  int64_t r = g->rep->rank(g->rep_st, wid);
  if (!g->perm || r < 0)
    return r;
  return g->perm->pi_inv(g->perm_st, r);
}

void cs_gm_decode(cs_groupmap *g, int64_t first, int64_t count, cs_wid *out)
{
  g_return_if_fail(g && first >= 0 && count >= 0 && first <= g->m - count);
  if (count == 0)
    return;
  g_return_if_fail(out);
  if (!g->perm) {
    g->rep->decode(g->rep_st, first, count, out);
    return;
  }
  for (int64_t i = 0; i < count; i++)
    out[i] = g->rep->select(g->rep_st, g->perm->pi(g->perm_st, first + i));
}

cs_gm_size cs_gm_size_of(const cs_groupmap *g)
{
  static const cs_gm_size none = {.paths = -1, .runs = -1};
  g_return_val_if_fail(g, none);
  cs_gm_size set = g->rep->size(g->rep_st);
  if (!g->perm)
    return set;
  cs_gm_size perm = g->perm->size(g->perm_st);
  cs_gm_size both = {.bits = perm.bits + set.bits, .paths = set.paths, .runs = perm.runs};
  both.parts[0].name = "permutation";
  both.parts[0].bits = perm.bits;
  both.parts[1].name = "set";
  both.parts[1].bits = set.bits;
  return both;
}

int64_t cs_gm_members(const cs_groupmap *g) { return g ? g->m : 0; }

int64_t cs_gm_world(const cs_groupmap *g) { return g ? g->world : 0; }

bool cs_gm_ordered(const cs_groupmap *g) { return g && g->ordered; }

const char *cs_gm_name(const cs_groupmap *g) { return g ? g->name : NULL; }
