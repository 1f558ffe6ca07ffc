/* The "bwt" group-map representation: seed 003 (Kamal, Mirtaheri, Wagner,
 * "Scalability of Communicators and Groups in MPI"), Section 5.4 (the group
 * array compressed with bzip2, i.e. the Burrows-Wheeler transform and
 * Huffman coding, in blocks), costs in Tables 1 and 2.  Contract:
 * sim/contracts/groupmap.h.  A CS_GM_MAP: any sequence of distinct wids in
 * the given gid order.
 *
 * WHAT IS STORED.  The wids in gid order, as little-endian 32-bit words, cut
 * into blocks of B = lim->bwt_block_wids wids (paper: 1,000; the last block
 * may be shorter), each block compressed on its own with libbz2:
 * BZ2_bzBuffToBuffCompress with blockSize100k = 1 (a block of 1,000 wids is
 * 4,000 bytes, far below bzip2's 100 kB minimum block, so a larger block
 * size only costs memory), verbosity 0 and workFactor 0 (bzip2's default,
 * 30); we drive bzip2's stream API ourselves only to hand it our memory
 * (below), the bytes are those of BZ2_bzBuffToBuffCompress.  Beside the
 * compressed bytes: the byte offset of every block and of the end, and, for
 * an ordered group only, the first wid of every block.
 *
 * SIZE (bits) = 8 x (compressed bytes of all blocks)
 *             + 32 x (blocks + 1)     offsets, one 32-bit word each
 *             + 32 x blocks           first wids (ordered groups only).
 * m, the world and B are kept by the group layer / the limits and not
 * counted, nor is the cache below (one decompressed block, 4 B bytes,
 * allocated on the first access).  Offsets are 32-bit: a map whose
 * compressed bytes reach 2^32 fails with CS_GM_ERROR_LIMIT (it would take
 * about a billion incompressible wids).
 *
 * SELECT(gid) decompresses block gid / B and keeps it: the paper's "cache
 * the last decompressed block", so that iterating over the group
 * decompresses each block once.  select, rank and decode therefore write
 * into the map: NOT thread-safe, even for readers.
 * RANK(wid): for an ordered group, a binary search over the blocks' first
 * wids, then one block decompressed (through the cache) and searched;
 * for an unordered group, a scan that decompresses every block in turn,
 * O(m) time (the contract allows O(m) for a map's rank).
 * DECODE(first, count): the blocks covering the range, through the cache.
 * A bzip2 failure on our own blocks can only be memory exhaustion or
 * corruption; it is fatal (g_error), as select cannot report an error.
 * MEMORY: bzip2 asks for about 470 kB to decompress even a 4 kB block;
 * malloc'ing and freeing that on every select made glibc grow and trim
 * its heap each time.  We keep the buffers of the last decompression for
 * the next one, once per process (so about 470 kB stay allocated once any
 * BWT map has been read; not thread-safe), and the compression buffers
 * (about 1.1 MB) for the duration of one create().
 */
#include "sim/contracts/groupmap.h"

#include <bzlib.h>
#include <limits.h>
#include <string.h>

extern const cs_gm_rep cs_gm_rep_bwt;

enum {
  BWT_BLOCK_SIZE_100K = 1,
  BWT_VERBOSITY = 0,
  BWT_WORK_FACTOR = 0, /* bzip2's default (30) */
  BWT_SMALL = 0,       /* decompress with the fast (not the low-memory) algorithm */
};

/* Largest block accepted: 4 B bytes must fit bzip2's unsigned int lengths
 * with room for its worst-case growth. */
#define BWT_MAX_BLOCK_WIDS (INT64_C(1) << 28)

typedef struct bwt_map {
  int64_t m;
  int64_t block;        /* B: wids per block */
  int64_t blocks;
  bool ordered;
  uint8_t *data;        /* compressed blocks, back to back */
  uint32_t *offset;     /* blocks + 1 byte offsets into data */
  cs_wid *first;        /* first wid of every block (ordered only, else NULL) */
  int64_t cached;       /* index of the block in cache, -1 if none */
  cs_wid *cache;        /* its wids (allocated on first use) */
} bwt_map;

/* ------------------------------------------------------ serialisation --- */

static void wids_to_le_bytes(const cs_wid *w, int64_t n, uint8_t *out)
{
  for (int64_t i = 0; i < n; i++) {
    out[4 * i] = (uint8_t)(w[i] & 0xff);
    out[4 * i + 1] = (uint8_t)((w[i] >> 8) & 0xff);
    out[4 * i + 2] = (uint8_t)((w[i] >> 16) & 0xff);
    out[4 * i + 3] = (uint8_t)(w[i] >> 24);
  }
}

