/* Context ids (seed 003, Section 4 and 4.1): the two schemes a communicator
 * creation can use.
 *
 *  <LID, LBI> (context_id_lidlbi.c): L bits of a leader's world rank and k
 *    bits of that leader's bit index; every proclet keeps a 2^k-bit bitmap of
 *    the indices it has used as a leader.  Globally unique; runs out only
 *    when every member of a new group has used all 2^k bits.
 *  MPICH2's mask (context_id_mask.c): every proclet keeps a 2^11-bit mask of
 *    free ids; a creation ANDs the masks of the outer communicator
 *    (allreduce) and takes a common free id; every colour of a split gets
 *    the same id.  Runs out after 2,045 creations a proclet takes part in.
 *
 * The state of every proclet lives here, indexed by world rank; a protocol
 * reads and writes only its own proclet's (what it would hold in memory).
 */
#ifndef COLLSIM_CONTEXT_ID_H
#define COLLSIM_CONTEXT_ID_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { CS_CTXID_LIDLBI, CS_CTXID_MASK } cs_ctxid_scheme;

#define CS_LID_BITS_DEFAULT 21
#define CS_LBI_BITS_DEFAULT 6
#define CS_LBI_BITS_MAX 12
/* MPICH2 1.3/1.4 (src/include/mpiimpl.h): a 16-bit context id with 5 bits
 * for other purposes leaves 11: MPIR_MAX_CONTEXT_MASK = 2^11 / 32 = 64
 * words; context_mask[0] = 0xFFFFFFF8 at start-up (src/mpi/comm/commutil.c)
 * reserves COMM_WORLD, COMM_SELF and the internal copy of COMM_WORLD. */
#define CS_MASK_WORDS 64
#define CS_MASK_BITS (CS_MASK_WORDS * 32)
#define CS_MASK_RESERVED 3

typedef struct cs_ctxids {
  cs_ctxid_scheme scheme;
  int lid_bits, lbi_bits; /* L, k */
  int64_t n;
  uint64_t *lbi;  /* n x lbi_words: bit i set = index i used by this leader */
  int lbi_words;
  uint32_t *mask; /* n x CS_MASK_WORDS: bit set = id free */
} cs_ctxids;

/* k <= CS_LBI_BITS_MAX, n <= 2^L, L + k <= 32. */
cs_ctxids *cs_ctxids_new(cs_ctxid_scheme scheme, int64_t n, int lid_bits, int lbi_bits);
void cs_ctxids_free(cs_ctxids *ids);
const char *cs_ctxid_scheme_name(cs_ctxid_scheme s); /* "lidlbi", "mask" */

/* ---- <LID, LBI> ---- */
uint64_t *cs_lbi_bitmap(cs_ctxids *ids, int64_t rank);
int cs_lbi_used(const cs_ctxids *ids, const uint64_t *bitmap);       /* bits set */
int cs_lbi_first_free(const cs_ctxids *ids, const uint64_t *bitmap); /* -1: all used */
void cs_lbi_take(const cs_ctxids *ids, uint64_t *bitmap, int lbi);
/* The context id: LID in the high L bits, LBI in the low k.  COMM_WORLD is
 * <0, 0> (proclet 0's bit 0 is taken at start-up), so no new communicator
 * gets CS_CTX_WORLD = 0. */
uint32_t cs_lidlbi_encode(const cs_ctxids *ids, int64_t lid, int lbi);
void cs_lidlbi_decode(const cs_ctxids *ids, uint32_t ctx, int64_t *lid, int *lbi);
/* Procedure 1 line 9 / Procedure 2 line 8: among members[0..m-1] (world
 * ranks) with their bitmaps bitmaps[i] (k bits each as gathered), the
 * member with the fewest bits set (ties: the first); -1 if all are full. */
int64_t cs_lbi_least_used(const cs_ctxids *ids, const uint64_t *bitmaps, int64_t m);

/* ---- MPICH2's mask ---- */
uint32_t *cs_mask_of(cs_ctxids *ids, int64_t rank);
/* The id MPIR_Get_contextid takes from an ANDed mask: the first non-zero
 * word, its highest set bit (MPICH2 1.3/1.4's MPIR_Locate_context_bit); -1
 * if none is free. */
int cs_mask_pick(const uint32_t *mask);
void cs_mask_take(uint32_t *mask, int id);
/* Context id of mask bit `id` (0 is never a new communicator's: reserved). */
uint32_t cs_mask_ctx(int id);
/* MPI_Comm_free: the id is free again in this mask. */
void cs_mask_release(uint32_t *mask, int id);
/* The mask bit of a context id made by cs_mask_ctx. */
int cs_mask_id_of_ctx(uint32_t ctx);
/* Contexts of temporary communicators, outside the mask's 2^11 ids:
 * Intercomm_merge's (MPICH sets its SUBCOMM field on the high group's
 * receive context) and the direct group creation's (the user's tag). */
#define CS_CTX_SUBCOMM (1u << 30)
#define CS_CTX_GROUP_TAG (1u << 29)

#endif
