/* Unit tests of the "bdd" and "bwt" group maps (algorithms/groupmaps/bdd.c,
 * bwt.c) and the BDD sets of bdd_sets.h: seed 003 (Kamal, Mirtaheri,
 * Wagner), Sections 5.2, 5.4 and 7.2.
 *  - on hundreds of groups (empty, one member, the whole world, the world
 *    minus one, the largest wid world - 1, ranges, strides, ranges of
 *    ranges, sub-grids, random sparse and dense, over worlds from 1 to 2^31;
 *    for BWT also unordered sequences and several block lengths) select
 *    (random and sequential), rank (members, non-members, wids past the
 *    world) and decode (random windows) equal a plain array;
 *  - sizes equal their documented formulas (BWT's recomputed with libbz2);
 *  - BDD path counts where they follow by hand: an aligned power-of-two
 *    range, a power-of-two stride (X's above fixed low bits) and a single
 *    member are 1 path, [0, n) is popcount(n) paths, the world 2^L minus
 *    one member is L paths, {w : bit 0 == bit 1} is 2 interleaved paths;
 *  - creation beyond bdd_max_nodes or bdd_max_paths fails with
 *    CS_GM_ERROR_LIMIT and a message naming the value and the limit; BDD
 *    refuses an unordered group; a BWT block length of 0 is refused;
 *  - BDD set union / intersection / difference equal the same operations
 *    on sorted arrays, counts are exact, results are canonical, and the
 *    sets share nodes (nodes of {A, B, A u B} together < the sum);
 *  - a set turned into a map equals the map built from the wids;
 *  - a BuDDy error (the node table capped) fails the creation or the
 *    operation with a reason, the process goes on, and lifting the cap
 *    lets the same creation succeed;
 *  - a 10^6-member group of each kind.
 * Deterministic: a local splitmix64 with fixed seeds; no timing asserted. */
#include "algorithms/groupmaps/bdd_sets.h"

#include <bzlib.h>
#include <check.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

extern const cs_gm_rep cs_gm_rep_bwt;

/* ------------------------------------------------------------- helpers --- */

