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
 *  - select(i) = base + (((select1(H, i) - i) << L) | low[i]).  select1 on
 *    H has its own samples here, not bitvec.h's general one (17 ns against
 *    ARRAY's 1.8 ns on Table 1's groups): hsamp[j] is the position of the
 *    one of member 64 j (32 bits, EF_SAMPLE_ONES = 64, our choice: 0.5 bit
 *    per member).  From it the ones are counted word by word (H is between
 *    a third and a half ones: its B zeros number about m to 2m, as
 *    2^L <= u / m < 2^(L + 1); so 63 more ones span about two words) and the one is found in
 *    its word by PDEP (deposit 1 << r on the word, count trailing zeros) or,
 *    where PDEP is missing or slow (AMD Zen 1-2 run it as microcode), by
 *    bitvec.h's SWAR in-word select.  The GNU ifunc resolver picks once per
 *    process; tests/unit/bitvec_elias_fano_wtr.c checks both paths.  Sampling every 32
 *    members was not faster on this machine (4.4 ns against 4.0 ns), and a
 *    branch-free read of three words was slower (6.5-10 ns).
 *    The sampled word is shifted down to the sample's bit, not masked, and
 *    the position's part known before the in-word select (from - gid) is
 *    subtracted first; with L = 0 the low bits are not read.  On the Intel
 *    Xeon of bench/out/groupmaps.txt that took S-One from 2.9-3.2 to 2.4-2.8
 *    times ARRAY's on Table 1's groups (least of 9 S-One measurements each,
 *    the two versions interleaved in one process).  Also tried there, none
 *    faster: an out-of-line loop, a branch-free pick among three words
 *    with samples every 32 members, and 8-bit sub-samples every 16 members
 *    read through one 64-bit window (1 bit per member more).
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
 *    samples     = 32 ceil(m / 64)
 *    low bits    = 64 (floor(m L / 64) + 2) when L > 0, else 0 (the spare
 *                  word keeps every read inside: one unaligned 8-byte read
 *                  on little-endian machines, which took S-One from 3.8 to
 *                  3.4 ns on the groups with L > 0 here, else two words)
 * parts: "high" (H payload), "low" (low bits), "directory" (H directories
 * and the select samples).
 * For m = 0 nothing but an empty H is stored.  Roughly m (2 + L) bits plus
 * 31% of nH for the directories plus half a bit per member of samples.
 *
 * Refuses an unordered group (CS_GM_ERROR_NOT_APPLICABLE): Elias-Fano stores
 * a monotone sequence only; wtr+ef is the way to store an unordered group.
 */
#include "sim/contracts/groupmap.h"
#include "algorithms/groupmaps/bitvec.h"

#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define EF_HAVE_PDEP_PATH 1
#endif

/* Members between two select samples (see SELECT above). */
#define EF_SAMPLE_ONES 64

typedef struct ef_state {
  int64_t m;
  uint64_t base;     /* smallest member */
  uint64_t universe; /* largest - smallest + 1 (0 when m = 0) */
  unsigned L;        /* low bits per member */
  uint64_t low_mask;
  uint64_t *low;     /* m * L bits, packed, plus one spare word (NULL when L = 0) */
  uint64_t low_words;
  cs_bitvec high;    /* H */
  uint32_t *hsamp;   /* position in H of the one of member 64 j, j < nsamples */
  int64_t nsamples;  /* ceil(m / 64) */
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
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* one unaligned 8-byte read from the byte that holds bit pos: its bits
   * (pos % 8) .. (pos % 8) + L - 1 <= 38 are in it; the spare word keeps
   * the read inside the array */
  uint64_t v;
  memcpy(&v, (const unsigned char *)s->low + (pos >> 3), sizeof v);
  return (v >> (pos & 7)) & s->low_mask;
#else
  uint64_t w = pos >> 6;
  unsigned shift = (unsigned)(pos & 63);
  /* two words, no branch: (hi << 1) << (63 - shift) is hi << (64 - shift) */
  uint64_t v = (s->low[w] >> shift) | ((s->low[w + 1] << 1) << (63 - shift));
  return v & s->low_mask;
#endif
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
  s->nsamples = (m + EF_SAMPLE_ONES - 1) / EF_SAMPLE_ONES;
  s->hsamp = g_new(uint32_t, s->nsamples);
  for (int64_t j = 0; j * EF_SAMPLE_ONES < m; j++) {
    uint64_t v = (uint64_t)wids[j * EF_SAMPLE_ONES] - s->base;
    s->hsamp[j] = (uint32_t)((v >> s->L) + (uint64_t)(j * EF_SAMPLE_ONES));
  }
  return s;
}

