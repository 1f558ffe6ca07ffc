/* FG-MPI's [C,P,M] systems (seed 003, Kamal, Mirtaheri and Wagner,
 * "Scalability of Communicators and Groups in MPI", Section 2): the
 * platform family "cpm".
 *
 *   cpm:C,P,M[/params]     e.g. cpm:6875,8,2 (Section 8's testbed: 110,000
 *                          proclets in 16 OS processes, 8 per machine, on 2
 *                          machines)
 *
 * M machines, P OS processes per machine, C proclets (FG-MPI's fine-grain
 * MPI processes, coroutines scheduled inside one OS process) per OS
 * process: N = C*P*M simulated MPI processes.  Rank r is proclet r mod C of
 * OS process r / C (in order), which lies on machine r / (C*P).  One SimGrid
 * host per OS process: hosts node-0 .. node-<P*M-1>, host h on machine
 * h / P; the platform's "cores" are the C proclets of a host.
 *
 * Limits: C, P, M >= 1; N <= 2^21 = 2,097,152, the 21-bit local ids (LID)
 * of the paper's context ids (Section 4); M <= 1024, since the top zone
 * holds a route per pair of machines (M^2 / 2 zoneRoutes).
 *
 * Message costs, three levels as in Section 2.  The paper gives no numbers
 * for any of them (it measures only group operations); every default is our
 * estimate, to be calibrated:
 *   proc_lat 0.5us  between collocated proclets (same OS process): a switch
 *                   of FG-MPI's scheduler plus message matching; our estimate.
 *   proc_bw  4GBps  copy bandwidth inside a process; our estimate for a
 *                   memcpy on a 2010 Nehalem core.
 *   shm_lat  0.4us  between OS processes of one machine (MPICH2's Nemesis
 *                   shared-memory channel); our estimate after Nemesis'
 *                   published sub-microsecond latency (Buntinas, Mercier and
 *                   Gropp, CCGRID 2006).
 *   shm_bw   1.5GBps  our estimate.
 *   net_lat  50us   machine to machine; our estimate for TCP over Gigabit
 *                   Ethernet (the paper only says "a local area network").
 *   net_bw   125MBps  1 Gbit/s per direction; our estimate.
 *   o_msg    1us    CPU time of the MPI middleware per message sent and per
 *                   message received (p->o_send = p->o_recv); our estimate.
 *   speed    1Gf    host speed, flop/s (plain number or with f, kf, Mf, Gf,
 *                   Tf); only converts seconds of computation into flops.
 * The latencies are meant for SimGrid's CM02 model (model = "CM02"), which
 * takes them as given (LV08 multiplies latency by 13.01).  No header bytes.
 *
 * XML (SimGrid 3.32, platform version 4.1): a top zone "cpm" (Full) holding
 * one SimGrid cluster "machine-<m>" per machine (hosts node-<m*P> ..
 * node-<m*P+P-1>, router "router-<m>", one core each: the proclets of an OS
 * process are run by one thread), then one link "lan-<m>" per machine
 * (tier "lan", a property), then one zoneRoute per pair of machines,
 * router to router over lan-a (UP) and lan-b (DOWN), as SimGrid's own
 * examples/platforms/cluster_multi.xml joins clusters.  Routes:
 *   same OS process:     machine-<m>_link_<h>_loopback (tier "proc": proc_lat,
 *                        proc_bw), but the engine does not send the bytes
 *                        over it (p->local_copy_bw = proc_bw): the sender's
 *                        OS process copies them on its one CPU (o_msg +
 *                        bytes / proc_bw, in turn with its other proclets'
 *                        work) and a zero-byte message pays proc_lat.  One
 *                        thread runs the copies of all collocated proclets,
 *                        which SimGrid's FATPIPE loopback would not model.
 *   same machine:        machine-<m>_link_<a>_UP, machine-<m>_link_<b>_DOWN
 *                        (tier "shm": shm_lat / 2 each, shm_bw, each process's
 *                        link shared by its proclets)
 *   different machines:  machine-<a>_link_<x>_UP, lan-<a> (UP), lan-<b>
 *                        (DOWN), machine-<b>_link_<y>_DOWN: net_lat / 2 on
 *                        each LAN link, so the latency is net_lat + shm_lat
 *                        and the bandwidth min(shm_bw, net_bw): a message
 *                        leaves the machine through its memory path too.
 * Between OS processes (p->host_channels): one FIFO channel per ordered
 * pair of OS processes, one message on the wire at a time, in the order
 * sent, the sender never blocked: MPICH2's Nemesis queue between two
 * processes of a machine and its TCP connection between machines are both
 * one ordered stream per pair.  It also keeps SimGrid's solver small: at
 * most one flow per pair of OS processes instead of one per message.  With
 * a flow per message, MPICH's split (its Bruck allgather puts every
 * proclet's message in flight at once) took 71 s at N = 5,504 and, from
 * N = 10,992, failed the solver's precision check (maxmin.cpp: a
 * constraint "with no active element" left by rounding, usage being
 * weight / latency, about 2.5e6 per flow at 0.4 us) and SimGrid crashed
 * formatting that message (it reads cnst_light_tab[-1]); with channels
 * the same run takes 5 s and 110,000 proclets 90 s.
 * <h> is the host number (SimGrid names cluster links by radical).  The
 * routers need no element of their own: router_id makes each cluster create
 * its router, which the zoneRoutes name as gateways.  The LAN is a
 * non-blocking switch: one full-duplex link per machine, nothing shared
 * between machine pairs beyond those links.  SimGrid names the two halves of
 * a split-duplex link lan-<m>_UP and lan-<m>_DOWN, which the file's "tier"
 * property (on lan-<m>) does not reach; the netmap (below, no SimGrid)
 * names every link's tier.  Hierarchy: machine (lan) > OS process (shm) >
 * proclet (proc); the two-tier view (seed 001) takes the machines as
 * supernodes, with PERCS's spread rule for their gateways (every OS process
 * reaches the LAN through its machine's router); p->nodes_per_machine = P.  Measured here: cpm:1,2,1024 (the largest M) 106 MB of XML, written
 * in 0.2 s, loaded by SimGrid in 3.5 s.
 */
