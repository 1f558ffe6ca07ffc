/* SimGrid 3.32's FAT_TREE clusters (sg_cluster_impl.h): the links SimGrid's
 * FatTreeZone creates and the routes its get_local_route takes, computed
 * from the tree's arithmetic (no per-link strings or tables).
 *
 * topo_parameters "L;down;up;count" (each a vector of L numbers): L levels
 * of switches; as SimGrid reads them, down[i] children per switch of level
 * i+1, up[i] parents per node of level i (0: the hosts), count[i] parallel
 * cables between a node of level i and each of its parents.  Level 0 holds
 * prod(down) hosts (SimGrid creates that many from the radical, ignoring
 * the radical's extra hosts and aborting when it has too few), level i >= 1
 * prod(up[0..i-1]) * prod(down[i..L-1]) switches.
 *
 * What SimGrid does (src/kernel/routing/FatTreeZone.cpp, v3.32):
 *  - labels: a node of level i at position j has the mixed-radix digits of
 *    j, digit 0 least significant, digit t in radix up[t] if t < i else
 *    down[t]; a node of level i and one of level i+1 are joined iff their
 *    labels agree on every digit but digit i;
 *  - SimGrid's ids: host = its position in the cluster; switches numbered
 *    down from 2*hosts-1, level 1 first, by position (they may go
 *    negative);
 *  - cables: nodes in order (level, position), each node's parents by
 *    position (= by digit i, q = 0..up[i]-1), count[i] cables each
 *    (j = 0..count[i]-1), numbered n = 0, 1, ... in that order; cable n
 *    from child id c to parent id p is "link_from_<c>_<p>_<n>" (_UP from
 *    child to parent, _DOWN back, when SPLITDUPLEX); it sits at port
 *    q + j*up[i] of the child and port label_i(child) + j*down[i] of the
 *    parent;
 *  - up (d-mod-k): at a node of level i, port
 *    (dst / (up[0]*..*up[i-1])) mod (up[i]*count[i]) (dst: the
 *    destination's position), until the node's subtree (digits i.. equal
 *    to the destination's) holds the destination; the node's limiter
 *    precedes each up cable;
 *  - down: at a switch of level i, scan its child ports from
 *    (src mod count[i-1]) * down[i-1] for the first port whose index mod
 *    down[i-1] is the destination's digit i-1; the scan's index CARRIES ON
 *    (one past the port taken) at the child, and only restarts from the
 *    child's own start when it runs past the child's ports; each down
 *    cable is followed by the limiter of the switch it leaves; the
 *    destination's limiter ends the route;
 *  - a host to itself: its loopback if the cluster has loopbacks, else up
 *    to a level-1 switch and down again;
 *  - switch limiters: "<id>_link_<n>_limiter", n the switch's id as an
 *    unsigned long (SimGrid passes it so).  When they would share a host
 *    limiter's name SimGrid aborts ("declared several times"): refused.
 *
 * Tiers: "S<L>" .. "S1" (the cables between levels i-1 and i), then the
 * leaf tiers.  Hierarchy: one level per significant digit (down > 1) from
 * the top, named pod-<i> (the hosts under one switch of level i), the
 * last one being the node.
 */
#include "platforms/sg_cluster_impl.h"
#include "sim/contracts/errors.h"

#include <string.h>

#define FT_MAX_LEVELS 24 /* tiers S1..S24 plus limiter and intra fit CS_NETMAP_MAX_TIERS */
#define FT_MAX_IDS ((int64_t)INT32_MAX)

typedef struct ft_node {
  int level;
  int64_t pos;
  int64_t digit[FT_MAX_LEVELS];
} ft_node;

typedef struct fat_tree {
  int levels;
  int64_t down[FT_MAX_LEVELS], up[FT_MAX_LEVELS], count[FT_MAX_LEVELS];
  int64_t per_level[FT_MAX_LEVELS + 1];   /* nodes of each level (0: hosts) */
  int64_t switch_base[FT_MAX_LEVELS + 1]; /* switches before level i (i >= 1) */
  int64_t cable_base[FT_MAX_LEVELS + 1];  /* cables from levels below i; [levels]: all */
  int64_t first_cable_link;               /* link id of cable 0 */
  int64_t first_limiter_link;             /* link id of switch 0's limiter (if limiters) */
  int lpd;                                /* links per cable: 2 (SPLITDUPLEX) or 1 */
} fat_tree;