static uint64_t splitmix64(uint64_t *s)
{
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static int64_t below(uint64_t *s, int64_t n)
{
  return n <= 0 ? 0 : (int64_t)(splitmix64(s) % (uint64_t)n);
}

static int vars_of(int64_t world)
{
  int L = 1;
  while ((INT64_C(1) << L) < world)
    L++;
  return L;
}

typedef struct group {
  cs_wid *w;
  int64_t m;
  int64_t world;
  char *label;
} group;

static group group_empty(int64_t world, int64_t cap, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static group group_empty(int64_t world, int64_t cap, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  group g = {.w = g_new(cs_wid, (size_t)(cap > 0 ? cap : 1)), .m = 0, .world = world,
             .label = g_strdup_vprintf(fmt, ap)};
  va_end(ap);
  return g;
}

static void group_free(group *g)
{
  g_free(g->w);
  g_free(g->label);
}

static void add(group *g, int64_t wid)
{
  g->w[g->m++] = (cs_wid)wid;
}

typedef struct pair {
  cs_wid wid;
  int64_t gid;
} pair;

static int cmp_pair(const void *a, const void *b)
{
  const pair *x = a, *y = b;
  return x->wid < y->wid ? -1 : x->wid > y->wid;
}

static int cmp_wid(const void *a, const void *b)
{
  cs_wid x = *(const cs_wid *)a, y = *(const cs_wid *)b;
  return x < y ? -1 : x > y;
}

/* The expected rank: (wid, gid) sorted by wid, searched. */
typedef struct oracle {
  pair *p;
  int64_t m;
} oracle;

static oracle oracle_of(const group *g)
{
  oracle o = {.p = g_new(pair, (size_t)(g->m > 0 ? g->m : 1)), .m = g->m};
  for (int64_t i = 0; i < g->m; i++)
    o.p[i] = (pair){.wid = g->w[i], .gid = i};
  qsort(o.p, (size_t)o.m, sizeof *o.p, cmp_pair);
  return o;
}

static int64_t oracle_rank(const oracle *o, int64_t wid)
{
  if (wid < 0 || wid > (int64_t)UINT32_MAX)
    return -1;
  pair key = {.wid = (cs_wid)wid};
  const pair *hit = bsearch(&key, o->p, (size_t)o->m, sizeof *o->p, cmp_pair);
  return hit ? hit->gid : -1;
}

/* ------------------------------------------------------ generic checks --- */

static void check_selects(const cs_gm_rep *rep, void *st, const group *g, uint64_t *rng)
{
  for (int64_t i = 0; i < g->m; i++) {
    cs_wid got = rep->select(st, i);
    if (got != g->w[i])
      ck_abort_msg("%s on %s: sequential select(%" PRId64 ") = %u, want %u", rep->name, g->label, i, got, g->w[i]);
  }
  int64_t n = g->m < 400 ? g->m : 400;
  for (int64_t k = 0; k < n; k++) {
    int64_t i = below(rng, g->m);
    int64_t run = 1 + below(rng, 3); /* a jump, then a short sequential run */
    for (int64_t j = i; j < i + run && j < g->m; j++) {
      cs_wid got = rep->select(st, j);
      if (got != g->w[j])
        ck_abort_msg("%s on %s: select(%" PRId64 ") = %u, want %u", rep->name, g->label, j, got, g->w[j]);
    }
  }
}

static void expect_rank(const cs_gm_rep *rep, void *st, const group *g, const oracle *o, int64_t wid)
{
  int64_t got = rep->rank(st, wid), want = oracle_rank(o, wid);
  if (got != want)
    ck_abort_msg("%s on %s: rank(%" PRId64 ") = %" PRId64 ", want %" PRId64, rep->name, g->label, wid, got, want);
}

/* Exhaustive over the world when small and cheap, else members and random
 * wids; always the wids past the world. */
static void check_ranks(const cs_gm_rep *rep, void *st, const group *g, bool cheap_rank, uint64_t *rng)
{
  oracle o = oracle_of(g);
  if (cheap_rank && g->world <= (INT64_C(1) << 17)) {
    for (int64_t wid = 0; wid < g->world; wid++)
      expect_rank(rep, st, g, &o, wid);
  } else {
    int64_t n = cheap_rank ? 1000 : 20;
    for (int64_t k = 0; k < n && g->m > 0; k++)
      expect_rank(rep, st, g, &o, g->w[below(rng, g->m)]);
    for (int64_t k = 0; k < n; k++)
      expect_rank(rep, st, g, &o, below(rng, g->world));
  }
  int L = vars_of(g->world);
  const int64_t past[] = {-1, INT64_MIN, g->world, g->world + 1, (INT64_C(1) << L) - 1, INT64_C(1) << L,
                          (INT64_C(1) << L) + 1, INT32_MAX, UINT32_MAX, INT64_C(1) << 32, INT64_C(1) << 40, INT64_MAX};
  for (size_t k = 0; k < G_N_ELEMENTS(past); k++)
    expect_rank(rep, st, g, &o, past[k]);
  g_free(o.p);
}

static void check_decode_window(const cs_gm_rep *rep, void *st, const group *g, int64_t first, int64_t count)
{
  cs_wid *out = g_new(cs_wid, (size_t)count + 1);
  out[count] = 0xDEADBEEF;
  rep->decode(st, first, count, out);
  if (out[count] != 0xDEADBEEF)
    ck_abort_msg("%s on %s: decode(%" PRId64 ", %" PRId64 ") wrote past its end", rep->name, g->label, first, count);
  for (int64_t i = 0; i < count; i++)
    if (out[i] != g->w[first + i])
      ck_abort_msg("%s on %s: decode(%" PRId64 ", %" PRId64 ")[%" PRId64 "] = %u, want %u", rep->name, g->label,
                   first, count, i, out[i], g->w[first + i]);
  g_free(out);
}

static void check_decodes(const cs_gm_rep *rep, void *st, const group *g, uint64_t *rng)
{
  check_decode_window(rep, st, g, 0, g->m);
  check_decode_window(rep, st, g, 0, 0);
  check_decode_window(rep, st, g, g->m, 0);
  /* windows of at most 2,000 (the whole group is done above): every BWT
   * block they cross is one decompression */
  for (int k = 0; k < 30 && g->m > 0; k++) {
    int64_t first = below(rng, g->m);
    int64_t longest = MIN(g->m - first, 2000);
    int64_t count = k % 3 == 0 ? 1 : below(rng, longest + 1);
    if (k % 5 == 4) /* a window ending at the last member */
      first = g->m - count;
    check_decode_window(rep, st, g, first, count);
  }
}

static void check_size_parts(const cs_gm_rep *rep, const group *g, cs_gm_size s)
{
  uint64_t sum = 0;
  for (int k = 0; k < 3; k++)
    if (s.parts[k].name)
      sum += s.parts[k].bits;
  if (sum != s.bits)
    ck_abort_msg("%s on %s: parts sum to %" PRIu64 " bits, total %" PRIu64, rep->name, g->label, sum, s.bits);
}

/* Creates rep on g and checks everything but the size formula; returns the
 * state for the caller's size checks. */
static void *check_map(const cs_gm_rep *rep, const group *g, bool ordered, const cs_gm_limits *lim, bool cheap_rank,
                       uint64_t seed)
{
  GError *err = NULL;
  void *st = rep->create(g->w, g->m, g->world, ordered, lim, &err);
  if (!st)
    ck_abort_msg("%s on %s: create failed: %s", rep->name, g->label, err ? err->message : "(no reason)");
  uint64_t rng = seed;
  check_selects(rep, st, g, &rng);
  check_ranks(rep, st, g, cheap_rank, &rng);
  check_decodes(rep, st, g, &rng);
  check_size_parts(rep, g, rep->size(st));
  return st;
}

/* ----------------------------------------------------- size formulas --- */

static int64_t bdd_paths_checked(const group *g, void *st)
{
  cs_gm_size s = cs_gm_rep_bdd.size(st);
  int L = vars_of(g->world);
  uint64_t want = 2u * (uint64_t)L * (uint64_t)s.paths + 32u * (uint64_t)(s.paths / 64) + 32u;
  if (s.bits != want)
    ck_abort_msg("bdd on %s: %" PRIu64 " bits, formula gives %" PRIu64, g->label, s.bits, want);
  if (s.runs != -1 || s.paths < 0 || s.paths > g->m || (s.paths == 0) != (g->m == 0))
    ck_abort_msg("bdd on %s: paths %" PRId64 ", runs %" PRId64 " for %" PRId64 " members", g->label, s.paths, s.runs,
                 g->m);
  return s.paths;
}

/* bzip2 asks for about 1.1 MB per compression; the address sanitizer maps
 * and unmaps every such block, so the test keeps them between calls. */
static struct {
  void *p;
  size_t size;
  bool busy;
} bz_kept[6];

static void *bz_keep_alloc(void *opaque, int n, int m)
{
  (void)opaque;
  size_t size = (size_t)n * (size_t)m;
  for (size_t i = 0; i < G_N_ELEMENTS(bz_kept); i++)
    if (bz_kept[i].p && !bz_kept[i].busy && bz_kept[i].size == size) {
      bz_kept[i].busy = true;
      return bz_kept[i].p;
    }
  for (size_t i = 0; i < G_N_ELEMENTS(bz_kept); i++)
    if (!bz_kept[i].p) {
      bz_kept[i].p = g_malloc(size);
      bz_kept[i].size = size;
      bz_kept[i].busy = true;
      return bz_kept[i].p;
    }
  return NULL;
}

static void bz_keep_free(void *opaque, void *p)
{
  (void)opaque;
  for (size_t i = 0; i < G_N_ELEMENTS(bz_kept); i++)
    if (bz_kept[i].p == p)
      bz_kept[i].busy = false;
}

/* Bytes of n wids (little-endian words) compressed as one bzip2 stream,
 * blockSize100k 1, workFactor 0: what BZ2_bzBuffToBuffCompress gives, with
 * memory kept between calls. */
static uint64_t bz2_bytes(const cs_wid *w, int64_t n)
{
  unsigned int raw_len = (unsigned int)(4 * n);
  unsigned char *raw = g_new(unsigned char, raw_len + 1);
  for (int64_t i = 0; i < n; i++)
    for (int b = 0; b < 4; b++)
      raw[4 * i + b] = (unsigned char)(w[i] >> (8 * b));
  unsigned int cap = raw_len + raw_len / 100 + 600;
  char *out = g_new(char, cap);
  bz_stream strm;
  memset(&strm, 0, sizeof strm);
  strm.bzalloc = bz_keep_alloc;
  strm.bzfree = bz_keep_free;
  ck_assert_int_eq(BZ2_bzCompressInit(&strm, 1, 0, 0), BZ_OK);
  strm.next_in = (char *)raw;
  strm.avail_in = raw_len;
  strm.next_out = out;
  strm.avail_out = cap;
  ck_assert_int_eq(BZ2_bzCompress(&strm, BZ_FINISH), BZ_STREAM_END);
  uint64_t bytes = cap - strm.avail_out;
  BZ2_bzCompressEnd(&strm);
  g_free(raw);
  g_free(out);
  return bytes;
}

static void check_bwt_size(const group *g, void *st, bool ordered, int64_t block)
{
  int64_t blocks = (g->m + block - 1) / block;
  uint64_t bytes = 0;
  for (int64_t k = 0; k < blocks; k++)
    bytes += bz2_bytes(g->w + k * block, MIN(block, g->m - k * block));
  uint64_t want = 8 * bytes + 32u * (uint64_t)(blocks + 1) + (ordered ? 32u * (uint64_t)blocks : 0);
  cs_gm_size s = cs_gm_rep_bwt.size(st);
  if (s.bits != want || s.paths != -1 || s.runs != -1)
    ck_abort_msg("bwt on %s (B = %" PRId64 "): %" PRIu64 " bits, formula gives %" PRIu64, g->label, block, s.bits,
                 want);
}

/* Both representations on one ordered group; BWT with the paper's block
 * and, on groups up to 20,000 members, a short one (every block change
 * costs a decompression). */
static void check_ordered_group(const group *g, uint64_t seed)
{
  cs_gm_limits lim = cs_gm_limits_default();
  lim.bdd_max_nodes = INT64_MAX;
  lim.bdd_max_paths = INT64_MAX;
  void *st = check_map(&cs_gm_rep_bdd, g, true, &lim, true, seed);
  bdd_paths_checked(g, st);
  cs_gm_rep_bdd.destroy(st);
  const int64_t blocks[] = {1000, 7};
  for (size_t k = 0; k < G_N_ELEMENTS(blocks); k++) {
    if (k > 0 && g->m > 20000)
      continue;
    lim.bwt_block_wids = blocks[k];
    st = check_map(&cs_gm_rep_bwt, g, true, &lim, true, seed + 1);
    check_bwt_size(g, st, true, blocks[k]);
    cs_gm_rep_bwt.destroy(st);
  }
}

/* ------------------------------------------------------ group families --- */

typedef bool (*member_fn)(int64_t wid, int64_t world, const int64_t *p);

static group group_where(int64_t world, member_fn in, const int64_t *p, const char *label)
{
  group g = group_empty(world, world, "%s in world %" PRId64, label, world);
  for (int64_t w = 0; w < world; w++)
    if (in(w, world, p))
      add(&g, w);
  return g;
}

static bool in_range(int64_t w, int64_t world, const int64_t *p)
{
  (void)world;
  return w >= p[0] && w < p[1];
}

static bool in_stride(int64_t w, int64_t world, const int64_t *p)
{
  (void)world;
  return w >= p[1] && (w - p[1]) % p[0] == 0;
}

static bool in_blocks(int64_t w, int64_t world, const int64_t *p) /* p[0] of every p[1], from p[2] */
{
  (void)world;
  return w >= p[2] && (w - p[2]) % p[1] < p[0];
}

static bool in_world_but(int64_t w, int64_t world, const int64_t *p)
{
  (void)world;
  return w != p[0];
}

static bool in_grid(int64_t w, int64_t world, const int64_t *p) /* 10 x 10 x ..., digit p[0] fixed to p[1] */
{
  (void)world;
  return (w / p[2]) % 10 == p[1] && w < p[3];
}

static bool in_odd_or_low(int64_t w, int64_t world, const int64_t *p)
{
  (void)p;
  return (w & 1) || w < world / 2;
}

static group group_random(int64_t world, double density, uint64_t *rng)
{
  group g = group_empty(world, world, "random %.3f of world %" PRId64, density, world);
  uint64_t cut = (uint64_t)(density * 18446744073709551615.0);
  for (int64_t w = 0; w < world; w++)
    if (density >= 1.0 || splitmix64(rng) < cut)
      add(&g, w);
  return g;
}

static const int64_t WORLDS[] = {1,   2,    3,    4,    5,    7,    8,    9,     16,    17,    31,    32,  33,
                                 63,  64,   65,   100,  255,  256,  257,  1000,  1023,  1024,  1025,  4096,
                                 4099, 10000, 65536, 65537, 100000};

/* Every family on one world. */
static void check_families_on(int64_t world, uint64_t *rng)
{
  int64_t p[4];
  group g;
  g = group_empty(world, 1, "empty in world %" PRId64, world);
  check_ordered_group(&g, splitmix64(rng));
  group_free(&g);
  g = group_empty(world, 1, "{0} in world %" PRId64, world);
  add(&g, 0);
  check_ordered_group(&g, splitmix64(rng));
  group_free(&g);
  g = group_empty(world, 1, "{world - 1} in world %" PRId64, world);
  add(&g, world - 1);
  check_ordered_group(&g, splitmix64(rng));
  group_free(&g);
  g = group_random(world, 1.0, rng);
  check_ordered_group(&g, splitmix64(rng));
  group_free(&g);
  const int64_t removed[] = {0, world - 1, below(rng, world)};
  for (size_t k = 0; k < G_N_ELEMENTS(removed); k++) {
    p[0] = removed[k];
    g = group_where(world, in_world_but, p, "world minus one");
    check_ordered_group(&g, splitmix64(rng));
    group_free(&g);
  }
  for (int k = 0; k < 3; k++) {
    p[0] = below(rng, world);
    p[1] = p[0] + 1 + below(rng, world - p[0]);
    g = group_where(world, in_range, p, "range");
    check_ordered_group(&g, splitmix64(rng));
    group_free(&g);
  }
  const int64_t strides[] = {2, 3, 4, 7, 64};
  for (size_t k = 0; k < G_N_ELEMENTS(strides); k++) {
    p[0] = strides[k];
    p[1] = below(rng, MIN(world, strides[k] + 5));
    g = group_where(world, in_stride, p, "stride");
    check_ordered_group(&g, splitmix64(rng));
    group_free(&g);
  }
  const int64_t blocks[][2] = {{3, 8}, {50, 100}, {5, 17}};
  for (size_t k = 0; k < G_N_ELEMENTS(blocks); k++) {
    p[0] = blocks[k][0];
    p[1] = blocks[k][1];
    p[2] = below(rng, MIN(world, 20));
    g = group_where(world, in_blocks, p, "ranges of ranges");
    check_ordered_group(&g, splitmix64(rng));
    group_free(&g);
  }
  if (world >= 1000) {
    p[0] = 1;
    p[1] = below(rng, 10);
    p[2] = 10;
    p[3] = world - world % 1000;
    g = group_where(world, in_grid, p, "10x10x.. grid with one digit fixed");
    check_ordered_group(&g, splitmix64(rng));
    group_free(&g);
  }
  g = group_where(world, in_odd_or_low, p, "odds and the lower half");
  check_ordered_group(&g, splitmix64(rng));
  group_free(&g);
  const double densities[] = {0.01, 0.1, 0.5, 0.9};
  for (size_t k = 0; k < G_N_ELEMENTS(densities); k++) {
    g = group_random(world, densities[k], rng);
    check_ordered_group(&g, splitmix64(rng));
    group_free(&g);
  }
}

START_TEST(test_ordered_families)
{
  uint64_t rng = 1000 + (uint64_t)_i;
  check_families_on(WORLDS[_i], &rng);
}
END_TEST

/* Worlds near the top: L = 31 and the largest wid 2^31 - 1. */
START_TEST(test_largest_worlds)
{
  uint64_t rng = 77;
  const int64_t worlds[] = {CS_GM_MAX_WORLD, CS_GM_MAX_WORLD - 1, (INT64_C(1) << 30) + 1};
  for (size_t k = 0; k < G_N_ELEMENTS(worlds); k++) {
    int64_t world = worlds[k];
    group g = group_empty(world, 5002, "sparse with the top wids, world %" PRId64, world);
    for (int i = 0; i < 5000; i++)
      add(&g, below(&rng, world - 10));
    add(&g, world - 2);
    add(&g, world - 1);
    qsort(g.w, (size_t)g.m, sizeof *g.w, cmp_wid);
    int64_t n = 0;
    for (int64_t i = 0; i < g.m; i++)
      if (n == 0 || g.w[i] != g.w[n - 1])
        g.w[n++] = g.w[i];
    g.m = n;
    check_ordered_group(&g, splitmix64(&rng));
    group_free(&g);
    g = group_empty(world, 20000, "top range, world %" PRId64, world);
    for (int64_t w = world - 20000; w < world; w++)
      add(&g, w);
    check_ordered_group(&g, splitmix64(&rng));
    group_free(&g);
  }
}
END_TEST

/* ------------------------------------------------------ unordered (BWT) --- */

static void shuffle(cs_wid *w, int64_t m, uint64_t *rng)
{
  for (int64_t i = m - 1; i > 0; i--) {
    int64_t j = below(rng, i + 1);
    cs_wid t = w[i];
    w[i] = w[j];
    w[j] = t;
  }
}

static void check_unordered_group(const group *g, uint64_t seed)
{
  cs_gm_limits lim = cs_gm_limits_default();
  /* short blocks only on small groups: an unordered rank decompresses
   * every block */
  const int64_t blocks[] = {1000, 13, 1};
  const int64_t up_to[] = {INT64_MAX, 5000, 1100};
  for (size_t k = 0; k < G_N_ELEMENTS(blocks); k++) {
    if (g->m > up_to[k])
      continue;
    lim.bwt_block_wids = blocks[k];
    /* exhaustive ranks only while world x blocks decompressions stay few */
    bool cheap = g->world * (g->m / blocks[k] + 1) <= 20000;
    void *st = check_map(&cs_gm_rep_bwt, g, false, &lim, cheap, seed);
    check_bwt_size(g, st, false, blocks[k]);
    cs_gm_rep_bwt.destroy(st);
  }
  GError *err = NULL;
  void *st = cs_gm_rep_bdd.create(g->w, g->m, g->world, false, &lim, &err);
  ck_assert_ptr_null(st);
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE));
  g_error_free(err);
}