#include "platforms/platform.h"
#include "platforms/sg_cluster.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cpm {
  int64_t c, p, m;  /* proclets per OS process, OS processes per machine, machines */
  double proc_lat, proc_bw; /* s, bytes/s: collocated proclets */
  double shm_lat, shm_bw;   /* between OS processes of one machine */
  double net_lat, net_bw;   /* machine to machine */
  double o_msg;             /* s of CPU per message sent and per message received */
  double speed;             /* flop/s per host */
} cpm;

#define PROC_LAT 0.5e-6
#define PROC_BW 4e9
#define SHM_LAT 0.4e-6
#define SHM_BW 1.5e9
#define NET_LAT 50e-6
#define NET_BW 125e6
#define O_MSG 1e-6
#define SPEED 1e9
#define MAX_N ((int64_t)1 << 21) /* the paper's 21-bit LID */
#define MAX_M 1024

#define LL(x) ((long long)(x))

/* Speed: a number of flop/s, optionally with a unit (longest suffix first). */
static const struct {
  const char *unit;
  double mult;
} flops[] = {{"Tf", 1e12}, {"Gf", 1e9}, {"Mf", 1e6}, {"kf", 1e3}, {"f", 1}};

static bool parse_speed(const char *text, double *out, GError **err)
{
  double mult = 1;
  char *num = g_strdup(text);
  for (size_t i = 0; i < G_N_ELEMENTS(flops); i++)
    if (g_str_has_suffix(num, flops[i].unit)) {
      num[strlen(num) - strlen(flops[i].unit)] = 0;
      mult = flops[i].mult;
      break;
    }
  bool ok = cs_parse_quantity("cpm speed (flop/s)", num, CS_QTY_NUMBER, mult, 1, 1e18, out, err);
  g_free(num);
  return ok;
}

/* The largest unit in which the speed reads back exactly. */
static void format_speed(GString *s, double v)
{
  char buf[40];
  for (size_t i = 0; i < G_N_ELEMENTS(flops); i++) {
    if (v < flops[i].mult)
      continue;
    cs_shortest_double(buf, sizeof buf, v / flops[i].mult);
    if (g_ascii_strtod(buf, NULL) * flops[i].mult == v) {
      g_string_append_printf(s, "%s%s", buf, flops[i].unit);
      return;
    }
  }
  cs_shortest_double(buf, sizeof buf, v);
  g_string_append_printf(s, "%sf", buf);
}

