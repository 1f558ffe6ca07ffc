/* The SimGrid-free netmap (netmap.h): the shared part every provider uses. */
#include "sim/contracts/netmap.h"
#include "sim/contracts/natural_order.h"

#include <stdlib.h>
#include <string.h>

cs_netmap *cs_netmap_new(const cs_netmap_ops *ops, void *data, int64_t nodes, int64_t nlinks)
{
  cs_netmap *m = g_new0(cs_netmap, 1);
  m->ops = ops;
  m->data = data;
  m->nodes = nodes;
  m->nlinks = nlinks;
  return m;
}

void cs_netmap_free(cs_netmap *m)
{
  if (!m)
    return;
  if (m->ops && m->ops->free_data)
    m->ops->free_data(m->data);
  for (int i = 0; i < m->ntiers; i++)
    g_free(m->tier_name[i]);
  if (m->by_name)
    g_hash_table_destroy(m->by_name);
  g_free(m);
}

int cs_netmap_tier(cs_netmap *m, const char *name)
{
  for (int i = 0; i < m->ntiers; i++)
    if (strcmp(m->tier_name[i], name) == 0)
      return i;
  if (m->ntiers == CS_NETMAP_MAX_TIERS)
    return cs_netmap_tier_unknown(m);
  m->tier_name[m->ntiers] = g_strdup(name);
  return m->ntiers++;
}

void cs_netmap_rename_tier(cs_netmap *m, const char *from, const char *to)
{
  for (int i = 0; i < m->ntiers; i++)
    if (strcmp(m->tier_name[i], from) == 0) {
      g_free(m->tier_name[i]);
      m->tier_name[i] = g_strdup(to);
    }
}

int cs_netmap_tier_unknown(cs_netmap *m)
{
  for (int i = 0; i < m->ntiers; i++)
    if (strcmp(m->tier_name[i], "?") == 0)
      return i;
  if (m->ntiers == CS_NETMAP_MAX_TIERS) /* the last slot becomes "?" */
    g_free(m->tier_name[--m->ntiers]);
  m->tier_name[m->ntiers] = g_strdup("?");
  return m->ntiers++;
}

char *cs_netmap_link_name(const cs_netmap *m, int64_t id)
{
  GString *s = g_string_new(NULL);
  m->ops->link_name(m, id, s);
  return g_string_free(s, FALSE);
}

const char *cs_netmap_link_tier(const cs_netmap *m, int64_t id) { return m->tier_name[m->ops->link_tier(m, id)]; }

bool cs_netmap_link_internal(const cs_netmap *m, int64_t id)
{
  return m->ops->link_internal && m->ops->link_internal(m, id);
}

int cs_netmap_route(const cs_netmap *m, cs_route_buf *buf, int64_t a, int64_t b, const int32_t **links)
{
  for (;;) {
    int n = m->ops->route(m, a, b, buf->links, buf->cap);
    if (n <= buf->cap) {
      *links = buf->links;
      return n;
    }
    buf->cap = n > 2 * buf->cap ? n : 2 * buf->cap;
    buf->links = g_renew(int32_t, buf->links, buf->cap);
  }
}

void cs_route_buf_clear(cs_route_buf *buf)
{
  g_free(buf->links);
  buf->links = NULL;
  buf->cap = 0;
}

/* ---- names ---- */

typedef struct named {
  char *name;
  int64_t id;
} named;

static int named_cmp(const void *a, const void *b)
{
  const named *x = a, *y = b;
  int c = cs_natural_cmp(x->name, y->name);
  return c ? c : (x->id > y->id) - (x->id < y->id);
}

int64_t *cs_netmap_links_by_name(const cs_netmap *m)
{
  named *v = g_new(named, m->nlinks > 0 ? m->nlinks : 1);
  for (int64_t l = 0; l < m->nlinks; l++)
    v[l] = (named){cs_netmap_link_name(m, l), l};
  qsort(v, (size_t)m->nlinks, sizeof *v, named_cmp);
  int64_t *ids = g_new(int64_t, m->nlinks > 0 ? m->nlinks : 1);
  for (int64_t l = 0; l < m->nlinks; l++) {
    ids[l] = v[l].id;
    g_free(v[l].name);
  }
  g_free(v);
  return ids;
}

int64_t cs_netmap_link_id(cs_netmap *m, const char *name)
{
  if (!m->by_name) {
    m->by_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (int64_t l = 0; l < m->nlinks; l++)
      g_hash_table_insert(m->by_name, cs_netmap_link_name(m, l), GSIZE_TO_POINTER((gsize)(l + 1)));
  }
  gpointer v = g_hash_table_lookup(m->by_name, name);
  return v ? (int64_t)GPOINTER_TO_SIZE(v) - 1 : -1;
}