START_TEST(test_unordered_bwt)
{
  uint64_t rng = 4242;
  const int64_t worlds[] = {2, 3, 17, 100, 1024, 5000, 30000};
  for (size_t k = 0; k < G_N_ELEMENTS(worlds); k++) {
    int64_t world = worlds[k];
    group g = group_random(world, 0.3, &rng);
    shuffle(g.w, g.m, &rng);
    g_free(g.label);
    g.label = g_strdup_printf("random 0.3 of world %" PRId64 ", shuffled", world);
    check_unordered_group(&g, splitmix64(&rng));
    group_free(&g);

    g = group_empty(world, world, "world %" PRId64 " decreasing", world);
    for (int64_t w = world - 1; w >= 0; w--)
      add(&g, w);
    check_unordered_group(&g, splitmix64(&rng));
    group_free(&g);

    g = group_empty(world, world, "world %" PRId64 ", 50 pairwise swaps", world);
    for (int64_t w = 0; w < world; w++)
      add(&g, w);
    for (int s = 0; s < 50 && world > 1; s++) {
      int64_t i = below(&rng, world), j = below(&rng, world);
      cs_wid t = g.w[i];
      g.w[i] = g.w[j];
      g.w[j] = t;
    }
    check_unordered_group(&g, splitmix64(&rng));
    group_free(&g);

    /* blocks of 10 consecutive wids, the blocks permuted */
    int64_t nb = world / 10;
    g = group_empty(world, world, "world %" PRId64 ", blocks of 10 permuted", world);
    cs_wid *order = g_new(cs_wid, (size_t)(nb > 0 ? nb : 1));
    for (int64_t b = 0; b < nb; b++)
      order[b] = (cs_wid)b;
    shuffle(order, nb, &rng);
    for (int64_t b = 0; b < nb; b++)
      for (int64_t i = 0; i < 10; i++)
        add(&g, order[b] * 10 + i);
    g_free(order);
    check_unordered_group(&g, splitmix64(&rng));
    group_free(&g);

    g = group_empty(world, world, "world %" PRId64 ", decreasing stride 3", world);
    for (int64_t w = world - 1; w >= 0; w -= 3)
      add(&g, w);
    check_unordered_group(&g, splitmix64(&rng));
    group_free(&g);
  }
}
END_TEST