static bool parse_shape(cs_platform *p, const char *shape, GError **err)
{
  cpm *c = p->data;
  static const char *const names[] = {"C", "P", "M"};
  int64_t v[3];
  if (!cs_spec_counts("cpm", shape, ',', names, 3, 3, v, err))
    return false;
  c->c = v[0];
  c->p = v[1];
  c->m = v[2];
  if (c->m > MAX_M)
    return cs_input_error(err, "cpm:%s: M = %lld machines is more than %d (the top zone holds a route per pair of "
                          "machines: M^2 grows too fast)", shape, LL(c->m), MAX_M);
  if (c->c * c->p > MAX_N || c->c * c->p * c->m > MAX_N) /* C*P < 2^62: no overflow */
    return cs_input_error(err, "cpm:%s: N = C*P*M = %.0f proclets is more than 2^21 = %lld (the 21-bit local ids "
                          "of the paper's context ids)", shape, (double)c->c * (double)c->p * (double)c->m,
                          LL(MAX_N));
  return true;
}

static bool parse_param(cs_platform *p, const cs_spec_item *it, GError **err)
{
  cpm *c = p->data;
  const char *k = it->key, *v = it->value;
  if (!v)
    return cs_input_error(err, "cpm: parameter '%s' is not key=value", k);
  const struct {
    const char *key, *what;
    cs_quantity q;
    double min, max, *out;
  } known[] = {
      {"proc_lat", "cpm proc_lat", CS_QTY_TIME, 0, 1e9, &c->proc_lat},
      {"proc_bw", "cpm proc_bw", CS_QTY_BANDWIDTH, 1, 1e15, &c->proc_bw},
      {"shm_lat", "cpm shm_lat", CS_QTY_TIME, 0, 1e9, &c->shm_lat},
      {"shm_bw", "cpm shm_bw", CS_QTY_BANDWIDTH, 1, 1e15, &c->shm_bw},
      {"net_lat", "cpm net_lat", CS_QTY_TIME, 0, 1e9, &c->net_lat},
      {"net_bw", "cpm net_bw", CS_QTY_BANDWIDTH, 1, 1e15, &c->net_bw},
      {"o_msg", "cpm o_msg", CS_QTY_TIME, 0, 1e9, &c->o_msg},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(known); i++)
    if (strcmp(k, known[i].key) == 0)
      return cs_parse_quantity(known[i].what, v, known[i].q, 1, known[i].min, known[i].max, known[i].out, err);
  if (strcmp(k, "speed") == 0)
    return parse_speed(v, &c->speed, err);
  return cs_input_error(err, "cpm: unknown parameter '%s' (known: proc_lat, proc_bw, shm_lat, shm_bw, net_lat, "
                        "net_bw, o_msg, speed)", k);
}

static bool cpm_parse(cs_platform *p, const char *args, GError **err)
{
  cpm *c = g_new0(cpm, 1);
  *c = (cpm){0, 0, 0, PROC_LAT, PROC_BW, SHM_LAT, SHM_BW, NET_LAT, NET_BW, O_MSG, SPEED};
  p->data = c;
  p->mapping = CS_MAP_IN_ORDER;
  p->model = "CM02";
  p->header_bytes = 0;
  p->cpu = "one hardware thread per OS process";
  if (!args || !*args)
    return cs_input_error(err, "cpm: empty spec (cpm:C,P,M, e.g. cpm:6875,8,2)");
  bool ok = cs_spec_parse(p, "cpm", args, parse_shape, parse_param, err);
  if (ok) {
    p->nodes = c->p * c->m;
    p->cores = (int)c->c;
    p->nodes_per_machine = c->p;
    p->o_send = p->o_recv = c->o_msg;
    p->link_bw = c->net_bw;
    p->local_copy_bw = c->proc_bw;
    p->host_channels = true;
  }
  return ok;
}