/* In place: bytes 4i..4i+3 of buf become wid i. */
static void le_bytes_to_wids_in_place(cs_wid *buf, int64_t n)
{
  uint8_t *b = (uint8_t *)buf;
  for (int64_t i = 0; i < n; i++) {
    uint8_t q[4];
    memcpy(q, b + 4 * i, 4);
    buf[i] = (cs_wid)q[0] | (cs_wid)q[1] << 8 | (cs_wid)q[2] << 16 | (cs_wid)q[3] << 24;
  }
}

/* ------------------------------------------------------ bzip2 memory --- */

/* bzip2 allocates its working memory on every call (about 470 kB to
 * decompress with blockSize100k = 1, 1.1 MB to compress), most of it never
 * touched for a 4 kB block; malloc then grows and trims the heap each
 * time.  A bz_memory keeps the buffers of the last call for the next one:
 * one process-wide for decompression (select, rank, decode), one per
 * create() for compression, released when it ends. */
enum { BZ_SLOTS = 6 };

typedef struct bz_memory {
  struct {
    void *p;
    size_t size;
    bool busy;
  } slot[BZ_SLOTS];
} bz_memory;

static bz_memory decompress_memory; /* process-wide: not thread-safe */

static void *bz_memory_alloc(void *opaque, int n, int m)
{
  bz_memory *mem = opaque;
  size_t size = (size_t)n * (size_t)m;
  for (int i = 0; i < BZ_SLOTS; i++)
    if (mem->slot[i].p && !mem->slot[i].busy && mem->slot[i].size == size) {
      mem->slot[i].busy = true;
      return mem->slot[i].p;
    }
  void *p = g_try_malloc(size > 0 ? size : 1);
  for (int i = 0; i < BZ_SLOTS && p; i++)
    if (!mem->slot[i].p) {
      mem->slot[i].p = p;
      mem->slot[i].size = size;
      mem->slot[i].busy = true;
      break;
    }
  return p;
}

static void bz_memory_free(void *opaque, void *p)
{
  bz_memory *mem = opaque;
  for (int i = 0; i < BZ_SLOTS; i++)
    if (mem->slot[i].p == p) {
      mem->slot[i].busy = false;
      return;
    }
  g_free(p);
}

static void bz_memory_release(bz_memory *mem)
{
  for (int i = 0; i < BZ_SLOTS; i++) {
    g_free(mem->slot[i].p);
    mem->slot[i].p = NULL;
  }
}

static bz_stream bz_stream_with(bz_memory *mem)
{
  bz_stream strm;
  memset(&strm, 0, sizeof strm);
  strm.bzalloc = bz_memory_alloc;
  strm.bzfree = bz_memory_free;
  strm.opaque = mem;
  return strm;
}

/* One bzip2 stream of src into dst (capacity *dst_len, then the length
 * written); what BZ2_bzBuffToBuffCompress does, with our memory. */
static int bz_compress(bz_memory *mem, uint8_t *dst, unsigned int *dst_len, uint8_t *src, unsigned int src_len)
{
  bz_stream strm = bz_stream_with(mem);
  int rc = BZ2_bzCompressInit(&strm, BWT_BLOCK_SIZE_100K, BWT_VERBOSITY, BWT_WORK_FACTOR);
  if (rc != BZ_OK)
    return rc;
  strm.next_in = (char *)src;
  strm.avail_in = src_len;
  strm.next_out = (char *)dst;
  strm.avail_out = *dst_len;
  rc = BZ2_bzCompress(&strm, BZ_FINISH);
  *dst_len -= strm.avail_out;
  BZ2_bzCompressEnd(&strm);
  return rc == BZ_STREAM_END ? BZ_OK : rc == BZ_FINISH_OK ? BZ_OUTBUFF_FULL : rc;
}