static const fat_tree *ft_of(const cs_sg_cluster *c) { return c->data; }

/* ---- labels ---- */

static int64_t radix(const fat_tree *t, int level, int digit)
{
  return digit < level ? t->up[digit] : t->down[digit];
}

static void node_at(const fat_tree *t, int level, int64_t pos, ft_node *n)
{
  n->level = level;
  n->pos = pos;
  for (int d = 0; d < t->levels; d++) {
    n->digit[d] = pos % radix(t, level, d);
    pos /= radix(t, level, d);
  }
}

static int64_t position_of(const fat_tree *t, int level, const int64_t *digit)
{
  int64_t pos = 0;
  for (int d = t->levels - 1; d >= 0; d--)
    pos = pos * radix(t, level, d) + digit[d];
  return pos;
}

/* SimGrid's id of a node (a host: its position; switches count down). */
static int64_t sg_id(const cs_sg_cluster *c, int level, int64_t pos)
{
  return level == 0 ? pos : 2 * c->nhosts - 1 - (ft_of(c)->switch_base[level] + pos);
}

/* ---- links ---- */

static int64_t cable_serial(const fat_tree *t, int level, int64_t child_pos, int64_t q, int64_t j)
{
  return t->cable_base[level] + (child_pos * t->up[level] + q) * t->count[level] + j;
}

static int64_t cable_link(const fat_tree *t, int64_t serial, bool up)
{
  return t->first_cable_link + serial * t->lpd + (t->lpd == 2 && !up ? 1 : 0);
}

static int64_t switch_limiter(const cs_sg_cluster *c, int level, int64_t pos)
{
  if (!c->has_limiter)
    return -1;
  return level == 0 ? cs_sgc_limiter_id(c, pos) : ft_of(c)->first_limiter_link + ft_of(c)->switch_base[level] + pos;
}

/* A cable by serial: the child's level and position, its parent digit q,
 * the parallel cable j. */
typedef struct ft_cable {
  int level;
  int64_t child, q, j;
} ft_cable;

static ft_cable cable_at(const fat_tree *t, int64_t serial)
{
  ft_cable k = {0, 0, 0, 0};
  while (k.level + 1 < t->levels && serial >= t->cable_base[k.level + 1])
    k.level++;
  int64_t r = serial - t->cable_base[k.level];
  k.j = r % t->count[k.level];
  r /= t->count[k.level];
  k.q = r % t->up[k.level];
  k.child = r / t->up[k.level];
  return k;
}

static int64_t parent_pos(const fat_tree *t, const ft_cable *k)
{
  ft_node n;
  node_at(t, k->level, k->child, &n);
  n.digit[k->level] = k->q;
  return position_of(t, k->level + 1, n.digit);
}

static bool is_switch_limiter(const cs_sg_cluster *c, int64_t id)
{
  return c->has_limiter && id >= ft_of(c)->first_limiter_link;
}

/* The switch of a limiter id. */
static void limiter_switch(const cs_sg_cluster *c, int64_t id, int *level, int64_t *pos)
{
  const fat_tree *t = ft_of(c);
  int64_t s = id - t->first_limiter_link;
  int l = 1;
  while (l < t->levels && s >= t->switch_base[l + 1])
    l++;
  *level = l;
  *pos = s - t->switch_base[l];
}

static void ft_link_name(const cs_sg_cluster *c, int64_t id, GString *out)
{
  const fat_tree *t = ft_of(c);
  if (is_switch_limiter(c, id)) {
    int level;
    int64_t pos;
    limiter_switch(c, id, &level, &pos);
    cs_sgc_limiter_name(c, (uint64_t)sg_id(c, level, pos), out);
    return;
  }
  int64_t serial = (id - t->first_cable_link) / t->lpd;
  ft_cable k = cable_at(t, serial);
  g_string_append_printf(out, "link_from_%lld_%lld_%lld", (long long)sg_id(c, k.level, k.child),
                         (long long)sg_id(c, k.level + 1, parent_pos(t, &k)), (long long)serial);
  if (t->lpd == 2)
    cs_sgc_direction_suffix(c, (id - t->first_cable_link) % 2 == 0, out);
}