static char *cpm_describe(const cs_platform *p)
{
  const cpm *c = p->data;
  GString *s = g_string_new(NULL);
  g_string_printf(s, "cpm:%lld,%lld,%lld", LL(c->c), LL(c->p), LL(c->m));
  char sep = '/';
  cs_spec_append_param(s, &sep, "proc_lat", c->proc_lat, PROC_LAT, CS_QTY_TIME);
  cs_spec_append_param(s, &sep, "proc_bw", c->proc_bw, PROC_BW, CS_QTY_BANDWIDTH);
  cs_spec_append_param(s, &sep, "shm_lat", c->shm_lat, SHM_LAT, CS_QTY_TIME);
  cs_spec_append_param(s, &sep, "shm_bw", c->shm_bw, SHM_BW, CS_QTY_BANDWIDTH);
  cs_spec_append_param(s, &sep, "net_lat", c->net_lat, NET_LAT, CS_QTY_TIME);
  cs_spec_append_param(s, &sep, "net_bw", c->net_bw, NET_BW, CS_QTY_BANDWIDTH);
  cs_spec_append_param(s, &sep, "o_msg", c->o_msg, O_MSG, CS_QTY_TIME);
  if (c->speed != SPEED) {
    g_string_append_printf(s, "%cspeed=", sep);
    format_speed(s, c->speed);
  }
  return g_string_free(s, FALSE);
}

/* Shortest exact text of x (buf of 40). */
static const char *num(char *buf, double x)
{
  cs_shortest_double(buf, 40, x);
  return buf;
}

/* Machine m's cluster element: what cpm_write writes and what the netmap
 * routes (the strings are g_strdup'd into *own: free it with
 * free_machine_params). */
typedef struct machine_strings {
  int64_t *radical;
  char *id, *router;
} machine_strings;

static cs_sgc_params machine_params(const cpm *c, int64_t m, machine_strings *own)
{
  own->radical = cs_sgc_radical_range(m * c->p, c->p);
  own->id = g_strdup_printf("machine-%lld", LL(m));
  own->router = g_strdup_printf("router-%lld", LL(m));
  return (cs_sgc_params){.id = own->id, .prefix = "node-", .suffix = "", .radical = own->radical, .nhosts = c->p,
                         .bw = c->shm_bw, .lat = c->shm_lat / 2, .sharing_policy = "SPLITDUPLEX",
                         .loopback_bw = c->proc_bw, .loopback_lat = c->proc_lat, .limiter_link = NAN, .bb_bw = NAN,
                         .bb_lat = NAN, .router_id = own->router};
}

static void free_machine_params(machine_strings *own)
{
  g_free(own->radical);
  g_free(own->id);
  g_free(own->router);
}

static bool write_machine(const cpm *c, FILE *f, int64_t m)
{
  machine_strings own;
  cs_sgc_params q = machine_params(c, m, &own);
  bool ok = cs_sg_cluster_write_xml(f, "    ", &q, c->speed, 1);
  free_machine_params(&own);
  return ok;
}

static void write_lan(const cpm *c, FILE *f)
{
  char bw[40], lat[40];
  for (int64_t m = 0; m < c->m; m++)
    fprintf(f, "    <link id=\"lan-%lld\" bandwidth=\"%sBps\" latency=\"%ss\" sharing_policy=\"SPLITDUPLEX\">"
               "<prop id=\"tier\" value=\"lan\"/></link>\n",
            LL(m), num(bw, c->net_bw), num(lat, c->net_lat / 2));
  for (int64_t a = 0; a < c->m; a++)
    for (int64_t b = a + 1; b < c->m; b++)
      fprintf(f, "    <zoneRoute src=\"machine-%lld\" dst=\"machine-%lld\" gw_src=\"router-%lld\" "
                 "gw_dst=\"router-%lld\" symmetrical=\"YES\"><link_ctn id=\"lan-%lld\" direction=\"UP\"/>"
                 "<link_ctn id=\"lan-%lld\" direction=\"DOWN\"/></zoneRoute>\n",
              LL(a), LL(b), LL(a), LL(b), LL(a), LL(b));
}

static bool cpm_write(const cs_platform *p, FILE *f)
{
  const cpm *c = p->data;
  char *d = cs_platform_describe(p);
  fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
  fprintf(f, "<!-- %s: %lld machines x %lld OS processes x %lld proclets (FG-MPI [C,P,M], seed 003 Section 2); "
             "generated by collsim (platforms/cpm.c) -->\n", d, LL(c->m), LL(c->p), LL(c->c));
  fprintf(f, "<platform version=\"4.1\">\n  <zone id=\"cpm\" routing=\"Full\">\n");
  for (int64_t m = 0; m < c->m; m++)
    write_machine(c, f, m);
  write_lan(c, f);
  fprintf(f, "  </zone>\n</platform>\n");
  g_free(d);
  return !ferror(f);
}

static void cpm_estimate(const cs_platform *p, int64_t *links, int64_t *xml_bytes)
{
  const cpm *c = p->data;
  *links = 3 * c->p * c->m + c->m;
  *xml_bytes = 300 * c->m + 200 * c->m * (c->m - 1) / 2 + 1024;
}

