/* BM: a bitmap of the ordered group with a directory of cumulative counts
 * (seed 003, Section 5.3; the BM and BMp rows of Table 1).
 *
 * Layout.  Bit p of the bitmap is set when wid first + p is a member, for p
 * in [0, span), span = max - min + 1: the paper's heuristic of storing only
 * "from the first bit set up to the last bit set".  The directory holds, for
 * every block of D = lim->bm_directory_bits bit positions (paper: 1,000),
 * the number of set bits before the block: dir[b] = |{p set : p < b x D}|.
 *
 * SELECT(gid): binary search in the directory for the last block b with
 * dir[b] <= gid, then a popcount scan of the words from bit b x D for the
 * (gid - dir[b])-th set bit, and a search inside the last word (halves, then
 * clearing the lowest bits).  RANK(wid): test the bit, then one directory
 * lookup dir[p / D] plus the popcounts of the bits from the block start up
 * to p.  Both touch at most D / 64 + 2 words.  decode() selects the first
 * gid, then walks the set bits word by word.
 *
 * Choices the paper leaves open:
 *  - The paper counts wid(largest) - wid(smallest) - 1 bits (the two end
 *    bits are implied once the ends are stored); we store the whole span,
 *    rounded up to 64-bit words, which is what the memory holds.
 *  - Blocks need not be word-aligned (D = 1,000 is not a multiple of 64);
 *    a block boundary inside a word is handled by masking.
 *  - Popcount is __builtin_popcountll: the paper's BMp (hardware popcnt)
 *    when the compiler targets it, its BM otherwise; not chosen at run time.
 *  - Directory entries are 32-bit counts (m <= 2^31).
 *
 * Size (bits), reported in three parts:
 *   "bitmap"    = 64 x ceil(span / 64)        (the paper's BM column)
 *   "directory" = 32 x ceil(span / D)
 *   "header"    = 4 x 32 (first wid, span, member count, D)
 * An empty group has span 0: header only.
 */
#include "sim/contracts/groupmap.h"

#include <string.h>

#define BM_HEADER_BITS (4 * 32)

typedef struct {
  int64_t m;
  int64_t first; /* wid of bit 0 */
  int64_t span;  /* bits in the bitmap */
  int64_t step;  /* D: bit positions per directory entry */
  int64_t nwords;
  int64_t nblocks;
  uint64_t *words;
  uint32_t *dir;
} bm_state;

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

static void set_bits(bm_state *st, const cs_wid *wids)
{
  for (int64_t i = 0; i < st->m; i++) {
    int64_t p = (int64_t)wids[i] - st->first;
    st->words[p >> 6] |= UINT64_C(1) << (p & 63);
  }
}

/* dir[b] = members with bit position below b x D; wids are increasing. */
static void fill_directory(bm_state *st, const cs_wid *wids)
{
  int64_t i = 0;
  for (int64_t b = 0; b < st->nblocks; b++) {
    int64_t start = b * st->step;
    while (i < st->m && (int64_t)wids[i] - st->first < start)
      i++;
    st->dir[b] = (uint32_t)i;
  }
}

static void *bm_create(const cs_wid *wids, int64_t m, int64_t world, bool ordered,
                       const cs_gm_limits *lim, GError **err)
{
  (void)world;
  (void)ordered; /* a set representation: the core passes ordered groups only */
  if (lim->bm_directory_bits < 1) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
                "bm_directory_bits is %" G_GINT64_FORMAT ", it must be at least 1",
                lim->bm_directory_bits);
    return NULL;
  }
  bm_state *st = g_new0(bm_state, 1);
  st->m = m;
  st->step = lim->bm_directory_bits;
  st->first = m > 0 ? wids[0] : 0;
  st->span = m > 0 ? (int64_t)wids[m - 1] - st->first + 1 : 0;
  st->nwords = ceil_div(st->span, 64);
  st->nblocks = ceil_div(st->span, st->step);
  st->words = g_new0(uint64_t, st->nwords);
  st->dir = g_new(uint32_t, st->nblocks);
  set_bits(st, wids);
  fill_directory(st, wids);
  return st;
}

/* Position (0..63) of the k-th set bit (0-based) of x; x has more than k. */
static int select_in_word(uint64_t x, int k)
{
  int offset = 0;
  for (int width = 32; width >= 8; width /= 2) {
    uint64_t low = x & ((UINT64_C(1) << width) - 1);
    int c = popcount64(low);
    if (k >= c) {
      k -= c;
      x >>= width;
      offset += width;
    }
  }
  for (; k > 0; k--)
    x &= x - 1;
  return offset + __builtin_ctzll(x);
}