static int ft_link_tier(const cs_sg_cluster *c, int64_t id)
{
  const fat_tree *t = ft_of(c);
  if (is_switch_limiter(c, id))
    return c->limiter_tier;
  ft_cable k = cable_at(t, (id - t->first_cable_link) / t->lpd);
  return t->levels - 1 - k.level; /* tiers: S<L> first .. S1 */
}

static void node_name(const cs_sg_cluster *c, int level, int64_t pos, GString *out)
{
  if (level == 0)
    cs_sgc_host_name(c, pos, out);
  else
    g_string_append_printf(out, "%s_switch_%d_%lld", c->id, level, (long long)pos);
}

static bool ft_link_ends(const cs_sg_cluster *c, int64_t id, GString *src, GString *dst)
{
  const fat_tree *t = ft_of(c);
  if (is_switch_limiter(c, id)) { /* sits at its switch */
    int level;
    int64_t pos;
    limiter_switch(c, id, &level, &pos);
    node_name(c, level, pos, src);
    node_name(c, level, pos, dst);
    return true;
  }
  ft_cable k = cable_at(t, (id - t->first_cable_link) / t->lpd);
  if (t->lpd == 1)
    return false; /* one link for both directions */
  bool up = (id - t->first_cable_link) % 2 == 0;
  node_name(c, up ? k.level : k.level + 1, up ? k.child : parent_pos(t, &k), src);
  node_name(c, up ? k.level + 1 : k.level, up ? parent_pos(t, &k) : k.child, dst);
  return true;
}

static double ft_link_bandwidth(const cs_sg_cluster *c, int64_t id)
{
  return is_switch_limiter(c, id) ? c->limiter_bw : c->bw;
}

static double ft_link_latency(const cs_sg_cluster *c, int64_t id)
{
  return is_switch_limiter(c, id) ? 0.0 : c->lat;
}

/* ---- routes ---- */

static bool holds(const fat_tree *t, const ft_node *n, const ft_node *dst)
{
  if (n->level == 0)
    return false;
  for (int d = n->level; d < t->levels; d++)
    if (n->digit[d] != dst->digit[d])
      return false;
  return true;
}

static void push_limiter(const cs_sg_cluster *c, const ft_node *n, int32_t *links, int cap, int *len)
{
  int64_t lim = switch_limiter(c, n->level, n->pos);
  if (lim >= 0)
    cs_sgc_push(links, cap, len, lim);
}

/* d-mod-k: one step up from cur towards dst (position b). */
static void step_up(const cs_sg_cluster *c, ft_node *cur, int64_t b, int32_t *links, int cap, int *len)
{
  const fat_tree *t = ft_of(c);
  int l = cur->level;
  int64_t d = b;
  for (int i = 0; i < l; i++)
    d /= t->up[i];
  d %= t->up[l] * t->count[l];
  int64_t q = d % t->up[l], j = d / t->up[l];
  push_limiter(c, cur, links, cap, len);
  cs_sgc_push(links, cap, len, cable_link(t, cable_serial(t, l, cur->pos, q, j), true));
  cur->digit[l] = q;
  cur->level = l + 1;
  cur->pos = position_of(t, l + 1, cur->digit);
}

/* SimGrid's down loop: one scan, carrying its index from switch to child,
 * until it runs past a node's child ports.  Returns the scan's end. */