/* ---- the netmap: the machines' clusters (platforms/sg_cluster_flat.c)
 * and the LAN, composed as SimGrid routes the top zone: link ids are
 * machine m's cluster links at m * L .. m * L + L - 1 (L per machine), then
 * lan-<m>_UP at M * L + 2m and lan-<m>_DOWN after it ---- */

typedef struct cpm_map {
  cpm shape;
  cs_sg_cluster **machine;
  int64_t per_machine; /* L */
  int tier_lan, tier_of[8]; /* the clusters' tier index -> the map's */
} cpm_map;

static cs_sg_cluster *machine_cluster(const cpm *c, int64_t m)
{
  machine_strings own;
  cs_sgc_params q = machine_params(c, m, &own);
  cs_sg_cluster *cl = cs_sg_cluster_new(&q, NULL);
  g_assert(cl); /* a flat cluster of valid attributes always builds */
  free_machine_params(&own);
  return cl;
}

static const cpm_map *cm(const cs_netmap *m) { return m->data; }

/* The machine of link id (or M for a LAN link) and its id inside. */
static int64_t cm_split(const cpm_map *d, int64_t id, int64_t *inner)
{
  int64_t m = id / d->per_machine;
  if (m >= d->shape.m) {
    *inner = id - d->shape.m * d->per_machine;
    return d->shape.m;
  }
  *inner = id % d->per_machine;
  return m;
}

static void cm_name(const cs_netmap *m, int64_t id, GString *out)
{
  int64_t in, mach = cm_split(cm(m), id, &in);
  if (mach == cm(m)->shape.m)
    g_string_append_printf(out, "lan-%lld_%s", LL(in / 2), in % 2 ? "DOWN" : "UP");
  else
    cs_sg_cluster_link_name(cm(m)->machine[mach], in, out);
}

static int cm_tier(const cs_netmap *m, int64_t id)
{
  int64_t in, mach = cm_split(cm(m), id, &in);
  if (mach == cm(m)->shape.m)
    return cm(m)->tier_lan;
  const cs_sg_cluster *c = cm(m)->machine[mach];
  const char *names[8];
  int n = cs_sg_cluster_tiers(c, names, 8);
  const char *t = cs_sg_cluster_link_tier(c, in);
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], t) == 0)
      return cm(m)->tier_of[i];
  return cm(m)->tier_lan; /* not reached */
}

static bool cm_ends(const cs_netmap *m, int64_t id, GString *src, GString *dst)
{
  int64_t in, mach = cm_split(cm(m), id, &in);
  if (mach < cm(m)->shape.m)
    return cs_sg_cluster_link_ends(cm(m)->machine[mach], in, src, dst);
  bool up = in % 2 == 0;
  g_string_append_printf(up ? src : dst, "router-%lld", LL(in / 2));
  g_string_append(up ? dst : src, "lan");
  return true;
}

static double cm_value(const cs_netmap *m, int64_t id, bool latency)
{
  int64_t in, mach = cm_split(cm(m), id, &in);
  if (mach == cm(m)->shape.m)
    return latency ? cm(m)->shape.net_lat / 2 : cm(m)->shape.net_bw;
  const cs_sg_cluster *c = cm(m)->machine[mach];
  return latency ? cs_sg_cluster_link_latency(c, in) : cs_sg_cluster_link_bandwidth(c, in);
}

static double cm_bw(const cs_netmap *m, int64_t id) { return cm_value(m, id, false); }
static double cm_lat(const cs_netmap *m, int64_t id) { return cm_value(m, id, true); }

/* Inside a machine: its cluster's route (a == b: the loopback).  Between
 * machines: to the router, lan-a UP, lan-b DOWN, from the router (the top
 * zone's symmetrical zoneRoute, reversed with its directions swapped). */
