/* SimGrid's network-model factors (see model_factors.h). */
#include "sim/engine/model_factors.h"

#include <stdlib.h>
#include <string.h>

static const char SMPI_LAT[] =
    "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;"
    "0:2.01467";
static const char SMPI_BW[] =
    "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;"
    "257:0.338112;0:0.812084";

/* A factor as SimGrid reads it: a number, or "threshold:value;..." where
 * the value of the largest threshold <= bytes applies. */
static double piecewise(const char *spec, double bytes)
{
  if (!strchr(spec, ':'))
    return strtod(spec, NULL);
  double best_thr = -1, value = 1;
  for (const char *s = spec; s && *s; s = strchr(s, ';') ? strchr(s, ';') + 1 : NULL) {
    char *colon;
    double thr = strtod(s, &colon);
    if (*colon == ':' && thr <= bytes && thr > best_thr) {
      best_thr = thr;
      value = strtod(colon + 1, NULL);
    }
  }
  return value;
}

/* The value of --cfg=key:VALUE in the run's extra settings, or dflt. */
static const char *setting(const cs_engine_config *c, const char *key, const char *dflt)
{
  const char *found = dflt;
  size_t len = strlen(key);
  for (guint i = 0; c->extra_cfg && i < c->extra_cfg->len; i++) {
    const char *a = g_ptr_array_index(c->extra_cfg, i);
    if (g_str_has_prefix(a, "--cfg=") && strncmp(a + 6, key, len) == 0 && a[6 + len] == ':')
      found = a + 7 + len;
  }
  return found;
}

void cs_model_factors(const cs_engine_config *c, double bytes, double *lat_factor, double *bw_factor)
{
  const char *m = c->model ? c->model : "LV08";
  bool smpi = strcmp(m, "SMPI") == 0 || strcmp(m, "IB") == 0, lv08 = strcmp(m, "LV08") == 0;
  if (smpi) {
    *lat_factor = piecewise(setting(c, "smpi/lat-factor", SMPI_LAT), bytes);
    *bw_factor = piecewise(setting(c, "smpi/bw-factor", SMPI_BW), bytes);
    return;
  }
  *lat_factor = piecewise(setting(c, "network/latency-factor", lv08 ? "13.01" : "1"), bytes);
  *bw_factor = piecewise(setting(c, "network/bandwidth-factor", lv08 ? "0.97" : "1"), bytes);
}
