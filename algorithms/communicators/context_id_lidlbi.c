/* <LID, LBI> context ids (seed 003, Section 4): a leader's world rank in
 * the high L bits, an index from the leader's 2^k-bit bitmap in the low k
 * bits (defaults L = 21, k = 6 as in the paper, both options).
 *
 * Choices the paper left open: the tie between members with equally few
 * bits set goes to the first in the gathered order (Procedure 1 sorts by
 * colour, key and rank, so the lowest key); COMM_WORLD takes <0, 0> at
 * start-up so that no new communicator has id 0; COMM_SELF is not modelled.
 */
#include "algorithms/communicators/context_id.h"

#include <glib.h>

cs_ctxids *cs_ctxids_new(cs_ctxid_scheme scheme, int64_t n, int lid_bits, int lbi_bits)
{
  g_assert(lbi_bits >= 1 && lbi_bits <= CS_LBI_BITS_MAX && lid_bits + lbi_bits <= 32);
  cs_ctxids *ids = g_new0(cs_ctxids, 1);
  *ids = (cs_ctxids){.scheme = scheme, .lid_bits = lid_bits, .lbi_bits = lbi_bits, .n = n};
  ids->lbi_words = ((1 << lbi_bits) + 63) / 64;
  if (scheme == CS_CTXID_LIDLBI) {
    ids->lbi = g_new0(uint64_t, (gsize)n * (gsize)ids->lbi_words);
    cs_lbi_take(ids, cs_lbi_bitmap(ids, 0), 0); /* COMM_WORLD = <0, 0> */
    return ids;
  }
  ids->mask = g_new(uint32_t, (gsize)n * CS_MASK_WORDS);
  for (int64_t r = 0; r < n; r++) {
    uint32_t *m = cs_mask_of(ids, r);
    for (int w = 0; w < CS_MASK_WORDS; w++)
      m[w] = 0xFFFFFFFFu;
    m[0] &= ~((1u << CS_MASK_RESERVED) - 1);
  }
  return ids;
}

void cs_ctxids_free(cs_ctxids *ids)
{
  if (!ids)
    return;
  g_free(ids->lbi);
  g_free(ids->mask);
  g_free(ids);
}

const char *cs_ctxid_scheme_name(cs_ctxid_scheme s) { return s == CS_CTXID_LIDLBI ? "lidlbi" : "mask"; }

uint64_t *cs_lbi_bitmap(cs_ctxids *ids, int64_t rank) { return ids->lbi + rank * ids->lbi_words; }

int cs_lbi_used(const cs_ctxids *ids, const uint64_t *bitmap)
{
  int used = 0;
  for (int w = 0; w < ids->lbi_words; w++)
    used += __builtin_popcountll(bitmap[w]);
  return used;
}

int cs_lbi_first_free(const cs_ctxids *ids, const uint64_t *bitmap)
{
  int bits = 1 << ids->lbi_bits;
  for (int i = 0; i < bits; i++)
    if (!(bitmap[i / 64] >> (i % 64) & 1))
      return i;
  return -1;
}

void cs_lbi_take(const cs_ctxids *ids, uint64_t *bitmap, int lbi)
{
  g_assert(lbi >= 0 && lbi < (1 << ids->lbi_bits));
  bitmap[lbi / 64] |= UINT64_C(1) << (lbi % 64);
}

uint32_t cs_lidlbi_encode(const cs_ctxids *ids, int64_t lid, int lbi)
{
  g_assert(lid >= 0 && lid < (INT64_C(1) << ids->lid_bits));
  return (uint32_t)lid << ids->lbi_bits | (uint32_t)lbi;
}

void cs_lidlbi_decode(const cs_ctxids *ids, uint32_t ctx, int64_t *lid, int *lbi)
{
  *lid = ctx >> ids->lbi_bits;
  *lbi = (int)(ctx & ((1u << ids->lbi_bits) - 1));
}

int64_t cs_lbi_least_used(const cs_ctxids *ids, const uint64_t *bitmaps, int64_t m)
{
  int64_t best = -1;
  int best_used = 1 << ids->lbi_bits;
  for (int64_t i = 0; i < m; i++) {
    int used = cs_lbi_used(ids, bitmaps + i * ids->lbi_words);
    if (used < best_used) {
      best = i;
      best_used = used;
    }
  }
  return best;
}