/* The size check's compressor gives BZ2_bzBuffToBuffCompress's bytes. */
START_TEST(test_bz2_helper_matches_buff_to_buff)
{
  uint64_t rng = 3;
  cs_wid w[1000];
  for (int t = 0; t < 20; t++) {
    int64_t n = 1 + below(&rng, 1000);
    for (int64_t i = 0; i < n; i++)
      w[i] = t % 2 ? (cs_wid)(3 * i + 7) : (cs_wid)splitmix64(&rng) >> 1;
    unsigned int raw_len = (unsigned int)(4 * n), cap = raw_len + raw_len / 100 + 600;
    unsigned char raw[4000];
    for (int64_t i = 0; i < n; i++)
      for (int b = 0; b < 4; b++)
        raw[4 * i + b] = (unsigned char)(w[i] >> (8 * b));
    char *out = g_new(char, cap);
    ck_assert_int_eq(BZ2_bzBuffToBuffCompress(out, &cap, (char *)raw, raw_len, 1, 0, 0), BZ_OK);
    ck_assert_uint_eq(bz2_bytes(w, n), cap);
    g_free(out);
  }
}
END_TEST

START_TEST(test_bwt_block_length_refused)
{
  cs_gm_limits lim = cs_gm_limits_default();
  cs_wid w[] = {1, 2, 3};
  const int64_t bad[] = {0, -5};
  for (size_t k = 0; k < G_N_ELEMENTS(bad); k++) {
    lim.bwt_block_wids = bad[k];
    GError *err = NULL;
    ck_assert_ptr_null(cs_gm_rep_bwt.create(w, 3, 10, true, &lim, &err));
    ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_INPUT));
    g_error_free(err);
  }
}
END_TEST

