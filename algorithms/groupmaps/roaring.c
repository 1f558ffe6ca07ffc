/* Roaring: a compressed bitmap of the ordered group (beyond seed 003; its
 * Section 5.3 says "there is a rich literature on compressing bitmaps ... the
 * framework can be easily extended to include other encoding schemes", and
 * this is one such scheme).  Uses CRoaring as packaged by Debian
 * (libroaring-dev 0.2.66, <roaring/roaring.h>, -lroaring).
 *
 * The set is split into chunks of 2^16 wids; each chunk is an array of
 * 16-bit values, a 2^16-bit bitmap, or a list of runs, whichever is smaller
 * after roaring_bitmap_run_optimize().
 *   create : roaring_bitmap_of_ptr, then run_optimize and shrink_to_fit;
 *   select : roaring_bitmap_select (gid -> wid);
 *   rank   : roaring_bitmap_contains, then roaring_bitmap_rank - 1 (CRoaring's
 *            rank counts the members <= wid);
 *   decode : select the first gid, then an iterator reads count wids.
 * Size: roaring_bitmap_portable_size_in_bytes x 8 bits, i.e. the portable
 * serialized form (what one would store or share), not CRoaring's in-memory
 * footprint with its allocator slack.
 */
#include "sim/contracts/groupmap.h"

#include <roaring/roaring.h>

static void *roaring_create(const cs_wid *wids, int64_t m, int64_t world, bool ordered,
                            const cs_gm_limits *lim, GError **err)
{
  (void)world;
  (void)ordered; /* a set representation: the core passes ordered groups only */
  (void)lim;
  roaring_bitmap_t *r = roaring_bitmap_of_ptr((size_t)m, wids);
  if (!r) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT, "CRoaring could not allocate the bitmap");
    return NULL;
  }
  roaring_bitmap_run_optimize(r);
  roaring_bitmap_shrink_to_fit(r);
  return r;
}

static cs_wid roaring_select(void *p, int64_t gid)
{
  uint32_t wid = 0;
  roaring_bitmap_select(p, (uint32_t)gid, &wid);
  return wid;
}

static int64_t roaring_rank(void *p, int64_t wid)
{
  const roaring_bitmap_t *r = p;
  if (wid > UINT32_MAX || !roaring_bitmap_contains(r, (uint32_t)wid))
    return -1;
  return (int64_t)roaring_bitmap_rank(r, (uint32_t)wid) - 1;
}

static void roaring_decode(void *p, int64_t first, int64_t count, cs_wid *out)
{
  const roaring_bitmap_t *r = p;
  if (count == 0)
    return;
  roaring_uint32_iterator_t it;
  roaring_init_iterator(r, &it);
  roaring_move_uint32_iterator_equalorlarger(&it, roaring_select(p, first));
  while (count > 0) {
    uint32_t chunk = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
    uint32_t got = roaring_read_uint32_iterator(&it, out, chunk);
    if (got == 0)
      break; /* only past the last member: a caller error */
    out += got;
    count -= got;
  }
}

static cs_gm_size roaring_size(const void *p)
{
  return (cs_gm_size){.bits = 8 * (uint64_t)roaring_bitmap_portable_size_in_bytes(p),
                      .paths = -1,
                      .runs = -1};
}

static void roaring_destroy(void *p) { roaring_bitmap_free(p); }

const cs_gm_rep cs_gm_rep_roaring = {
    .name = "roaring",
    .description = "CRoaring compressed bitmap (array, bitmap or run chunks of 2^16 wids), beyond "
                   "the paper; size = portable serialized bytes x 8",
    .kind = CS_GM_SET,
    .from_paper = false,
    .create = roaring_create,
    .select = roaring_select,
    .rank = roaring_rank,
    .decode = roaring_decode,
    .size = roaring_size,
    .destroy = roaring_destroy,
    .select_ns = 330.0,
    .create_ns_per_member = 5.0,
};
