/* Parent group membership, see group.h. */
#include "sim/drivers/members.h"
#include "sim/contracts/rank_list.h"
#include "sim/contracts/prng.h"
#include "sim/engine/sg_engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cs_member_draw(uint64_t seed, int rank, double f) { return cs_uniform(seed, (uint64_t)rank, 0) < f; }

int cs_color_draw(uint64_t seed, int rank, int colors, cs_color_rule rule)
{
  if (rule == CS_COLOR_MOD)
    return rank % colors;
  int c = (int)(cs_uniform(seed, (uint64_t)rank, 1) * colors);
  return c < colors ? c : colors - 1;
}

static cs_group *group_new(int n, int colors)
{
  cs_group *g = g_new0(cs_group, 1);
  g->n = n;
  g->colors = colors;
  g->color = g_new(int32_t, n > 0 ? n : 1);
  g->m_color = g_new0(int64_t, colors);
  for (int r = 0; r < n; r++)
    g->color[r] = -1;
  return g;
}

static void group_join(cs_group *g, int rank, int color)
{
  g->color[rank] = color;
  g->m++;
  g->m_color[color]++;
}

cs_group *cs_group_draw(int n, double f, int colors, cs_color_rule rule, uint64_t seed)
{
  cs_group *g = group_new(n, colors);
  for (int r = 0; r < n; r++)
    if (cs_member_draw(seed, r, f))
      group_join(g, r, cs_color_draw(seed, r, colors, rule));
  return g;
}

cs_group *cs_group_from_file(const char *path, int n, int colors, cs_color_rule rule, uint64_t seed,
                             GError **err)
{
  GArray *ranks = cs_rank_list_read(path, n, true, err);
  if (!ranks) {
    g_prefix_error(err, "members file: ");
    return NULL;
  }
  cs_group *g = group_new(n, colors);
  for (guint i = 0; i < ranks->len; i++) {
    int r = (int)g_array_index(ranks, int64_t, i);
    group_join(g, r, cs_color_draw(seed, r, colors, rule));
  }
  g_array_free(ranks, TRUE);
  return g;
}

void cs_group_free(cs_group *g)
{
  if (!g)
    return;
  g_free(g->color);
  g_free(g->m_color);
  g_free(g);
}