/* The inverse; BZ_OK only when src is one whole stream. */
static int bz_decompress(bz_memory *mem, uint8_t *dst, unsigned int *dst_len, const uint8_t *src,
                         unsigned int src_len)
{
  bz_stream strm = bz_stream_with(mem);
  int rc = BZ2_bzDecompressInit(&strm, BWT_VERBOSITY, BWT_SMALL);
  if (rc != BZ_OK)
    return rc;
  strm.next_in = (char *)src;
  strm.avail_in = src_len;
  strm.next_out = (char *)dst;
  strm.avail_out = *dst_len;
  rc = BZ2_bzDecompress(&strm);
  *dst_len -= strm.avail_out;
  BZ2_bzDecompressEnd(&strm);
  return rc == BZ_STREAM_END ? BZ_OK : rc == BZ_OK ? BZ_DATA_ERROR_MAGIC : rc;
}

/* ------------------------------------------------------------ blocks --- */

static int64_t block_length(const bwt_map *g, int64_t k)
{
  int64_t start = k * g->block;
  return g->m - start < g->block ? g->m - start : g->block;
}

/* Compresses n wids (through the scratch `raw`, 4 n bytes) and appends the
 * bytes to dst.  False with err when bzip2 fails or the 32-bit offsets
 * would overflow. */
static bool compress_block(bz_memory *mem, const cs_wid *w, int64_t n, uint8_t *raw, GByteArray *dst,
                           GError **err)
{
  unsigned int raw_len = (unsigned int)(4 * n);
  unsigned int cap = raw_len + raw_len / 100 + 600; /* bzip2's documented worst case */
  guint old = dst->len;
  if ((uint64_t)old + cap > UINT32_MAX) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT,
                "bwt: compressed blocks would reach 2^32 bytes, beyond the 32-bit offsets");
    return false;
  }
  wids_to_le_bytes(w, n, raw);
  g_byte_array_set_size(dst, old + cap);
  unsigned int out_len = cap;
  int rc = bz_compress(mem, dst->data + old, &out_len, raw, raw_len);
  if (rc != BZ_OK) {
    g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_LIMIT, "bwt: bzip2 compression failed (code %d)", rc);
    return false;
  }
  g_byte_array_set_size(dst, old + out_len);
  return true;
}

/* Block k decompressed into the cache (a no-op when it is there). */
static const cs_wid *load_block(bwt_map *g, int64_t k)
{
  if (g->cached == k)
    return g->cache;
  if (!g->cache)
    g->cache = g_new(cs_wid, (size_t)g->block);
  int64_t n = block_length(g, k);
  unsigned int len = (unsigned int)(4 * n);
  int rc = bz_decompress(&decompress_memory, (uint8_t *)g->cache, &len, g->data + g->offset[k],
                         g->offset[k + 1] - g->offset[k]);
  if (rc != BZ_OK || len != (unsigned int)(4 * n))
    g_error("bwt: bzip2 could not decompress block %" G_GINT64_FORMAT " (code %d)", k, rc);
  le_bytes_to_wids_in_place(g->cache, n);
  g->cached = k;
  return g->cache;
}

/* ------------------------------------------------------------- create --- */

static bool block_size_ok(int64_t block, GError **err)
{
  if (block >= 1 && block <= BWT_MAX_BLOCK_WIDS)
    return true;
  g_set_error(err, CS_GM_ERROR, CS_GM_ERROR_INPUT,
              "bwt_block_wids = %" G_GINT64_FORMAT " outside [1, %" G_GINT64_FORMAT "]", block, BWT_MAX_BLOCK_WIDS);
  return false;
}

static void bwt_destroy(void *st)
{
  bwt_map *g = st;
  if (!g)
    return;
  g_free(g->data);
  g_free(g->offset);
  g_free(g->first);
  g_free(g->cache);
  g_free(g);
}

static bool compress_all(bwt_map *g, const cs_wid *wids, GError **err)
{
  uint8_t *raw = g_new(uint8_t, (size_t)(4 * g->block));
  GByteArray *dst = g_byte_array_new();
  bz_memory mem = {0};
  bool ok = true;
  for (int64_t k = 0; k < g->blocks && ok; k++) {
    g->offset[k] = dst->len;
    if (g->first)
      g->first[k] = wids[k * g->block];
    ok = compress_block(&mem, wids + k * g->block, block_length(g, k), raw, dst, err);
  }
  g->offset[g->blocks] = dst->len;
  bz_memory_release(&mem);
  g_free(raw);
  guint len = dst->len;
  g->data = g_byte_array_free(dst, FALSE);
  g->data = g_realloc(g->data, len > 0 ? len : 1);
  return ok;
}

