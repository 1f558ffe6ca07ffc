/* BG/P-like 3D torus (seed 000's machine, Intrepid): the platform family
 * "torus".
 *
 *   torus:XxYxZ[/C][,bw=..][,lat=..][,loopback=..][,loopback_lat=..]
 *   torus:auto[/C]...      the smallest BG/P partition holding n / C nodes
 *
 * Defaults, from the published BG/P description (IBM Blue Gene team,
 * "Overview of the IBM Blue Gene/P project", IBM J. Res. & Dev. 52(1/2),
 * 2008): C = 4 cores per node; each torus link carries 425 MB/s per
 * direction (3.4 Gb/s); a node has four 850 MHz PowerPC 450 cores (3.4
 * Gflop/s peak each); the hardware latency is about 100 ns per hop.  The
 * loopback (two ranks on one node talking through memory) is our choice:
 * 2 GB/s and 100 ns.  The per-message software overhead of the messaging
 * layer is not part of the platform: it is a run parameter (--o-send,
 * --o-recv).
 *
 * Shape: every dimension >= 2 (SimGrid's TORUS declares the same link twice
 * for a ring of one node) and <= 4096.  auto: start at 2x2x2 and double the
 * smallest dimension (the last one among equals), which gives the real
 * partitions 8x8x8, 8x8x16, 8x16x16, 16x16x16, ... 32x32x32.
 *
 * XML: one SimGrid TORUS cluster, hosts node-0 .. node-(XYZ-1), node id
 * x + X*y + X*Y*z, dimension-order routing, rank r on node r / C.  SimGrid
 * names the links bgp_link_from_A_to_B_UP/DOWN (and bgp_link_N_loopback);
 * a cluster element cannot carry link properties: the netmap (collsim's
 * emulation of SimGrid's TORUS zone, platforms/sg_cluster_torus.c) gives
 * each link's tier (X, Y or Z: the dimension it spans; intra: the
 * loopback) and endpoints.  Hierarchy: Z planes > Y rows > node (joined
 * along X) > core; the two-tier view takes the Z planes as supernodes.
 */
#include "platforms/platform.h"
#include "platforms/sg_cluster.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct torus {
  bool automatic;        /* shape chosen from n */
  int x, y, z;
  double link_bw, link_lat, loopback_bw, loopback_lat, core_speed;
} torus;

#define DEFAULT_CORES 4
#define DEFAULT_BW 425e6
#define DEFAULT_LAT 100e-9
#define DEFAULT_LO_BW 2e9
#define DEFAULT_LO_LAT 100e-9
#define CORE_SPEED 3.4e9
#define MAX_DIM 4096

static bool parse_shape(cs_platform *p, const char *shape, GError **err)
{
  torus *t = p->data;
  if (strcmp(shape, "auto") == 0) {
    t->automatic = true;
    return true;
  }
  static const char *const names[] = {"X", "Y", "Z"};
  int64_t v[3];
  if (!cs_spec_counts("torus", shape, 'x', names, 3, 3, v, err))
    return false;
  for (int i = 0; i < 3; i++)
    if (v[i] < 2 || v[i] > MAX_DIM)
      return cs_input_error(err, "torus: %s = %lld must be between 2 and %d (e.g. torus:8x8x16/4, or torus:auto)", names[i],
                  (long long)v[i], MAX_DIM);
  t->x = (int)v[0];
  t->y = (int)v[1];
  t->z = (int)v[2];
  return true;
}

static bool parse_param(cs_platform *p, const cs_spec_item *it, GError **err)
{
  torus *t = p->data;
  const char *k = it->key;
  if (!it->value || strcmp(k, "cores") == 0) {
    int64_t c;
    if (!cs_parse_int(it->value ? "torus cores" : "torus cores (after '/')", it->value ? it->value : k, 1, 1024, &c,
                      err))
      return false;
    p->cores = (int)c;
    return true;
  }
  if (strcmp(k, "bw") == 0)
    return cs_parse_quantity("torus bw", it->value, CS_QTY_BANDWIDTH, 1, 1, 1e15, &t->link_bw, err);
  if (strcmp(k, "lat") == 0)
    return cs_parse_quantity("torus lat", it->value, CS_QTY_TIME, 1, 0, 1e9, &t->link_lat, err);
  if (strcmp(k, "loopback") == 0)
    return cs_parse_quantity("torus loopback", it->value, CS_QTY_BANDWIDTH, 1, 1, 1e15, &t->loopback_bw, err);
  if (strcmp(k, "loopback_lat") == 0)
    return cs_parse_quantity("torus loopback_lat", it->value, CS_QTY_TIME, 1, 0, 1e9, &t->loopback_lat, err);
  return cs_input_error(err, "torus: unknown parameter '%s' (known: cores, bw, lat, loopback, loopback_lat)", k);
}

static bool torus_parse(cs_platform *p, const char *args, GError **err)
{
  torus *t = g_new0(torus, 1);
  *t = (torus){false, 0, 0, 0, DEFAULT_BW, DEFAULT_LAT, DEFAULT_LO_BW, DEFAULT_LO_LAT, CORE_SPEED};
  p->data = t;
  p->cores = DEFAULT_CORES;
  bool ok = cs_spec_parse(p, "torus", args, parse_shape, parse_param, err);
  if (ok && !t->automatic)
    p->nodes = (int64_t)t->x * t->y * t->z;
  p->link_bw = t->link_bw;
  p->cpu = "PowerPC 450, 850 MHz";
  return ok;
}

