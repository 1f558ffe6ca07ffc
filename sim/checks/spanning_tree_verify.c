/* Tree verifier, see verify.h. */
#include "sim/checks/spanning_tree_verify.h"
#include "algorithms/shapes/tree_shapes.h"

static gboolean fail(GString *why, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(GString *why, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (why)
    g_string_vprintf(why, fmt, ap);
  va_end(ap);
  return FALSE;
}

static gboolean check_membership(const cs_tree_view *v, GString *why)
{
  for (int r = 0; r < v->n; r++) {
    int is = v->color[r] >= 0;
    if (is != (v->reported_member[r] != 0))
      return fail(why, "rank %d %s a member but reports %s", r, is ? "is" : "is not",
                  v->reported_member[r] ? "membership" : "none");
    if (is && v->reported_color[r] != v->color[r])
      return fail(why, "rank %d has colour %d but reports %d", r, v->color[r], v->reported_color[r]);
  }
  return TRUE;
}

static gboolean is_member_of(const cs_tree_view *v, int id, int color)
{
  return id >= 0 && id < v->n && v->color[id] == color;
}

static gboolean check_links(const cs_tree_view *v, int k, GString *why)
{
  for (int r = 0; r < v->n; r++) {
    if (v->color[r] < 0)
      continue;
    int c = v->color[r], par = v->parent[r];
    if (v->nchildren[r] > k)
      return fail(why, "rank %d has %d children, more than k = %d", r, v->nchildren[r], k);
    if (par != -1) {
      if (!is_member_of(v, par, c))
        return fail(why, "rank %d names parent %d, not a member of colour %d", r, par, c);
      int seen = 0;
      for (int i = 0; i < v->nchildren[par]; i++)
        seen += v->children[par][i] == r;
      if (seen != 1)
        return fail(why, "rank %d names parent %d, which lists it %d times among its children", r, par, seen);
    }
    for (int i = 0; i < v->nchildren[r]; i++) {
      int ch = v->children[r][i];
      if (!is_member_of(v, ch, c))
        return fail(why, "rank %d names child %d, not a member of colour %d", r, ch, c);
      if (v->parent[ch] != r)
        return fail(why, "rank %d names child %d, whose parent is %d", r, ch, v->parent[ch]);
    }
  }
  return TRUE;
}

/* Breadth-first walk from each root; every member must be reached once. */
static gboolean check_spanning(const cs_tree_view *v, int k, gboolean minh, int *height, GString *why)
{
  int64_t *m = g_new0(int64_t, v->colors);
  int *roots = g_new0(int, v->colors);
  int *root_of = g_new(int, v->colors);
  for (int r = 0; r < v->n; r++) {
    if (v->color[r] < 0)
      continue;
    m[v->color[r]]++;
    if (v->parent[r] == -1) {
      roots[v->color[r]]++;
      root_of[v->color[r]] = r;
    }
  }
  gboolean ok = TRUE;
  int32_t *queue = g_new(int32_t, v->n > 0 ? v->n : 1);
  int32_t *depth = g_new0(int32_t, v->n > 0 ? v->n : 1);
  *height = -1;
  for (int c = 0; c < v->colors && ok; c++) {
    if (m[c] == 0)
      continue;
    if (roots[c] != 1) {
      ok = fail(why, "colour %d has %d roots, expected 1", c, roots[c]);
      break;
    }
    int64_t head = 0, tail = 0;
    int h = 0;
    queue[tail++] = root_of[c];
    depth[root_of[c]] = 0;
    while (head < tail && tail <= m[c]) {
      int r = queue[head++];
      if (depth[r] > h)
        h = depth[r];
      for (int i = 0; i < v->nchildren[r] && tail <= m[c]; i++) {
        queue[tail++] = v->children[r][i];
        depth[v->children[r][i]] = depth[r] + 1;
      }
    }
    if (tail != m[c]) {
      ok = fail(why, "colour %d: %lld members reachable from root %d, expected %lld (cycle or forest)", c,
                (long long)tail, root_of[c], (long long)m[c]);
      break;
    }
    if (minh && h != kary_min_height(m[c], k)) {
      ok = fail(why, "colour %d: height %d, minimal height of a %d-ary tree over %lld vertices is %d", c, h, k,
                (long long)m[c], kary_min_height(m[c], k));
      break;
    }
    if (h > *height)
      *height = h;
  }
  g_free(queue);
  g_free(depth);
  g_free(m);
  g_free(roots);
  g_free(root_of);
  return ok;
}

gboolean cs_verify_tree(const cs_tree_view *v, int k, gboolean require_min_height, int *height, GString *why)
{
  *height = -1;
  return check_membership(v, why) && check_links(v, k, why) &&
         check_spanning(v, k, require_min_height, height, why);
}
