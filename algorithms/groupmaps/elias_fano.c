/* "ef": Elias-Fano (quasi-succinct) encoding of an ordered group, a
 * CS_GM_SET representation beyond seed 003 (the paper's sets are R/S, BDD
 * and bitmaps, Sections 5.1-5.3).  Elias, "Efficient storage and retrieval
 * by content and address of static files" (JACM 1974); Fano (MIT memo 1971);
 * the select/rank use of Vigna, "Quasi-succinct indices" (WSDM 2013).
 *
 * ENCODING.  The m members x_0 < ... < x_{m-1} are stored relative to
 * base = x_0 (our choice: a group far from wid 0 costs nothing extra, like
 * the paper's bitmap that starts at the first member, Section 5.3), in a
 * universe u = x_{m-1} - x_0 + 1 (our choice: the last member, not the
 * world, bounds it).  With L = floor(lg(u / m)) when u > m, else 0 (the
 * classic choice, which minimises the size), value v_i = x_i - base is split
 * into its L low bits, packed in an array, and its high part v_i >> L,
 * written in unary in the bit vector H: bit (v_i >> L) + i of H is one.  H
 * has m ones and B = ((u - 1) >> L) + 1 zeros (one closing each bucket of
 * values sharing a high part), so nH = m + B bits.
 *
 * OPERATIONS.
 *  - select(i) = base + (((select1(H, i) - i) << L) | low[i]): one select on
 *    H (O(1) on its balanced bits, see bitvec.h) and one low-bits read.
 *  - rank(w): h = (w - base) >> L; the bucket h starts at p = select0(H, h -
 *    1) + 1 (p = 0 for h = 0) and holds the elements p - h, p - h + 1, ...
 *    while H has ones from p; its length is read from H with count-trailing-
 *    ones, then its low bits are scanned (at most 16) or binary-searched.
 *    A non-member gives -1 (also any w < base or beyond the last member).
 *  - decode(first, count): select1 once, then walk the ones of H word by
 *    word (ctz) and the low bits in order.
 *
 * SIZE in bits (what is stored; the scalars base, u, L, m are not counted):
 *    H           = bit vector of nH = m + B bits, by the formula of
 *                  bitvec.h: payload 64 (floor(nH / 64) + 1) + directories
 *                  128 (floor(nH / 512) + 1) + 32 (ceil(m / 512) + 1)
 *                  + 32 (ceil(B / 512) + 1)
 *    low bits    = 64 (floor(m L / 64) + 2) when L > 0, else 0 (one spare
 *                  word lets every read take two words without a branch)
 * parts: "high" (H payload), "low" (low bits), "directory" (H directories).
 * For m = 0 nothing but an empty H is stored.  Roughly m (2 + L) bits plus
 * 31% of nH for the directories.
 *
 * Refuses an unordered group (CS_GM_ERROR_NOT_APPLICABLE): Elias-Fano stores
 * a monotone sequence only; wtr+ef is the way to store an unordered group.
 */
#include "sim/contracts/groupmap.h"
#include "algorithms/groupmaps/bitvec.h"

#include <string.h>

typedef struct ef_state {
  int64_t m;
  uint64_t base;     /* smallest member */
  uint64_t universe; /* largest - smallest + 1 (0 when m = 0) */
  unsigned L;        /* low bits per member */
  uint64_t low_mask;
  uint64_t *low;     /* m * L bits, packed, plus one spare word (NULL when L = 0) */
  uint64_t low_words;
  cs_bitvec high;    /* H */
} ef_state;

/* floor(lg(u / m)) when u > m > 0, else 0. */
static unsigned choose_low_bits(uint64_t universe, int64_t m)
{
  if (m <= 0 || universe <= (uint64_t)m)
    return 0;
  uint64_t q = universe / (uint64_t)m;
  return 63u - (unsigned)__builtin_clzll(q);
}

static inline uint64_t low_get(const ef_state *s, int64_t i)
{
  if (s->L == 0)
    return 0;
  uint64_t pos = (uint64_t)i * s->L;
  uint64_t w = pos >> 6;
  unsigned shift = (unsigned)(pos & 63);
  /* two words, no branch: (hi << 1) << (63 - shift) is hi << (64 - shift) */
  uint64_t v = (s->low[w] >> shift) | ((s->low[w + 1] << 1) << (63 - shift));
  return v & s->low_mask;
}

static void low_set(uint64_t *low, unsigned L, int64_t i, uint64_t v)
{
  uint64_t pos = (uint64_t)i * L;
  uint64_t w = pos >> 6;
  unsigned shift = (unsigned)(pos & 63);
  low[w] |= v << shift;
  if (shift + L > 64)
    low[w + 1] |= v >> (64 - shift);
}

static bool check_sorted_in_world(const cs_wid *wids, int64_t m, int64_t world, GError **err)
{
  for (int64_t i = 0; i < m; i++) {
    if ((int64_t)wids[i] >= world) {
      g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT, "ef: wid %u of gid %lld is outside the world of %lld",
                  wids[i], (long long)i, (long long)world);
      return false;
    }
    if (i > 0 && wids[i] <= wids[i - 1]) {
      g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE,
                  "ef stores ordered groups only: wid %u of gid %lld does not exceed wid %u of gid %lld", wids[i],
                  (long long)i, wids[i - 1], (long long)(i - 1));
      return false;
    }
  }
  return true;
}