static void scan_down(const cs_sg_cluster *c, ft_node *cur, const ft_node *dst, int64_t a, int32_t *links, int cap,
                      int *len)
{
  const fat_tree *t = ft_of(c);
  int64_t i = (a % t->count[cur->level - 1]) * t->down[cur->level - 1];
  while (cur->level > 0) {
    int l = cur->level;
    int64_t width = t->down[l - 1], want = dst->digit[l - 1];
    i += ((want - i % width) % width + width) % width;
    if (i >= width * t->count[l - 1])
      return;
    int64_t q = cur->digit[l - 1], j = i / width;
    ft_node child = *cur;
    child.level = l - 1;
    child.digit[l - 1] = want;
    child.pos = position_of(t, l - 1, child.digit);
    cs_sgc_push(links, cap, len, cable_link(t, cable_serial(t, l - 1, child.pos, q, j), false));
    push_limiter(c, cur, links, cap, len);
    *cur = child;
    i++;
  }
}

static int ft_route(const cs_sg_cluster *c, int64_t a, int64_t b, int32_t *links, int cap)
{
  const fat_tree *t = ft_of(c);
  int len = 0;
  if (a == CS_SGC_ROUTER || b == CS_SGC_ROUTER)
    return 0;
  if (a == b && c->has_loopback) {
    cs_sgc_push(links, cap, &len, cs_sgc_loopback_id(c, a));
    return len;
  }
  ft_node cur, dst;
  node_at(t, 0, a, &cur);
  node_at(t, 0, b, &dst);
  while (!holds(t, &cur, &dst))
    step_up(c, &cur, b, links, cap, &len);
  while (cur.level > 0)
    scan_down(c, &cur, &dst, a, links, cap, &len);
  push_limiter(c, &dst, links, cap, &len);
  return len;
}

/* ---- tiers, hierarchy ---- */

static const char *const tier_names[FT_MAX_LEVELS] = {
    "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "S11", "S12",
    "S13", "S14", "S15", "S16", "S17", "S18", "S19", "S20", "S21", "S22", "S23", "S24"};

static int ft_tiers(const cs_sg_cluster *c, const char **names, int max)
{
  const fat_tree *t = ft_of(c);
  int n = 0;
  for (int l = t->levels - 1; l >= 0 && n < max; l--)
    names[n++] = tier_names[l];
  return cs_sgc_leaf_tiers(c, names, n, max);
}

/* One level per digit that varies (down > 1), top first: the hosts that
 * agree on digits i.. (pod-i: under one switch of level i) are joined by
 * tier S<i+1> inside the level above; the last such digit is the node's. */
static void ft_hierarchy(const cs_sg_cluster *c, int64_t cores, cs_hierarchy *out)
{
  const fat_tree *t = ft_of(c);
  int digits[FT_MAX_LEVELS], r = 0;
  for (int i = t->levels - 1; i >= 0; i--)
    if (t->down[i] > 1)
      digits[r++] = i;
  int64_t count = 1;
  int pushed = 0;
  for (int s = 0; s + 1 < r && pushed < CS_HIER_MAX_LEVELS - 2; s++, pushed++) {
    count *= t->down[digits[s]];
    char name[24];
    g_snprintf(name, sizeof name, "pod-%d", digits[s]);
    cs_hier_push(out, name, tier_names[digits[s]], count);
  }
  bool exact = pushed == (r > 0 ? r - 1 : 0);
  cs_hier_finish(out, c->nhosts, cores, r > 0 && exact ? tier_names[digits[r - 1]] : "");
}

/* ---- building ---- */

static bool parse_vector(const cs_sg_cluster *c, const char *what, const char *text, int levels, int64_t *v,
                         GError **err)
{
  int n = 0;
  char *where = g_strdup_printf("cluster %s: FAT_TREE %s", c->id, what);
  bool ok = cs_sgc_parse_counts(where, text, ',', v, FT_MAX_LEVELS, &n, INT32_MAX, err);
  g_free(where);
  if (!ok)
    return false;
  if (n != levels)
    return cs_input_error(err, "cluster %s: FAT_TREE topo_parameters: %d levels but the %s vector has %d values",
                          c->id, levels, what, n);
  return true;
}