static void *bwt_create(const cs_wid *wids, int64_t m, int64_t world, bool ordered, const cs_gm_limits *lim,
                        GError **err)
{
  (void)world;
  cs_gm_limits limits = lim ? *lim : cs_gm_limits_default();
  if (!block_size_ok(limits.bwt_block_wids, err))
    return NULL;
  bwt_map *g = g_new0(bwt_map, 1);
  g->m = m;
  g->block = limits.bwt_block_wids;
  g->blocks = (m + g->block - 1) / g->block;
  g->ordered = ordered;
  g->offset = g_new(uint32_t, (size_t)(g->blocks + 1));
  g->first = ordered ? g_new(cs_wid, (size_t)(g->blocks > 0 ? g->blocks : 1)) : NULL;
  g->cached = -1;
  if (!compress_all(g, wids, err)) {
    bwt_destroy(g);
    return NULL;
  }
  return g;
}

/* ------------------------------------------------------------ queries --- */

static cs_wid bwt_select(void *st, int64_t gid)
{
  bwt_map *g = st;
  int64_t k = gid / g->block;
  return load_block(g, k)[gid - k * g->block];
}

/* Last block whose first wid is <= wid, or -1. */
static int64_t block_holding(const bwt_map *g, cs_wid wid)
{
  int64_t lo = 0, hi = g->blocks; /* answer in [lo - 1, hi - 1] */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (g->first[mid] <= wid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo - 1;
}

static int64_t rank_ordered(bwt_map *g, cs_wid wid)
{
  int64_t k = block_holding(g, wid);
  if (k < 0)
    return -1;
  const cs_wid *w = load_block(g, k);
  int64_t lo = 0, hi = block_length(g, k);
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (w[mid] < wid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < block_length(g, k) && w[lo] == wid ? k * g->block + lo : -1;
}

static int64_t rank_unordered(bwt_map *g, cs_wid wid)
{
  for (int64_t k = 0; k < g->blocks; k++) {
    const cs_wid *w = load_block(g, k);
    int64_t n = block_length(g, k);
    for (int64_t i = 0; i < n; i++)
      if (w[i] == wid)
        return k * g->block + i;
  }
  return -1;
}

static int64_t bwt_rank(void *st, int64_t wid)
{
  bwt_map *g = st;
  if (wid < 0 || wid > (int64_t)UINT32_MAX || g->m == 0)
    return -1;
  return g->ordered ? rank_ordered(g, (cs_wid)wid) : rank_unordered(g, (cs_wid)wid);
}

static void bwt_decode(void *st, int64_t first, int64_t count, cs_wid *out)
{
  bwt_map *g = st;
  while (count > 0) {
    int64_t k = first / g->block;
    int64_t at = first - k * g->block;
    int64_t n = block_length(g, k) - at;
    if (n > count)
      n = count;
    memcpy(out, load_block(g, k) + at, (size_t)n * sizeof *out);
    out += n;
    first += n;
    count -= n;
  }
}

static cs_gm_size bwt_size(const void *st)
{
  const bwt_map *g = st;
  uint64_t blocks = 8u * (uint64_t)g->offset[g->blocks];
  uint64_t offsets = 32u * (uint64_t)(g->blocks + 1);
  uint64_t firsts = g->ordered ? 32u * (uint64_t)g->blocks : 0;
  cs_gm_size s = {.bits = blocks + offsets + firsts, .paths = -1, .runs = -1};
  s.parts[0].name = "blocks";
  s.parts[0].bits = blocks;
  s.parts[1].name = "offsets";
  s.parts[1].bits = offsets;
  if (g->ordered) {
    s.parts[2].name = "first wids";
    s.parts[2].bits = firsts;
  }
  return s;
}

/* The cost model's SELECT decompresses one block (cost_table.c): 14,000 +
 * 5,900 ns per bit per gid of the map. */
static double bwt_select_extra_ns(int64_t paths, double bpg)
{
  (void)paths;
  return 5900.0 * bpg;
}

const cs_gm_rep cs_gm_rep_bwt = {
  .name = "bwt",
  .description = "group array in blocks of wids compressed with bzip2 (BWT + Huffman), last block cached (Section 5.4)",
  .kind = CS_GM_MAP,
  .from_paper = true,
  .create = bwt_create,
  .select = bwt_select,
  .rank = bwt_rank,
  .decode = bwt_decode,
  .size = bwt_size,
  .destroy = bwt_destroy,
  .select_ns = 14000.0,
  .select_extra_ns = bwt_select_extra_ns,
  .create_ns_per_member = 430.0,
  .select_caches_block = true,
  .cached_select_ns = 5.0,
};
