/* Clusters of SMP nodes on a switched Ethernet (seed 002, Section 5): the
 * platform family "smp".
 *
 *   smp:NODESxCORES@MHZ[/params]   e.g. smp:8x4@166, smp:6x4@300
 *   smp:2w | smp:4w | smp:8w       the paper's three clusters
 *
 * m nodes of c processors, one 100 Mbit/s full-duplex link from each node to
 * a non-blocking switch, messages between processes of one node through
 * shared memory.  Processes are spread evenly over the nodes as LAM-MPI did:
 * rank r on node r mod m (map=spread, the default; map=inorder puts rank r
 * on node r / c).  Presets: 2w (16 x 2-way Pentium III 450 MHz), 4w (8 x
 * 4-way Pentium Pro 166 MHz), 8w (4 x 8-way Pentium Pro 200 MHz);
 * a cluster given by its shape needs its clock, @MHZ, even when the shape is
 * a preset's (8x4 alone is refused rather than given 4w's 166 MHz).
 *
 * Timing model (one calibration for all clusters; the paper gives no
 * parameters): every message costs the sending process o_send and the
 * receiving process o_recv of CPU time, each `cycles` / clock rate, so the
 * three clusters differ only by their processors' clock; between nodes the
 * wire latency plus the bytes at 100 Mbit/s, the node's link shared by its
 * processes; inside a node shared-memory latency, no network.  Values:
 * 100 Mbit/s Ethernet (12.5e6 bytes/s per direction), 64 bytes of headers
 * per message, shared memory at 200e6 bytes/s, and three numbers fitted by
 * scripts/calibrate-seed002.sh to the only absolute times the paper gives
 * (Section 5.2, 8-way cluster, n = 32: 1444, 1534, 1322 us, and LAM at
 * 1.98 x 1322 us): 8000 CPU cycles per message sent and per message
 * received (40 us each on the 200 MHz Pentium Pro, 18 us on the 450 MHz
 * Pentium III), 300 us node to node (wire, switch and the kernel's TCP
 * path), 80 us through shared memory.  results/seed002/calibration.md shows
 * the fit.  Parameters: cycles, net_lat, shm_lat, net_bw, shm_bw, header,
 * map.  The latencies are meant for SimGrid's CM02 model, which takes them
 * as given (LV08 multiplies latency by 13.01).
 *
 * XML: one SimGrid cluster "smp" (hosts node-0 .. node-<m-1>, links
 * smp_link_<i>_UP / _DOWN: tier "eth", node-i to SimGrid's router
 * node-smp_router and back; _loopback: tier "intra"); the
 * node-to-node latency is split between the two links of a route.
 */
#include "platforms/platform.h"
#include "platforms/sg_cluster.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct smp {
  double mhz;
  double net_bw;      /* bytes/s per direction of a node's link */
  double net_lat;     /* s, node to node */
  double shm_bw;      /* bytes/s inside a node */
  double shm_lat;     /* s */
  double cycles;      /* CPU cycles per message sent and per message received */
  bool preset_shape;  /* the shape of a preset (label is the preset's name) */
} smp;

typedef struct preset {
  const char *name;
  int nodes, cores;
  double mhz;
  const char *cpu;
} preset;

static const preset presets[] = {
    {"2w", 16, 2, 450, "Pentium III 450 MHz"},
    {"4w", 8, 4, 166, "Pentium Pro 166 MHz"},
    {"8w", 4, 8, 200, "Pentium Pro 200 MHz"},
};

#define NET_BW (100e6 / 8)
#define NET_LAT 300e-6
#define SHM_BW 200e6
#define SHM_LAT 80e-6
#define CYCLES 8000.0
#define HEADER_BYTES 64.0
#define MAX_NODES (1 << 16)
#define MAX_CORES (1 << 10)

static bool fail(GError **err, const char *spec, const char *why)
{
  g_set_error(err, CS_INPUT_ERROR, 1, "bad cluster '%s': %s (NODESxCORES@MHZ, e.g. 6x4@300, or a preset: "
              "2w = 16x2@450, 4w = 8x4@166, 8w = 4x8@200)", spec, why);
  return false;
}

static const preset *preset_named(const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS(presets); i++)
    if (g_ascii_strcasecmp(name, presets[i].name) == 0)
      return &presets[i];
  return NULL;
}

static const preset *preset_shaped(int64_t nodes, int64_t cores)
{
  for (size_t i = 0; i < G_N_ELEMENTS(presets); i++)
    if (presets[i].nodes == nodes && presets[i].cores == cores)
      return &presets[i];
  return NULL;
}

static void apply_preset(cs_platform *p, smp *c, const preset *pr)
{
  p->nodes = pr->nodes;
  p->cores = pr->cores;
  c->mhz = pr->mhz;
  p->cpu = pr->cpu;
  c->preset_shape = true;
}