/* High part of member gid, select1(H, gid) - gid: from the sample of
 * member gid - gid % 64, count the ones word by word (about two words: H is
 * a third to a half ones), then select in the word.  x holds the word's ones
 * from `from` on, shifted down to bit 0 (a shift, not a mask, so the first
 * word and the next ones are read alike), and `from - gid` is known before
 * the in-word select ends.  Always inlined, so each caller below gets its
 * own copy with its own popcount and in-word select. */
static inline __attribute__((always_inline)) uint64_t high_part(const ef_state *s, uint64_t gid,
                                                                unsigned (*popcount)(uint64_t),
                                                                unsigned (*select_in_word)(uint64_t, unsigned))
{
  uint64_t from = s->hsamp[gid / EF_SAMPLE_ONES]; /* unsigned: / and % by a power of two are a shift and a mask */
  const uint64_t *words = s->high.words;
  uint64_t wi = from >> 6;
  uint64_t x = words[wi] >> (from & 63);
  unsigned r = (unsigned)(gid % EF_SAMPLE_ONES);
  unsigned c = popcount(x);
  while (c <= r) {
    r -= c;
    x = words[++wi];
    from = 64 * wi;
    c = popcount(x);
  }
  return from - gid + select_in_word(x, r);
}

static inline __attribute__((always_inline)) cs_wid select_with(const ef_state *s, int64_t gid,
                                                                unsigned (*popcount)(uint64_t),
                                                                unsigned (*select_in_word)(uint64_t, unsigned))
{
  uint64_t high = high_part(s, (uint64_t)gid, popcount, select_in_word);
  if (s->L == 0)
    return (cs_wid)(s->base + high);
  return (cs_wid)(s->base + ((high << s->L) | low_get(s, gid)));
}

/* Not static: tests/unit/bitvec_elias_fano_wtr.c checks it on machines whose loader
 * picks the PDEP path. */
cs_wid cs_gm_ef_select_portable(void *st, int64_t gid);
cs_wid cs_gm_ef_select_portable(void *st, int64_t gid)
{
  return select_with(st, gid, cs_bv_popcount, cs_bv_select_in_word);
}

#ifdef EF_HAVE_PDEP_PATH
__attribute__((target("popcnt"))) static inline unsigned popcount_insn(uint64_t x)
{
  return (unsigned)__builtin_popcountll(x);
}

/* The r-th one of x: deposit the bit 1 << r on the ones of x, then count
 * the zeros below it. */
__attribute__((target("bmi,bmi2"))) static inline unsigned select_in_word_pdep(uint64_t x, unsigned r)
{
  return (unsigned)_tzcnt_u64(_pdep_u64(UINT64_C(1) << r, x));
}

__attribute__((target("bmi,bmi2,popcnt"))) static cs_wid ef_select_pdep(void *st, int64_t gid)
{
  return select_with(st, gid, popcount_insn, select_in_word_pdep);
}

/* Chosen once by the dynamic loader (GNU ifunc): PDEP where it is one fast
 * instruction; AMD's Zen 1 and Zen 2 run it as microcode (hundreds of
 * cycles), so they keep the portable path.  The resolver runs during
 * relocation, before the sanitizers' run time exists: it must not be
 * instrumented. */
__attribute__((no_sanitize_address, no_sanitize_undefined)) static cs_wid (*resolve_ef_select(void))(void *,
                                                                                                     int64_t)
{
  __builtin_cpu_init();
  bool pdep_fast = __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
                   __builtin_cpu_supports("popcnt") && !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
  return pdep_fast ? ef_select_pdep : cs_gm_ef_select_portable;
}

static cs_wid ef_select(void *st, int64_t gid) __attribute__((ifunc("resolve_ef_select")));
#else
#define ef_select cs_gm_ef_select_portable
#endif

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
  z.parts[2].bits = cs_bv_directory_bits(&s->high) + 32 * (uint64_t)s->nsamples;
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
  g_free(s->hsamp);
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
    .select_ns = 4.0,
    .create_ns_per_member = 3.0,
};
