/* Parser of group specs (see group_spec.h). */
#include "sim/drivers/group_spec.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/units.h"

#include <stdio.h>
#include <string.h>

static bool bad(GError **err, const char *spec, const char *why)
{
  cs_input_error(err, "bad group '%s': %s (stride:START,STRIDE,COUNT, range:FIRST,LAST, ranks:R,R,..., or A+B)",
                 spec, why);
  return false;
}

/* Comma-separated integers into v (at most max); count in *k. */
static bool integers(const char *spec, const char *text, int64_t *v, int max, int *k, GError **err)
{
  char **f = g_strsplit(text, ",", -1);
  int n = (int)g_strv_length(f);
  bool ok = n >= 1 && n <= max;
  for (int i = 0; ok && i < n; i++) {
    char *end = NULL;
    g_strstrip(f[i]);
    v[i] = g_ascii_strtoll(f[i], &end, 10);
    ok = *f[i] && end && *end == '\0' && v[i] > -(INT64_C(1) << 40) && v[i] < (INT64_C(1) << 40);
  }
  g_strfreev(f);
  *k = n;
  return ok ? true : bad(err, spec, "expected integers separated by commas");
}

static bool in_world(const char *spec, int64_t r, int64_t world, GError **err)
{
  if (r >= 0 && r < world)
    return true;
  char why[96];
  snprintf(why, sizeof why, "rank %lld is outside the world [0, %lld)", (long long)r, (long long)world);
  return bad(err, spec, why);
}

static GArray *one_term(const char *spec, const char *term, int64_t world, GError **err)
{
  const char *colon = strchr(term, ':');
  if (!colon)
    return bad(err, spec, "no kind before ':'"), NULL;
  char *kind = g_strndup(term, (gsize)(colon - term));
  const char *args = colon + 1;
  GArray *out = g_array_new(FALSE, FALSE, sizeof(cs_wid));
  bool ok;
  int k = 0;
  if (strcmp(kind, "ranks") == 0) {
    int64_t *v = g_new(int64_t, strlen(args) / 2 + 2);
    ok = integers(spec, args, v, (int)(strlen(args) / 2 + 1), &k, err);
    for (int i = 0; ok && i < k; i++)
      if ((ok = in_world(spec, v[i], world, err)))
        g_array_append_val(out, ((cs_wid){(cs_wid)v[i]}));
    g_free(v);
  } else if (strcmp(kind, "stride") == 0 || strcmp(kind, "range") == 0) {
    int64_t v[3];
    bool stride = strcmp(kind, "stride") == 0;
    ok = integers(spec, args, v, stride ? 3 : 2, &k, err);
    if (ok && k != (stride ? 3 : 2))
      ok = bad(err, spec, stride ? "stride takes START,STRIDE,COUNT" : "range takes FIRST,LAST");
    int64_t start = v[0], step = stride ? v[1] : (v[1] >= v[0] ? 1 : -1);
    int64_t count = stride ? v[2] : (v[1] >= v[0] ? v[1] - v[0] : v[0] - v[1]) + 1;
    if (ok && stride && (count < 1 || step == 0))
      ok = bad(err, spec, "COUNT must be >= 1 and STRIDE nonzero");
    if (ok)
      ok = in_world(spec, start, world, err) && in_world(spec, start + step * (count - 1), world, err);
    for (int64_t i = 0; ok && i < count; i++)
      g_array_append_val(out, ((cs_wid){(cs_wid)(start + step * i)}));
  } else
    ok = bad(err, spec, "unknown kind");
  g_free(kind);
  if (!ok) {
    g_array_free(out, TRUE);
    return NULL;
  }
  return out;
}

cs_wid *cs_group_spec_parse(const char *spec, int64_t world, int64_t *m, GError **err)
{
  char **terms = g_strsplit(spec, "+", -1);
  GArray *all = g_array_new(FALSE, FALSE, sizeof(cs_wid));
  guint8 *seen = g_new0(guint8, (gsize)world);
  bool ok = terms[0] != NULL;
  if (!ok)
    bad(err, spec, "empty");
  for (int t = 0; ok && terms[t]; t++) {
    GArray *a = one_term(spec, g_strstrip(terms[t]), world, err);
    ok = a != NULL;
    for (guint i = 0; ok && i < a->len; i++) {
      cs_wid w = g_array_index(a, cs_wid, i);
      if (seen[w] && t == 0)
        ok = bad(err, spec, "a rank appears twice");
      else if (!seen[w])
        g_array_append_val(all, w);
      seen[w] = 1;
    }
    if (a)
      g_array_free(a, TRUE);
  }
  g_strfreev(terms);
  g_free(seen);
  if (!ok) {
    g_array_free(all, TRUE);
    return NULL;
  }
  *m = all->len;
  return (cs_wid *)g_array_free(all, FALSE);
}