/* "NODESxCORES[@MHZ]" or a preset name. */
static bool parse_shape(cs_platform *p, const char *spec, GError **err)
{
  smp *c = p->data;
  const preset *pr = preset_named(spec);
  if (pr) {
    apply_preset(p, c, pr);
    return true;
  }
  const char *at = strchr(spec, '@');
  char *shape = at ? g_strndup(spec, (gsize)(at - spec)) : g_strdup(spec);
  static const char *const names[] = {"NODES", "CORES"};
  int64_t v[2];
  GError *e = NULL;
  bool ok = cs_spec_counts("smp", shape, 'x', names, 2, 2, v, &e);
  g_free(shape);
  if (!ok) {
    fail(err, spec, e->message);
    g_error_free(e);
    return false;
  }
  if (v[0] > MAX_NODES || v[1] > MAX_CORES)
    return fail(err, spec, "at most 65536 nodes of 1024 cores");
  double mhz = 0;
  if (at && !cs_parse_quantity("the clock after @ (MHz)", at + 1, CS_QTY_NUMBER, 1, 1e-3, 1e7, &mhz, &e)) {
    fail(err, spec, e->message);
    g_error_free(e);
    return false;
  }
  if (!at) /* no clock is borrowed from a preset of the same shape */
    return fail(err, spec, "a shape needs its processors' clock: add @MHZ");
  p->cpu = "processor given by @MHZ";
  p->nodes = v[0];
  p->cores = (int)v[1];
  c->mhz = mhz;
  c->preset_shape = false;
  return true;
}

static bool parse_param(cs_platform *p, const cs_spec_item *it, GError **err)
{
  smp *c = p->data;
  const char *k = it->key, *v = it->value;
  if (!v)
    return fail(err, k, "parameters are key=value");
  if (strcmp(k, "cycles") == 0)
    return cs_parse_quantity("smp cycles", v, CS_QTY_NUMBER, 1, 0, 1e12, &c->cycles, err);
  if (strcmp(k, "net_lat") == 0)
    return cs_parse_quantity("smp net_lat", v, CS_QTY_TIME, 1, 0, 1e9, &c->net_lat, err);
  if (strcmp(k, "shm_lat") == 0)
    return cs_parse_quantity("smp shm_lat", v, CS_QTY_TIME, 1, 0, 1e9, &c->shm_lat, err);
  if (strcmp(k, "net_bw") == 0)
    return cs_parse_quantity("smp net_bw", v, CS_QTY_BANDWIDTH, 1, 1, 1e15, &c->net_bw, err);
  if (strcmp(k, "shm_bw") == 0)
    return cs_parse_quantity("smp shm_bw", v, CS_QTY_BANDWIDTH, 1, 1, 1e15, &c->shm_bw, err);
  if (strcmp(k, "header") == 0)
    return cs_parse_quantity("smp header (bytes)", v, CS_QTY_NUMBER, 1, 0, 1e9, &p->header_bytes, err);
  if (strcmp(k, "map") == 0) {
    if (strcmp(v, "spread") == 0 || strcmp(v, "inorder") == 0) {
      p->mapping = strcmp(v, "spread") == 0 ? CS_MAP_SPREAD : CS_MAP_IN_ORDER;
      return true;
    }
    g_set_error(err, CS_INPUT_ERROR, 1, "smp: map=%s: expected spread or inorder", v);
    return false;
  }
  g_set_error(err, CS_INPUT_ERROR, 1,
              "smp: unknown parameter '%s' (known: cycles, net_lat, shm_lat, net_bw, shm_bw, header, map)", k);
  return false;
}

static void set_label(cs_platform *p, const smp *c)
{
  g_free(p->label);
  const preset *pr = preset_shaped(p->nodes, p->cores);
  if (c->preset_shape && pr)
    p->label = g_strdup(pr->name);
  else
  {
    char mhz[32];
    cs_shortest_double(mhz, sizeof mhz, c->mhz); /* reads back to the same clock */
    p->label = g_strdup_printf("%lldx%d@%s", (long long)p->nodes, p->cores, mhz);
  }
}

static bool smp_parse(cs_platform *p, const char *args, GError **err)
{
  smp *c = g_new0(smp, 1);
  *c = (smp){0, NET_BW, NET_LAT, SHM_BW, SHM_LAT, CYCLES, false};
  p->data = c;
  p->mapping = CS_MAP_SPREAD;
  p->header_bytes = HEADER_BYTES;
  p->model = "CM02";
  if (!args || !*args)
    return fail(err, "", "empty");
  bool ok = cs_spec_parse(p, "smp", args, parse_shape, parse_param, err);
  if (ok) {
    p->o_send = p->o_recv = c->cycles / (c->mhz * 1e6);
    p->link_bw = c->net_bw;
    set_label(p, c);
  }
  return ok;
}