static void *ef_create(const cs_wid *wids, int64_t m, int64_t world, bool ordered, const cs_gm_limits *lim,
                       GError **err)
{
  (void)lim;
  if (!ordered) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_NOT_APPLICABLE,
                "ef stores ordered groups only (gid order must be wid order); use wtr+ef for an unordered group");
    return NULL;
  }
  if (!check_sorted_in_world(wids, m, world, err))
    return NULL;

  ef_state *s = g_new0(ef_state, 1);
  s->m = m;
  s->base = m > 0 ? wids[0] : 0;
  s->universe = m > 0 ? (uint64_t)wids[m - 1] - s->base + 1 : 0;
  s->L = choose_low_bits(s->universe, m);
  s->low_mask = (UINT64_C(1) << s->L) - 1;
  uint64_t buckets = m > 0 ? ((s->universe - 1) >> s->L) + 1 : 0;
  uint64_t nh = (uint64_t)m + buckets;

  uint64_t *hbits = g_new0(uint64_t, nh / 64 + 1);
  if (s->L > 0) {
    s->low_words = (uint64_t)m * s->L / 64 + 2;
    s->low = g_new0(uint64_t, s->low_words);
  }
  for (int64_t i = 0; i < m; i++) {
    uint64_t v = (uint64_t)wids[i] - s->base;
    uint64_t pos = (v >> s->L) + (uint64_t)i;
    hbits[pos >> 6] |= UINT64_C(1) << (pos & 63);
    if (s->L > 0)
      low_set(s->low, s->L, i, v & s->low_mask);
  }
  cs_bv_init(&s->high, hbits, nh);
  g_free(hbits);
  return s;
}

static cs_wid ef_select(void *st, int64_t gid)
{
  const ef_state *s = st;
  uint64_t high = cs_bv_select1(&s->high, (uint64_t)gid) - (uint64_t)gid;
  return (cs_wid)(s->base + ((high << s->L) | low_get(s, gid)));
}

/* Number of consecutive ones of H from position p (p < nH or the run is empty). */
static uint64_t ones_from(const cs_bitvec *h, uint64_t p)
{
  uint64_t run = 0;
  uint64_t wi = p >> 6;
  uint64_t word = ~(h->words[wi] >> (p & 63)); /* zeros of H become ones */
  unsigned avail = 64 - (unsigned)(p & 63);
  for (;;) {
    unsigned t = word ? (unsigned)__builtin_ctzll(word) : 64;
    if (t < avail)
      return run + t;
    run += avail;
    if (++wi > h->n / 64) /* past the last stored word (its tail bits are zeros anyway) */
      return run;
    word = ~h->words[wi];
    avail = 64;
  }
}

/* Index in [first, first + len) whose low bits equal key, or -1. */
static int64_t find_low(const ef_state *s, int64_t first, int64_t len, uint64_t key)
{
  if (len <= 16) {
    for (int64_t i = first; i < first + len; i++) {
      uint64_t v = low_get(s, i);
      if (v >= key)
        return v == key ? i : -1;
    }
    return -1;
  }
  int64_t lo = first, hi = first + len; /* first index with low >= key */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (low_get(s, mid) < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < first + len && low_get(s, lo) == key ? lo : -1;
}

static int64_t ef_rank(void *st, int64_t wid)
{
  const ef_state *s = st;
  if (s->m == 0 || wid < 0 || (uint64_t)wid < s->base || (uint64_t)wid - s->base >= s->universe)
    return -1;
  uint64_t v = (uint64_t)wid - s->base;
  uint64_t h = v >> s->L;
  uint64_t p = h == 0 ? 0 : cs_bv_select0(&s->high, h - 1) + 1;
  int64_t first = (int64_t)(p - h);
  if (s->L == 0)
    return cs_bv_access(&s->high, p) ? first : -1;
  uint64_t len = ones_from(&s->high, p);
  return find_low(s, first, (int64_t)len, v & s->low_mask);
}

static void ef_decode(void *st, int64_t first, int64_t count, cs_wid *out)
{
  const ef_state *s = st;
  if (count <= 0)
    return;
  const uint64_t *words = s->high.words;
  uint64_t p = cs_bv_select1(&s->high, (uint64_t)first);
  uint64_t wi = p >> 6;
  uint64_t cur = words[wi] & (~UINT64_C(0) << (p & 63));
  for (int64_t k = 0; k < count; k++) {
    while (cur == 0)
      cur = words[++wi];
    uint64_t pos = 64 * wi + (uint64_t)__builtin_ctzll(cur);
    cur &= cur - 1;
    int64_t i = first + k;
    uint64_t high = pos - (uint64_t)i;
    out[k] = (cs_wid)(s->base + ((high << s->L) | low_get(s, i)));
  }
}

static cs_gm_size ef_size(const void *st)
{
  const ef_state *s = st;
  cs_gm_size z;
  memset(&z, 0, sizeof z);
  uint64_t low_bits = 64 * s->low_words;
  z.parts[0].name = "high";
  z.parts[0].bits = cs_bv_payload_bits(&s->high);
  z.parts[1].name = "low";
  z.parts[1].bits = low_bits;
  z.parts[2].name = "directory";
  z.parts[2].bits = cs_bv_directory_bits(&s->high);
  z.bits = z.parts[0].bits + z.parts[1].bits + z.parts[2].bits;
  z.paths = -1;
  z.runs = -1;
  return z;
}

static void ef_destroy(void *st)
{
  ef_state *s = st;
  if (s == NULL)
    return;
  cs_bv_clear(&s->high);
  g_free(s->low);
  g_free(s);
}

const cs_gm_rep cs_gm_rep_elias_fano = {
    .name = "ef",
    .description = "Elias-Fano: L = lg(u/m) low bits + unary high bits with rank/select (beyond the paper)",
    .kind = CS_GM_SET,
    .from_paper = false,
    .create = ef_create,
    .select = ef_select,
    .rank = ef_rank,
    .decode = ef_decode,
    .size = ef_size,
    .destroy = ef_destroy,
};
