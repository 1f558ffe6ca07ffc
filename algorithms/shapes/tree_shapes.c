/* Tree shapes as pure functions: see tree_shapes.h. */
#include "algorithms/shapes/tree_shapes.h"

int64_t cs_pow2_floor(int64_t x)
{
  int64_t pow2 = 1;
  while (pow2 <= x / 2)
    pow2 *= 2;
  return pow2;
}

int64_t cs_pow2_ceil(int64_t x)
{
  int64_t pow2 = 1;
  while (pow2 < x)
    pow2 <<= 1;
  return pow2;
}

int cs_log2_pow2(int64_t pow2)
{
  int k = 0;
  while (pow2 > 1) {
    pow2 >>= 1;
    k++;
  }
  return k;
}

int64_t cs_binomial_child_limit(int64_t rel, int64_t p) { return rel == 0 ? cs_pow2_ceil(p) : cs_lowbit(rel); }

int64_t cs_binomial_subtree_size(int64_t rel, int64_t p)
{
  if (rel == 0)
    return p;
  int64_t low = cs_lowbit(rel);
  return low < p - rel ? low : p - rel;
}

int64_t kary_subtree_size(int64_t i, int k, int64_t count)
{
  /* Descendants at each depth form a contiguous range [lo, lo + width). */
  int64_t total = 0, lo = i, width = 1;
  while (lo < count) {
    int64_t hi = lo + width;
    total += (hi < count ? hi : count) - lo;
    lo = lo * k + 1;
    width *= k;
  }
  return total;
}

/* fanout^level, and the first rank of `level` (ranks on the levels above). */
static int64_t ipow(int64_t base, int exp)
{
  int64_t x = 1;
  while (exp-- > 0)
    x *= base;
  return x;
}

static int ompi_tree_level(int64_t rel, int fanout)
{
  int level = 0;
  for (int64_t above = 1, width = 1; above <= rel; level++) {
    width *= fanout;
    above += width;
  }
  return level;
}

int cs_ompi_tree_children(int64_t rel, int fanout, int64_t p, int64_t *children)
{
  int64_t delta = ipow(fanout, ompi_tree_level(rel, fanout));
  int n = 0;
  for (int j = 1; j <= fanout && rel + delta * j < p; j++)
    children[n++] = rel + delta * j;
  return n;
}

int64_t cs_ompi_tree_parent(int64_t rel, int fanout, int64_t p)
{
  (void)p;
  if (rel == 0)
    return -1;
  if (rel <= fanout)
    return 0;
  int level = ompi_tree_level(rel, fanout);
  int64_t step = ipow(fanout, level - 1), first_of_level = 0;
  for (int l = 0; l < level; l++)
    first_of_level += ipow(fanout, l);
  int64_t parent = rel;
  while (parent >= first_of_level)
    parent -= step;
  return parent;
}

/* Chain c's first rank and length, for `fanout` chains over ranks 1 .. p-1. */
typedef struct chain_pos {
  int64_t head, len;
} chain_pos;

static int chain_count(int fanout, int64_t p) { return p - 1 < fanout ? (int)(p - 1) : fanout; }

/* The first `mark` chains are `longest` ranks long, the others one less. */
static void chain_lengths(int chains, int64_t p, int64_t *longest, int64_t *mark)
{
  *longest = (p - 1 + chains - 1) / chains;
  *mark = (p - 1) % chains ? (p - 1) % chains : chains;
}

static chain_pos chain_number(int64_t col, int chains, int64_t p)
{
  int64_t longest, mark;
  chain_lengths(chains, p, &longest, &mark);
  if (col < mark)
    return (chain_pos){1 + col * longest, longest};
  return (chain_pos){1 + mark * longest + (col - mark) * (longest - 1), longest - 1};
}

static chain_pos chain_of(int64_t rel, int chains, int64_t p)
{
  int64_t longest, mark;
  chain_lengths(chains, p, &longest, &mark);
  if (rel - 1 < mark * longest)
    return chain_number((rel - 1) / longest, chains, p);
  return chain_number(mark + (rel - 1 - mark * longest) / (longest - 1), chains, p);
}

int cs_ompi_chain_children(int64_t rel, int fanout, int64_t p, int64_t *children)
{
  int chains = chain_count(fanout, p);
  if (rel == 0) {
    for (int c = 0; c < chains; c++)
      children[c] = chain_number(c, chains, p).head;
    return chains;
  }
  chain_pos c = chain_of(rel, chains, p);
  if (rel == c.head + c.len - 1)
    return 0;
  children[0] = rel + 1;
  return 1;
}

int64_t cs_ompi_chain_parent(int64_t rel, int fanout, int64_t p)
{
  if (rel == 0)
    return -1;
  chain_pos c = chain_of(rel, chain_count(fanout, p), p);
  return rel == c.head ? 0 : rel - 1;
}