static char *smp_describe(const cs_platform *p)
{
  const smp *c = p->data;
  GString *s = g_string_new("smp:");
  g_string_append(s, p->label);
  char sep = '/';
  cs_spec_append_param(s, &sep, "cycles", c->cycles, CYCLES, CS_QTY_NUMBER);
  cs_spec_append_param(s, &sep, "net_lat", c->net_lat, NET_LAT, CS_QTY_TIME);
  cs_spec_append_param(s, &sep, "shm_lat", c->shm_lat, SHM_LAT, CS_QTY_TIME);
  cs_spec_append_param(s, &sep, "net_bw", c->net_bw, NET_BW, CS_QTY_BANDWIDTH);
  cs_spec_append_param(s, &sep, "shm_bw", c->shm_bw, SHM_BW, CS_QTY_BANDWIDTH);
  cs_spec_append_param(s, &sep, "header", p->header_bytes, HEADER_BYTES, CS_QTY_NUMBER);
  if (p->mapping != CS_MAP_SPREAD)
    g_string_append_printf(s, "%cmap=inorder", sep);
  return g_string_free(s, FALSE);
}

/* The one cluster element of the SMP cluster: what smp_write writes and
 * what the netmap routes (free *radical after use). */
static cs_sgc_params smp_params(const cs_platform *p, int64_t **radical)
{
  const smp *c = p->data;
  *radical = cs_sgc_radical_range(0, p->nodes);
  return (cs_sgc_params){.id = "smp", .prefix = "node-", .suffix = "", .radical = *radical, .nhosts = p->nodes,
                         .bw = c->net_bw, .lat = c->net_lat / 2, .sharing_policy = "SPLITDUPLEX",
                         .loopback_bw = c->shm_bw, .loopback_lat = c->shm_lat, .limiter_link = NAN, .bb_bw = NAN,
                         .bb_lat = NAN};
}

static bool smp_write(const cs_platform *p, FILE *f)
{
  const smp *c = p->data;
  char *label = cs_platform_label(p);
  int64_t *radical;
  cs_sgc_params q = smp_params(p, &radical);
  bool ok = fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                       "<!-- %s: %lld nodes x %d %s, switched 100 Mbit/s Ethernet; generated by collsim "
                       "(platforms/smp.c) -->\n<platform version=\"4.1\">\n",
                    label, (long long)p->nodes, p->cores, p->cpu) >= 0 &&
            cs_sg_cluster_write_xml(f, "  ", &q, c->mhz * 1e6, p->cores) && fputs("</platform>\n", f) >= 0;
  g_free(radical);
  g_free(label);
  return ok && !ferror(f);
}

static void smp_estimate(const cs_platform *p, int64_t *links, int64_t *xml_bytes)
{
  *links = 3 * p->nodes;
  *xml_bytes = 1024;
}

/* The cluster element, routed as SimGrid routes it
 * (platforms/sg_cluster_flat.c); its private links are the Ethernet. */
static cs_sg_cluster *smp_cluster(const cs_platform *p, GError **err)
{
  int64_t *radical;
  cs_sgc_params q = smp_params(p, &radical);
  cs_sg_cluster *cl = cs_sg_cluster_new(&q, err);
  g_free(radical);
  return cl;
}

static cs_netmap *smp_netmap(const cs_platform *p, GError **err)
{
  cs_sg_cluster *c = smp_cluster(p, err);
  if (!c)
    return NULL;
  cs_netmap *m = cs_sg_cluster_netmap(c);
  cs_netmap_rename_tier(m, "cluster", "eth");
  return m;
}

/* nodes on the switch (eth) > cores. */
static void smp_hierarchy(const cs_platform *p, cs_hierarchy *out)
{
  cs_hier_flat(out, p->nodes, p->cores, "eth");
}

const cs_platform_family cs_platform_smp = {
    .kind = "smp",
    .synopsis = "smp:NODESxCORES[@MHZ]|2w|4w|8w[/cycles=..,net_lat=..,shm_lat=..,net_bw=..,shm_bw=..,header=..,map=..]",
    .description = "cluster of SMP nodes on switched 100 Mbit/s Ethernet (seed 002), LAM-MPI's even spread of ranks",
    .params = "cycles (8000 per message), net_lat (300us), shm_lat (80us), net_bw (12.5MBps), shm_bw (200MBps), "
              "header (64 bytes), map (spread | inorder)",
    .examples = (const char *const[]){"smp:3x2@100", "smp:2x3@100/map=inorder", NULL},
    .parse = smp_parse,
    .describe = smp_describe,
    .write_xml = smp_write,
    .estimate = smp_estimate,
    .hierarchy = smp_hierarchy,
    .netmap = smp_netmap,
    .free_data = g_free,
};