static void auto_shape(int64_t nodes, int *x, int *y, int *z)
{
  int d[3] = {2, 2, 2};
  while ((int64_t)d[0] * d[1] * d[2] < nodes && d[0] <= MAX_DIM) {
    int smallest = 2;
    for (int i = 1; i >= 0; i--)
      if (d[i] < d[smallest])
        smallest = i;
    d[smallest] *= 2;
  }
  *x = d[0];
  *y = d[1];
  *z = d[2];
}

static bool torus_resolve(cs_platform *p, int64_t n, GError **err)
{
  (void)err;
  torus *t = p->data;
  if (t->automatic && p->nodes == 0) {
    auto_shape((n + p->cores - 1) / p->cores, &t->x, &t->y, &t->z);
    p->nodes = (int64_t)t->x * t->y * t->z;
  }
  return true;
}

static char *torus_describe(const cs_platform *p)
{
  const torus *t = p->data;
  GString *s = g_string_new("torus:");
  if (t->automatic && p->nodes == 0)
    g_string_append(s, "auto");
  else
    g_string_append_printf(s, "%dx%dx%d", t->x, t->y, t->z);
  g_string_append_printf(s, "/%d", p->cores);
  char sep = ','; /* the parameters follow the cores */
  cs_spec_append_param(s, &sep, "bw", t->link_bw, DEFAULT_BW, CS_QTY_BANDWIDTH);
  cs_spec_append_param(s, &sep, "lat", t->link_lat, DEFAULT_LAT, CS_QTY_TIME);
  cs_spec_append_param(s, &sep, "loopback", t->loopback_bw, DEFAULT_LO_BW, CS_QTY_BANDWIDTH);
  cs_spec_append_param(s, &sep, "loopback_lat", t->loopback_lat, DEFAULT_LO_LAT, CS_QTY_TIME);
  return g_string_free(s, FALSE);
}

/* The one cluster element of the torus: what torus_write writes and what
 * the netmap routes (free *radical after use). */
static cs_sgc_params torus_params(const cs_platform *p, int64_t **radical, char *topo, size_t topo_size)
{
  const torus *t = p->data;
  *radical = cs_sgc_radical_range(0, p->nodes);
  snprintf(topo, topo_size, "%d,%d,%d", t->x, t->y, t->z);
  return (cs_sgc_params){.id = "bgp", .prefix = "node-", .suffix = "", .radical = *radical, .nhosts = p->nodes,
                         .topology = "TORUS", .topo_parameters = topo, .bw = t->link_bw, .lat = t->link_lat,
                         .sharing_policy = "SPLITDUPLEX", .loopback_bw = t->loopback_bw,
                         .loopback_lat = t->loopback_lat, .limiter_link = NAN, .bb_bw = NAN, .bb_lat = NAN};
}

static bool torus_write(const cs_platform *p, FILE *out)
{
  const torus *t = p->data;
  int64_t *radical;
  char topo[64];
  cs_sgc_params q = torus_params(p, &radical, topo, sizeof topo);
  bool ok = fprintf(out,
                    "<?xml version='1.0'?>\n"
                    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                    "<!-- BG/P-like torus %dx%dx%d, %d cores per node; generated by collsim (platforms/torus.c) -->\n"
                    "<platform version=\"4.1\">\n",
                    t->x, t->y, t->z, p->cores) >= 0 &&
            cs_sg_cluster_write_xml(out, "  ", &q, t->core_speed, p->cores) && fputs("</platform>\n", out) >= 0;
  g_free(radical);
  return ok;
}

static void torus_estimate(const cs_platform *p, int64_t *links, int64_t *xml_bytes)
{
  *links = 7 * p->nodes; /* 3 dimensions x 2 directions + loopback */
  *xml_bytes = 1024;     /* one cluster element */
}

/* The cluster element, routed as SimGrid routes it
 * (platforms/sg_cluster_torus.c), without SimGrid. */
static cs_sg_cluster *torus_cluster(const cs_platform *p, GError **err)
{
  int64_t *radical;
  char topo[64];
  cs_sgc_params q = torus_params(p, &radical, topo, sizeof topo);
  cs_sg_cluster *c = cs_sg_cluster_new(&q, err);
  g_free(radical);
  return c;
}

static cs_netmap *torus_netmap(const cs_platform *p, GError **err)
{
  cs_sg_cluster *c = torus_cluster(p, err);
  return c ? cs_sg_cluster_netmap(c) : NULL;
}

/* Z planes > Y rows > nodes (joined along X) > cores. */
static void torus_hierarchy(const cs_platform *p, cs_hierarchy *out)
{
  cs_sg_cluster *c = torus_cluster(p, NULL);
  g_assert(c); /* a resolved torus always builds */
  cs_sg_cluster_hierarchy(c, p->cores, out);
  cs_sg_cluster_free(c);
}

const cs_platform_family cs_platform_torus = {
    .kind = "torus",
    .synopsis = "torus:XxYxZ|auto[/C][,bw=..,lat=..,loopback=..,loopback_lat=..]",
    .description = "BG/P-like 3D torus (seed 000), C cores per node (default 4), dimension-order routing",
    .params = "C or cores=C, bw (425MBps), lat (100ns), loopback (2GBps), loopback_lat (100ns)",
    .examples = (const char *const[]){"torus:2x2x2/2", "torus:3x2x2/1", NULL},
    .cores_option = true,
    .parse = torus_parse,
    .resolve = torus_resolve,
    .describe = torus_describe,
    .write_xml = torus_write,
    .estimate = torus_estimate,
    .hierarchy = torus_hierarchy,
    .netmap = torus_netmap,
    .free_data = g_free,
};