/* ----------------------------------------------- BDD paths by hand --- */

static int64_t bdd_paths_of(const group *g)
{
  GError *err = NULL;
  void *st = cs_gm_rep_bdd.create(g->w, g->m, g->world, true, NULL, &err);
  if (!st)
    ck_abort_msg("bdd on %s: %s", g->label, err->message);
  int64_t p = bdd_paths_checked(g, st);
  cs_gm_rep_bdd.destroy(st);
  return p;
}

static void expect_paths(const group *g, int64_t want)
{
  int64_t p = bdd_paths_of(g);
  if (p != want)
    ck_abort_msg("bdd on %s: %" PRId64 " paths, by hand %" PRId64, g->label, p, want);
}

START_TEST(test_bdd_paths_by_hand)
{
  uint64_t rng = 5;
  int64_t p[3];
  for (int L = 1; L <= 16; L++) {
    int64_t world = INT64_C(1) << L;
    for (int s = 0; s <= L; s++) { /* aligned range of 2^s */
      p[0] = below(&rng, world >> s) << s;
      p[1] = p[0] + (INT64_C(1) << s);
      group g = group_where(world, in_range, p, "aligned power-of-two range");
      expect_paths(&g, 1);
      group_free(&g);
    }
    for (int k = 1; k < L; k++) { /* stride 2^k from an offset below it */
      p[0] = INT64_C(1) << k;
      p[1] = below(&rng, p[0]);
      group g = group_where(world, in_stride, p, "power-of-two stride");
      expect_paths(&g, 1);
      group_free(&g);
    }
    p[0] = below(&rng, world);
    group g = group_where(world, in_world_but, p, "world 2^L minus one");
    expect_paths(&g, L);
    group_free(&g);
    g = group_empty(world, 1, "single member of world 2^%d", L);
    add(&g, below(&rng, world));
    expect_paths(&g, 1);
    group_free(&g);
    g = group_empty(world, 1, "empty world 2^%d", L);
    expect_paths(&g, 0);
    group_free(&g);
  }
  /* interleaved paths: {w : bit 0 == bit 1} is X..X00 and X..X11, whose
   * members alternate (the walk, not the running counts, must select) */
  for (int L = 2; L <= 12; L += 5) {
    group g = group_empty(INT64_C(1) << L, INT64_C(1) << L, "bit 0 == bit 1 in world 2^%d", L);
    for (int64_t w = 0; w < (INT64_C(1) << L); w++)
      if ((w & 1) == ((w >> 1) & 1))
        add(&g, w);
    expect_paths(&g, 2);
    check_ordered_group(&g, 99);
    group_free(&g);
  }
  const int64_t worlds[] = {5, 100, 1000, 65537};
  for (size_t k = 0; k < G_N_ELEMENTS(worlds); k++)
    for (int t = 0; t < 20; t++) {
      p[0] = 0;
      p[1] = 1 + below(&rng, worlds[k]);
      group g = group_where(worlds[k], in_range, p, "[0, n)");
      expect_paths(&g, __builtin_popcountll((unsigned long long)p[1]));
      group_free(&g);
    }
}
END_TEST

/* -------------------------------------------------------------- limits --- */

static void expect_limit(const group *g, const cs_gm_limits *lim, const char *needle1, const char *needle2)
{
  GError *err = NULL;
  void *st = cs_gm_rep_bdd.create(g->w, g->m, g->world, true, lim, &err);
  if (st)
    ck_abort_msg("bdd on %s: created beyond its limits", g->label);
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT));
  if (!strstr(err->message, needle1) || !strstr(err->message, needle2))
    ck_abort_msg("bdd on %s: reason \"%s\" lacks \"%s\" or \"%s\"", g->label, err->message, needle1, needle2);
  g_error_free(err);
}

static void expect_created(const group *g, const cs_gm_limits *lim)
{
  GError *err = NULL;
  void *st = cs_gm_rep_bdd.create(g->w, g->m, g->world, true, lim, &err);
  if (!st)
    ck_abort_msg("bdd on %s: refused at its limits: %s", g->label, err->message);
  cs_gm_rep_bdd.destroy(st);
}