/* The last block b with dir[b] <= gid (dir[0] = 0 <= gid). */
static int64_t block_of_gid(const bm_state *st, int64_t gid)
{
  int64_t lo = 0, hi = st->nblocks - 1;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2;
    if ((int64_t)st->dir[mid] <= gid)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* Bit position of the k-th set bit (0-based) at or after bit pos. */
static int64_t nth_set_bit_from(const bm_state *st, int64_t pos, int64_t k)
{
  int64_t wi = pos >> 6;
  uint64_t word = st->words[wi] & (~UINT64_C(0) << (pos & 63));
  for (;;) {
    int c = popcount64(word);
    if (k < c)
      return wi * 64 + select_in_word(word, (int)k);
    k -= c;
    word = st->words[++wi];
  }
}

static int64_t position_of_gid(const bm_state *st, int64_t gid)
{
  int64_t b = block_of_gid(st, gid);
  return nth_set_bit_from(st, b * st->step, gid - st->dir[b]);
}

static cs_wid bm_select(void *p, int64_t gid)
{
  const bm_state *st = p;
  return (cs_wid)(st->first + position_of_gid(st, gid));
}

static bool bit_is_set(const bm_state *st, int64_t pos)
{
  return st->words[pos >> 6] >> (pos & 63) & 1;
}

/* Set bits in positions [from, to), from <= to. */
static int64_t count_bits(const bm_state *st, int64_t from, int64_t to)
{
  if (from == to)
    return 0;
  int64_t wf = from >> 6, wt = (to - 1) >> 6;
  uint64_t head = ~UINT64_C(0) << (from & 63);
  uint64_t tail = ~UINT64_C(0) >> (63 - ((to - 1) & 63));
  if (wf == wt)
    return popcount64(st->words[wf] & head & tail);
  int64_t n = popcount64(st->words[wf] & head) + popcount64(st->words[wt] & tail);
  for (int64_t w = wf + 1; w < wt; w++)
    n += popcount64(st->words[w]);
  return n;
}

static int64_t bm_rank(void *p, int64_t wid)
{
  const bm_state *st = p;
  int64_t pos = wid - st->first;
  if (pos < 0 || pos >= st->span || !bit_is_set(st, pos))
    return -1;
  int64_t b = pos / st->step;
  return st->dir[b] + count_bits(st, b * st->step, pos);
}

static void bm_decode(void *p, int64_t first, int64_t count, cs_wid *out)
{
  const bm_state *st = p;
  if (count == 0)
    return;
  int64_t pos = position_of_gid(st, first);
  int64_t wi = pos >> 6;
  uint64_t word = st->words[wi] & (~UINT64_C(0) << (pos & 63));
  for (int64_t i = 0; i < count;) {
    while (word == 0)
      word = st->words[++wi];
    out[i++] = (cs_wid)(st->first + wi * 64 + __builtin_ctzll(word));
    word &= word - 1;
  }
}

static cs_gm_size bm_size(const void *p)
{
  const bm_state *st = p;
  cs_gm_size s = {.paths = -1, .runs = -1};
  s.parts[0].name = "bitmap";
  s.parts[0].bits = 64 * (uint64_t)st->nwords;
  s.parts[1].name = "directory";
  s.parts[1].bits = 32 * (uint64_t)st->nblocks;
  s.parts[2].name = "header";
  s.parts[2].bits = BM_HEADER_BITS;
  s.bits = s.parts[0].bits + s.parts[1].bits + s.parts[2].bits;
  return s;
}

static void bm_destroy(void *p)
{
  bm_state *st = p;
  g_free(st->words);
  g_free(st->dir);
  g_free(st);
}

/* The span from the first to the last member holds all m of them. */
static uint64_t bm_min_bits(int64_t m, int64_t world)
{
  (void)world;
  return (uint64_t)m + BM_HEADER_BITS;
}

const cs_gm_rep cs_gm_rep_bitmap = {
    .name = "bm",
    .description = "bitmap from the first to the last member with a directory of cumulative counts "
                   "every bm_directory_bits bits (paper: 1,000); select by binary search + popcount",
    .kind = CS_GM_SET,
    .from_paper = true,
    .create = bm_create,
    .select = bm_select,
    .rank = bm_rank,
    .decode = bm_decode,
    .size = bm_size,
    .destroy = bm_destroy,
    .min_bits = bm_min_bits,
    .select_ns = 35.0,
    .create_ns_per_member = 2.0,
};