static bool parse_topology(const cs_sg_cluster *c, fat_tree *t, const char *text, GError **err)
{
  char **part = g_strsplit(text ? text : "", ";", -1);
  bool ok = g_strv_length(part) == 4;
  if (!ok)
    cs_input_error(err, "cluster %s: FAT_TREE topo_parameters '%s': want 'levels;down,..;up,..;count,..'", c->id,
                   text ? text : "");
  int64_t levels = 0;
  int n = 0;
  char *where = g_strdup_printf("cluster %s: FAT_TREE levels", c->id);
  ok = ok && cs_sgc_parse_counts(where, part[0], ',', &levels, 1, &n, FT_MAX_LEVELS, err);
  g_free(where);
  t->levels = (int)levels;
  ok = ok && parse_vector(c, "down (children)", part[1], t->levels, t->down, err);
  ok = ok && parse_vector(c, "up (parents)", part[2], t->levels, t->up, err);
  ok = ok && parse_vector(c, "count (parallel links)", part[3], t->levels, t->count, err);
  g_strfreev(part);
  return ok;
}

/* Level sizes, cable numbering, link ids; FALSE if a count exceeds what
 * SimGrid (ints) and the netmap (int32 link ids) can number. */
static bool size_tree(cs_sg_cluster *c, fat_tree *t, GError **err)
{
  t->per_level[0] = 1;
  for (int i = 0; i < t->levels; i++)
    if ((t->per_level[0] *= t->down[i]) > FT_MAX_IDS)
      return cs_input_error(err, "cluster %s: FAT_TREE: too many hosts", c->id);
  if (t->per_level[0] > c->nhosts)
    return cs_input_error(err, "cluster %s: FAT_TREE topo_parameters give %lld hosts, the radical only %lld", c->id,
                          (long long)t->per_level[0], (long long)c->nhosts);
  cs_sgc_set_hosts(c, t->per_level[0]); /* SimGrid ignores the radical's extra hosts */
  int64_t switches = 0, cables = 0;
  for (int i = 1; i <= t->levels; i++) {
    int64_t n = 1;
    for (int d = 0; d < t->levels && n <= FT_MAX_IDS; d++)
      n *= radix(t, i, d);
    t->switch_base[i] = switches;
    t->per_level[i] = n;
    if (n > FT_MAX_IDS || (switches += n) > FT_MAX_IDS)
      return cs_input_error(err, "cluster %s: FAT_TREE: too many switches", c->id);
  }
  for (int i = 0; i < t->levels; i++) {
    t->cable_base[i] = cables;
    if ((cables += t->per_level[i] * t->up[i] * t->count[i]) > FT_MAX_IDS)
      return cs_input_error(err, "cluster %s: FAT_TREE: too many links", c->id);
  }
  t->cable_base[t->levels] = cables;
  t->lpd = cs_sgc_links_per_duplex(c);
  t->first_cable_link = c->leaf_links;
  t->first_limiter_link = c->leaf_links + cables * t->lpd;
  c->nlinks = t->first_limiter_link + (c->has_limiter ? switches : 0);
  if (c->nlinks > FT_MAX_IDS)
    return cs_input_error(err, "cluster %s: FAT_TREE: too many links", c->id);
  /* switch limiters are named by the switch's id: ids 0 .. hosts-1 are the hosts' */
  if (c->has_limiter && switches > c->nhosts)
    return cs_input_error(err, "cluster %s: FAT_TREE with limiter_link and more switches (%lld) than hosts: SimGrid "
                          "would name a switch's limiter like a host's (link declared twice)",
                          c->id, (long long)switches);
  return true;
}

static bool ft_build(cs_sg_cluster *c, const char *topo_parameters, GError **err)
{
  fat_tree *t = g_new0(fat_tree, 1);
  c->data = t;
  if (!(c->bw > 0))
    return cs_input_error(err, "cluster %s: FAT_TREE needs bw > 0 (SimGrid refuses it)", c->id);
  return parse_topology(c, t, topo_parameters, err) && size_tree(c, t, err);
}

const cs_sgc_topology cs_sgc_fat_tree = {
    .name = "FAT_TREE",
    .build = ft_build,
    .link_name = ft_link_name,
    .link_tier = ft_link_tier,
    .link_ends = ft_link_ends,
    .link_bandwidth = ft_link_bandwidth,
    .link_latency = ft_link_latency,
    .route = ft_route,
    .tiers = ft_tiers,
    .hierarchy = ft_hierarchy,
    .free_data = g_free,
};
