/* A two-tier network from a whole spec, and to a file: see two_tier_spec.h. */
#include "platforms/two_tier_spec.h"
#include "platforms/platform.h"
#include "sim/contracts/errors.h"

#include <string.h>

/* Is the family a two-tier network (its platforms hold a cs_net)? */
static bool is_two_tier_net(const cs_platform_family *f) { return f && f->netmap == cs_net_family_netmap; }

/* "percs, dragonfly": the registry's two-tier families (g_free it). */
static char *two_tier_kinds(void)
{
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < cs_platform_family_count(); i++)
    if (is_two_tier_net(cs_platform_family_at(i)))
      g_string_append_printf(s, "%s%s", s->len ? ", " : "", cs_platform_family_at(i)->kind);
  return g_string_free(s, FALSE);
}

/* Bad input: what is wrong (g_free'd here), then the families known. */
static bool spec_error(GError **err, char *what)
{
  char *kinds = two_tier_kinds();
  cs_input_error(err, "%s (two-tier families: %s)", what, kinds);
  g_free(what);
  g_free(kinds);
  return false;
}

bool cs_net_parse(const char *spec, cs_net *out, GError **err)
{
  if (!spec || !*spec)
    return spec_error(err, g_strdup("empty network spec"));
  const char *colon = strchr(spec, ':');
  if (!colon)
    return spec_error(err, g_strdup_printf("network spec '%s' has no ':'", spec));
  char *kind = g_strndup(spec, (gsize)(colon - spec));
  bool known = is_two_tier_net(cs_platform_family_find(kind));
  if (!known)
    spec_error(err, g_strdup_printf("unknown network kind '%s' in '%s'", kind, spec));
  g_free(kind);
  if (!known)
    return false;
  cs_platform *p = cs_platform_parse(spec, err);
  if (!p)
    return false;
  *out = *(const cs_net *)p->data;
  cs_platform_free(p);
  return true;
}

bool cs_net_write_xml(const cs_net *n, const char *path, GError **err)
{
  char *spec = cs_net_describe(n);
  cs_platform *p = cs_platform_parse(spec, err);
  g_free(spec);
  if (!p)
    return false;
  *(cs_net *)p->data = *n;
  p->nodes = cs_net_nodes(n);
  p->cores = (int)n->cpn;
  bool ok = cs_platform_write_file(p, path, err);
  cs_platform_free(p);
  return ok;
}