START_TEST(test_bdd_limits)
{
  /* world 1024 minus one: a chain of 10 nodes, 10 paths */
  int64_t p[1] = {517};
  group g = group_where(1024, in_world_but, p, "world 1024 minus 517");
  cs_gm_limits lim = cs_gm_limits_default();
  lim.bdd_max_paths = 9;
  expect_limit(&g, &lim, "10 paths", "bdd_max_paths = 9");
  lim.bdd_max_paths = 10;
  expect_created(&g, &lim);
  lim.bdd_max_nodes = 9;
  expect_limit(&g, &lim, "BuDDy nodes", "bdd_max_nodes = 9");
  lim.bdd_max_nodes = 10;
  expect_created(&g, &lim);
  group_free(&g);

  /* a sparse random group of a 2^31 world needs over a million nodes: the
   * refusal stops the build early */
  uint64_t rng = 31;
  g = group_empty(CS_GM_MAX_WORLD, 300000, "300,000 random of 2^31");
  for (int i = 0; i < 300000; i++)
    add(&g, (int64_t)(splitmix64(&rng) >> 33));
  qsort(g.w, (size_t)g.m, sizeof *g.w, cmp_wid);
  lim = cs_gm_limits_default();
  lim.bdd_max_nodes = 100000;
  lim.bdd_max_paths = INT64_MAX;
  expect_limit(&g, &lim, "BuDDy nodes", "bdd_max_nodes = 100000");
  group_free(&g);
  char want[64];

  /* a random half of 2^12: many paths */
  g = group_random(1 << 12, 0.5, &rng);
  int64_t paths = bdd_paths_of(&g);
  ck_assert_int_gt(paths, 100);
  lim = cs_gm_limits_default();
  lim.bdd_max_paths = paths - 1;
  g_snprintf(want, sizeof want, "%" PRId64 " paths", paths);
  expect_limit(&g, &lim, want, "bdd_max_paths");
  group_free(&g);
}
END_TEST

/* ------------------------------------------------------------ BDD sets --- */

static cs_wid *merge(const group *a, const group *b, int op, int64_t *m) /* 0 union, 1 inter, 2 diff */
{
  cs_wid *out = g_new(cs_wid, (size_t)(a->m + b->m + 1));
  int64_t i = 0, j = 0, n = 0;
  while (i < a->m || j < b->m) {
    bool in_a = i < a->m && (j >= b->m || a->w[i] <= b->w[j]);
    bool in_b = j < b->m && (i >= a->m || b->w[j] <= a->w[i]);
    cs_wid w = in_a ? a->w[i] : b->w[j];
    bool keep = op == 0 ? true : op == 1 ? (in_a && in_b) : (in_a && !in_b);
    if (keep)
      out[n++] = w;
    i += in_a;
    j += in_b;
  }
  *m = n;
  return out;
}

static cs_bdd_set *set_of(const group *g)
{
  GError *err = NULL;
  cs_bdd_set *s = cs_bdd_set_from_wids(g->w, g->m, g->world, &err);
  if (!s)
    ck_abort_msg("set of %s: %s", g->label, err->message);
  return s;
}

static void expect_set(const cs_bdd_set *s, const cs_wid *want, int64_t n, int64_t world, const char *what)
{
  if (cs_bdd_set_count(s) != n)
    ck_abort_msg("%s: count %" PRId64 ", want %" PRId64, what, cs_bdd_set_count(s), n);
  int64_t m;
  cs_wid *got = cs_bdd_set_to_wids(s, &m);
  if (m != n || memcmp(got, want, (size_t)n * sizeof *got) != 0)
    ck_abort_msg("%s: members differ from the sorted-array result", what);
  g_free(got);
  GError *err = NULL;
  cs_bdd_set *direct = cs_bdd_set_from_wids(want, n, world, &err);
  ck_assert_ptr_nonnull(direct);
  if (!cs_bdd_set_equal(s, direct))
    ck_abort_msg("%s: not the canonical BDD of its members", what);
  cs_bdd_set_free(direct);
}

static group group_mixed(int64_t world, uint64_t *rng)
{
  int kind = (int)below(rng, 4);
  if (kind == 0)
    return group_random(world, (double)below(rng, 101) / 100.0, rng);
  int64_t p[3];
  if (kind == 1) {
    p[0] = below(rng, world);
    p[1] = p[0] + below(rng, world - p[0] + 1);
    return group_where(world, in_range, p, "range");
  }
  if (kind == 2) {
    p[0] = 1 + below(rng, 9);
    p[1] = below(rng, p[0]);
    return group_where(world, in_stride, p, "stride");
  }
  p[0] = 1 + below(rng, 20);
  p[1] = p[0] + below(rng, 40);
  p[2] = below(rng, 30);
  return group_where(world, in_blocks, p, "ranges of ranges");
}

START_TEST(test_set_operations_equal_arrays)
{
  uint64_t rng = 7;
  const int64_t worlds[] = {1, 2, 5, 64, 1000, 4097, 65536};
  for (size_t k = 0; k < G_N_ELEMENTS(worlds); k++)
    for (int t = 0; t < 30; t++) {
      int64_t world = worlds[k];
      group a = group_mixed(world, &rng), b = group_mixed(world, &rng);
      cs_bdd_set *sa = set_of(&a), *sb = set_of(&b);
      expect_set(sa, a.w, a.m, world, "from wids");
      GError *err = NULL;
      cs_bdd_set *r[3] = {cs_bdd_set_union(sa, sb, &err), cs_bdd_set_intersection(sa, sb, &err),
                          cs_bdd_set_difference(sa, sb, &err)};
      for (int op = 0; op < 3; op++) {
        ck_assert_ptr_nonnull(r[op]);
        int64_t n;
        cs_wid *want = merge(&a, &b, op, &n);
        char *what = g_strdup_printf("op %d on %s and %s", op, a.label, b.label);
        expect_set(r[op], want, n, world, what);
        g_free(what);
        g_free(want);
      }
      const cs_bdd_set *all[] = {sa, sb, r[0], r[1], r[2]};
      int64_t together = cs_bdd_sets_nodes(all, 5), sum = 0;
      for (int i = 0; i < 5; i++)
        sum += cs_bdd_set_nodes(all[i]);
      ck_assert_int_le(together, sum);
      for (int op = 0; op < 3; op++)
        cs_bdd_set_free(r[op]);
      cs_bdd_set_free(sa);
      cs_bdd_set_free(sb);
      group_free(&a);
      group_free(&b);
    }
}
END_TEST