static int cm_route(const cs_netmap *m, int64_t a, int64_t b, int32_t *links, int cap)
{
  const cpm_map *d = cm(m);
  int64_t nodes = d->shape.p * d->shape.m;
  if (a < 0 || b < 0 || a >= nodes || b >= nodes)
    return -1;
  int64_t ma = a / d->shape.p, mb = b / d->shape.p;
  int32_t r[CS_NETMAP_MAX_HOPS];
  int len;
  if (ma == mb) {
    len = cs_sg_cluster_route(d->machine[ma], a % d->shape.p, b % d->shape.p, r, CS_NETMAP_MAX_HOPS);
    for (int i = 0; i < len; i++)
      r[i] += (int32_t)(ma * d->per_machine);
  } else {
    len = cs_sg_cluster_route(d->machine[ma], a % d->shape.p, CS_SGC_ROUTER, r, CS_NETMAP_MAX_HOPS);
    for (int i = 0; i < len; i++)
      r[i] += (int32_t)(ma * d->per_machine);
    r[len++] = (int32_t)(d->shape.m * d->per_machine + 2 * ma);
    r[len++] = (int32_t)(d->shape.m * d->per_machine + 2 * mb + 1);
    int32_t tail[CS_NETMAP_MAX_HOPS];
    int n = cs_sg_cluster_route(d->machine[mb], CS_SGC_ROUTER, b % d->shape.p, tail, CS_NETMAP_MAX_HOPS);
    for (int i = 0; i < n; i++)
      r[len++] = (int32_t)(tail[i] + mb * d->per_machine);
  }
  for (int i = 0; i < len && i < cap; i++)
    links[i] = r[i];
  return len;
}

static void cm_free(void *data)
{
  cpm_map *d = data;
  for (int64_t m = 0; m < d->shape.m; m++)
    cs_sg_cluster_free(d->machine[m]);
  g_free(d->machine);
  g_free(d);
}

static const cs_netmap_ops cpm_map_ops = {
    .link_name = cm_name,
    .link_tier = cm_tier,
    .link_ends = cm_ends,
    .link_bandwidth = cm_bw,
    .link_latency = cm_lat,
    .route = cm_route,
    .free_data = cm_free,
};

static cs_netmap *cpm_netmap(const cs_platform *p, GError **err)
{
  (void)err;
  cpm_map *d = g_new0(cpm_map, 1);
  d->shape = *(const cpm *)p->data;
  d->machine = g_new(cs_sg_cluster *, d->shape.m);
  for (int64_t m = 0; m < d->shape.m; m++)
    d->machine[m] = machine_cluster(&d->shape, m);
  d->per_machine = cs_sg_cluster_nlinks(d->machine[0]);
  cs_netmap *map = cs_netmap_new(&cpm_map_ops, d, p->nodes, d->shape.m * d->per_machine + 2 * d->shape.m);
  /* report order as the links' names sort: lan-, then a machine's links (shm), then its loopbacks (proc) */
  d->tier_lan = cs_netmap_tier(map, "lan");
  const char *names[8];
  int n = cs_sg_cluster_tiers(d->machine[0], names, 8);
  for (int i = 0; i < n; i++)
    d->tier_of[i] = cs_netmap_tier(map, strcmp(names[i], "cluster") == 0 ? "shm"
                                        : strcmp(names[i], "intra") == 0 ? "proc" : names[i]);
  return map;
}

/* machines on the LAN > OS processes (shm) > proclets (proc). */
static void cpm_hierarchy(const cs_platform *p, cs_hierarchy *out)
{
  const cpm *c = p->data;
  memset(out, 0, sizeof *out);
  cs_hier_push(out, "machine", "lan", c->m);
  cs_hier_finish(out, p->nodes, p->cores, "shm");
  cs_hier_rename_tier(out, "intra", "proc");
}

const cs_platform_family cs_platform_cpm = {
    .kind = "cpm",
    .host_is_os_process = true,
    .synopsis = "cpm:C,P,M[/proc_lat=..,proc_bw=..,shm_lat=..,shm_bw=..,net_lat=..,net_bw=..,o_msg=..,speed=..]",
    .description = "FG-MPI [C,P,M] system (seed 003): C proclets per OS process, P OS processes per machine, "
                   "M machines on a LAN",
    .params = "proc_lat (0.5us), proc_bw (4GBps), shm_lat (0.4us), shm_bw (1.5GBps), net_lat (50us), "
              "net_bw (125MBps), o_msg (1us per message sent and received), speed (1Gf); all our estimates",
    .examples = (const char *const[]){"cpm:2,2,2", NULL},
    .parse = cpm_parse,
    .describe = cpm_describe,
    .write_xml = cpm_write,
    .estimate = cpm_estimate,
    .hierarchy = cpm_hierarchy,
    .netmap = cpm_netmap,
    .free_data = g_free,
};