START_TEST(test_set_range)
{
  uint64_t rng = 8;
  const int64_t worlds[] = {1, 3, 1000, 1 << 16, CS_GM_MAX_WORLD};
  for (size_t k = 0; k < G_N_ELEMENTS(worlds); k++)
    for (int t = 0; t < 40; t++) {
      int64_t world = worlds[k];
      int64_t lo = below(&rng, world), hi = lo + below(&rng, MIN(world - lo, 5000));
      GError *err = NULL;
      cs_bdd_set *s = cs_bdd_set_range(lo, hi, world, &err);
      ck_assert_ptr_nonnull(s);
      cs_wid *want = g_new(cs_wid, (size_t)(hi - lo + 1));
      for (int64_t w = lo; w <= hi; w++)
        want[w - lo] = (cs_wid)w;
      expect_set(s, want, hi - lo + 1, world, "range");
      g_free(want);
      cs_bdd_set_free(s);
    }
  GError *err = NULL;
  cs_bdd_set *e = cs_bdd_set_range(5, 4, 10, &err);
  ck_assert_ptr_nonnull(e);
  ck_assert_int_eq(cs_bdd_set_count(e), 0);
  ck_assert_int_eq(cs_bdd_set_nodes(e), 0);
  cs_bdd_set_free(e);
  ck_assert_ptr_null(cs_bdd_set_range(0, 10, 10, &err));
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_INPUT));
  g_clear_error(&err);
}
END_TEST

START_TEST(test_sets_share_nodes)
{
  uint64_t rng = 9;
  int64_t world = 1 << 14;
  group a = group_empty(world, world, "random lower half");
  group b = group_empty(world, world, "random upper half");
  for (int64_t w = 0; w < world; w++)
    if (splitmix64(&rng) % 3 == 0)
      add(w < world / 2 ? &a : &b, w);
  cs_bdd_set *sa = set_of(&a), *sb = set_of(&b);
  GError *err = NULL;
  cs_bdd_set *u = cs_bdd_set_union(sa, sb, &err);
  ck_assert_ptr_nonnull(u);
  const cs_bdd_set *abu[] = {sa, sb, u}, *ab[] = {sa, sb};
  int64_t together = cs_bdd_sets_nodes(abu, 3);
  int64_t sum = cs_bdd_set_nodes(sa) + cs_bdd_set_nodes(sb) + cs_bdd_set_nodes(u);
  ck_assert_int_lt(together, sum);
  /* A u B is one new node over the halves A and B already hold */
  ck_assert_int_eq(together, cs_bdd_sets_nodes(ab, 2) + 1);
  ck_assert_int_eq(cs_bdd_sets_nodes(abu, 0), 0);

  /* overlapping sets: a range and its intersection with a stride */
  cs_bdd_set *r = cs_bdd_set_range(100, 9000, world, &err);
  int64_t p[2] = {2, 0};
  group evens = group_where(world, in_stride, p, "evens");
  cs_bdd_set *se = set_of(&evens);
  cs_bdd_set *i = cs_bdd_set_intersection(r, se, &err);
  const cs_bdd_set *rei[] = {r, se, i};
  ck_assert_int_lt(cs_bdd_sets_nodes(rei, 3), cs_bdd_set_nodes(r) + cs_bdd_set_nodes(se) + cs_bdd_set_nodes(i));
  cs_bdd_set_free(i);
  cs_bdd_set_free(se);
  cs_bdd_set_free(r);
  group_free(&evens);
  cs_bdd_set_free(u);
  cs_bdd_set_free(sa);
  cs_bdd_set_free(sb);
  group_free(&a);
  group_free(&b);
}
END_TEST

START_TEST(test_set_bad_input)
{
  GError *err = NULL;
  cs_wid unsorted[] = {3, 2};
  ck_assert_ptr_null(cs_bdd_set_from_wids(unsorted, 2, 10, &err));
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_INPUT));
  g_clear_error(&err);
  cs_wid outside[] = {3, 10};
  ck_assert_ptr_null(cs_bdd_set_from_wids(outside, 2, 10, &err));
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_INPUT));
  g_clear_error(&err);
  ck_assert_ptr_null(cs_bdd_set_from_wids(outside, 0, 0, &err));
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_INPUT));
  g_clear_error(&err);
  cs_bdd_set *a = cs_bdd_set_range(0, 5, 10, &err), *b = cs_bdd_set_range(0, 5, 11, &err);
  ck_assert_ptr_null(cs_bdd_set_union(a, b, &err));
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_INPUT));
  g_clear_error(&err);
  ck_assert(!cs_bdd_set_equal(a, b));
  ck_assert_int_eq(cs_bdd_set_world(b), 11);
  cs_bdd_set_free(a);
  cs_bdd_set_free(b);
}
END_TEST

/* A group built by operations becomes a map without rebuilding, equal to
 * the map built from its wids. */
START_TEST(test_set_to_rep_state)
{
  uint64_t rng = 10;
  const int64_t worlds[] = {1, 9, 1000, 65536};
  for (size_t k = 0; k < G_N_ELEMENTS(worlds); k++)
    for (int t = 0; t < 10; t++) {
      int64_t world = worlds[k];
      group a = group_mixed(world, &rng), b = group_mixed(world, &rng);
      cs_bdd_set *sa = set_of(&a), *sb = set_of(&b);
      GError *err = NULL;
      cs_bdd_set *u = cs_bdd_set_union(sa, sb, &err);
      int64_t n;
      cs_wid *want = merge(&a, &b, 0, &n);
      group g = {.w = want, .m = n, .world = world, .label = g_strdup_printf("union in world %" PRId64, world)};
      void *from_set = cs_bdd_set_to_rep_state(u, NULL, &err);
      ck_assert_ptr_nonnull(from_set);
      uint64_t r2 = rng;
      check_selects(&cs_gm_rep_bdd, from_set, &g, &r2);
      check_ranks(&cs_gm_rep_bdd, from_set, &g, true, &r2);
      check_decodes(&cs_gm_rep_bdd, from_set, &g, &r2);
      void *from_wids = cs_gm_rep_bdd.create(g.w, g.m, world, true, NULL, &err);
      ck_assert_ptr_nonnull(from_wids);
      cs_gm_size s1 = cs_gm_rep_bdd.size(from_set), s2 = cs_gm_rep_bdd.size(from_wids);
      ck_assert_uint_eq(s1.bits, s2.bits);
      ck_assert_int_eq(s1.paths, s2.paths);
      bdd_paths_checked(&g, from_set);
      cs_gm_rep_bdd.destroy(from_set);
      cs_gm_rep_bdd.destroy(from_wids);
      /* the same limits apply */
      cs_gm_limits lim = cs_gm_limits_default();
      lim.bdd_max_paths = s1.paths - 1;
      if (s1.paths > 0) {
        ck_assert_ptr_null(cs_bdd_set_to_rep_state(u, &lim, &err));
        ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT));
        g_clear_error(&err);
      }
      group_free(&g);
      cs_bdd_set_free(u);
      cs_bdd_set_free(sa);
      cs_bdd_set_free(sb);
      group_free(&a);
      group_free(&b);
    }
}
END_TEST

/* ------------------------------------------------------ BuDDy errors --- */

START_TEST(test_buddy_error_does_not_abort)
{
  GError *err = NULL;
  cs_bdd_set *small = cs_bdd_set_range(3, 700, 1024, &err); /* starts the package */
  ck_assert_ptr_nonnull(small);
  int64_t table = cs_bdd_package_table_nodes();
  ck_assert_int_gt(table, 0);
  ck_assert(!cs_bdd_package_set_max_table_nodes(table / 2, &err)); /* below the table: refused */
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_INPUT));
  g_clear_error(&err);
  ck_assert(cs_bdd_package_set_max_table_nodes(table + 1000, &err));

  uint64_t rng = 11;
  int64_t world = INT64_C(1) << 24;
  group g = group_empty(world, 200000, "200,000 random of 2^24");
  for (int i = 0; i < 200000; i++)
    add(&g, below(&rng, world));
  qsort(g.w, (size_t)g.m, sizeof *g.w, cmp_wid);
  int64_t n = 0;
  for (int64_t i = 0; i < g.m; i++)
    if (n == 0 || g.w[i] != g.w[n - 1])
      g.w[n++] = g.w[i];
  g.m = n;
  cs_gm_limits lim = cs_gm_limits_default();
  lim.bdd_max_nodes = INT64_MAX;
  lim.bdd_max_paths = INT64_MAX;
  ck_assert_ptr_null(cs_gm_rep_bdd.create(g.w, g.m, world, true, &lim, &err));
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT));
  ck_assert_ptr_nonnull(strstr(err->message, "BuDDy"));
  g_clear_error(&err);
  ck_assert_ptr_null(cs_bdd_set_from_wids(g.w, g.m, world, &err));
  ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT));
  g_clear_error(&err);

  /* BuDDy goes on: the small set is intact, and without the cap the same
   * creation succeeds and is exact */
  ck_assert_int_eq(cs_bdd_set_count(small), 698);
  ck_assert(cs_bdd_package_set_max_table_nodes(0, &err));
  void *st = check_map(&cs_gm_rep_bdd, &g, true, &lim, false, 12);
  bdd_paths_checked(&g, st);
  cs_gm_rep_bdd.destroy(st);
  cs_bdd_set_free(small);
  group_free(&g);
}
END_TEST

/* ---------------------------------------------------- a large group --- */

START_TEST(test_million_member_groups)
{
  uint64_t rng = 13;
  int64_t world = 1000000;
  int64_t p[1] = {below(&rng, world)};
  group g = group_where(world, in_world_but, p, "world 10^6 minus one");
  cs_gm_limits lim = cs_gm_limits_default();
  void *st = check_map(&cs_gm_rep_bdd, &g, true, &lim, false, 14);
  bdd_paths_checked(&g, st);
  cs_gm_rep_bdd.destroy(st);
  st = check_map(&cs_gm_rep_bwt, &g, true, &lim, false, 15);
  check_bwt_size(&g, st, true, lim.bwt_block_wids);
  cs_gm_rep_bwt.destroy(st);
  group_free(&g);

  g = group_random(INT64_C(1) << 21, 0.5, &rng);
  st = check_map(&cs_gm_rep_bwt, &g, true, &lim, false, 16);
  cs_gm_rep_bwt.destroy(st);
  GError *err = NULL;
  st = cs_gm_rep_bdd.create(g.w, g.m, g.world, true, &lim, &err); /* may pass or hit a limit */
  if (st) {
    uint64_t r2 = 17;
    check_selects(&cs_gm_rep_bdd, st, &g, &r2);
    cs_gm_rep_bdd.destroy(st);
  } else {
    ck_assert(g_error_matches(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT));
    g_clear_error(&err);
  }
  group_free(&g);
}
END_TEST

/* ---------------------------------------------------------------- main --- */

static Suite *gm_suite(void)
{
  Suite *s = suite_create("groupmaps bdd bwt");
  TCase *tc = tcase_create("maps");
  tcase_set_timeout(tc, 900);
  tcase_add_loop_test(tc, test_ordered_families, 0, (int)G_N_ELEMENTS(WORLDS));
  tcase_add_test(tc, test_largest_worlds);
  tcase_add_test(tc, test_unordered_bwt);
  tcase_add_test(tc, test_bwt_block_length_refused);
  tcase_add_test(tc, test_bz2_helper_matches_buff_to_buff);
  tcase_add_test(tc, test_bdd_paths_by_hand);
  tcase_add_test(tc, test_bdd_limits);
  tcase_add_test(tc, test_million_member_groups);
  suite_add_tcase(s, tc);
  TCase *sets = tcase_create("sets");
  tcase_set_timeout(sets, 900);
  tcase_add_test(sets, test_set_operations_equal_arrays);
  tcase_add_test(sets, test_set_range);
  tcase_add_test(sets, test_sets_share_nodes);
  tcase_add_test(sets, test_set_bad_input);
  tcase_add_test(sets, test_set_to_rep_state);
  tcase_add_test(sets, test_buddy_error_does_not_abort);
  suite_add_tcase(s, sets);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(gm_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
