/* The Allreduce benchmark (see allreduce_run.h).  Each process executes its
 * script's reduce commands then its broadcast commands, through the
 * messaging interface, once per iteration; messages carry the partial sum
 * (an int) padded to the cluster's header size. */
#include "sim/drivers/allreduce_bench.h"
#include "sim/contracts/transport.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct bench {
  const cs_tree_script *s;
  int iterations, msg_bytes;
  double t_start, t_end;  /* rank 0 */
  long long wrong;
} bench;

/* Tags: iteration i (warm-up i = 0) uses 2i for the reduce, 2i+1 for the
 * broadcast. */
static int tag_of(int iteration, cs_ts_phase ph) { return 2 * iteration + (int)ph; }

static void send_value(cs_proc *p, const bench *b, int dst, int tag, long long value)
{
  char *buf = g_malloc0((gsize)b->msg_bytes);
  memcpy(buf, &value, sizeof value);
  cs_send(p, dst, tag, buf, (size_t)b->msg_bytes);
  g_free(buf);
}

static long long take_value(cs_proc *p, int src, int tag)
{
  cs_msg *m = cs_recv(p, src, tag);
  long long v;
  memcpy(&v, m->data, sizeof v);
  cs_msg_free(p, m);
  return v;
}

/* Number of receives from command k on, up to the next send. */
static int receive_run(const cs_ts_list *l, int k)
{
  int n = 0;
  while (k + n < l->n && l->cmd[k + n].kind == CS_TS_RECV)
    n++;
  return n;
}

static long long reduce(cs_proc *p, const bench *b, int it, long long value)
{
  const cs_ts_list *l = &b->s->phase[CS_TS_REDUCE][cs_rank(p)];
  int tag = tag_of(it, CS_TS_REDUCE);
  for (int k = 0; k < l->n;) {
    if (l->cmd[k].kind == CS_TS_SEND) {
      send_value(p, b, l->cmd[k].peer, tag, value);
      k++;
      continue;
    }
    int run = b->s->order == CS_TS_ARRIVAL_ORDER ? receive_run(l, k) : 1;
    for (int j = 0; j < run; j++) /* by arrival: any of the run's children, whichever comes first */
      value += take_value(p, run > 1 ? CS_ANY : l->cmd[k + j].peer, tag);
    k += run;
  }
  return value;
}

static long long bcast(cs_proc *p, const bench *b, int it, long long value)
{
  const cs_ts_list *l = &b->s->phase[CS_TS_BCAST][cs_rank(p)];
  int tag = tag_of(it, CS_TS_BCAST);
  for (int k = 0; k < l->n; k++) {
    if (l->cmd[k].kind == CS_TS_SEND)
      send_value(p, b, l->cmd[k].peer, tag, value);
    else
      value = take_value(p, l->cmd[k].peer, tag);
  }
  return value;
}

static void process_main(cs_proc *p, void *user)
{
  bench *b = user;
  int n = cs_size(p);
  for (int it = 0; it <= b->iterations; it++) {
    if (it == 1 && cs_rank(p) == 0)
      b->t_start = cs_now(p);
    long long v = bcast(p, b, it, reduce(p, b, it, it));
    if (v != (long long)it * n)
      b->wrong++;
  }
  if (cs_rank(p) == 0)
    b->t_end = cs_now(p);
  cs_serve(p);
}

static char *write_platform(const cs_smp_cluster *c, GError **err)
{
  char *path = NULL;
  int fd = g_file_open_tmp("collsim-smp-XXXXXX.xml", &path, err);
  if (fd < 0)
    return NULL;
  close(fd);
  if (!cs_smp_write_xml(c, path, err)) {
    unlink(path);
    g_free(path);
    return NULL;
  }
  return path;
}

bool cs_allreduce_run(const cs_smp_cluster *c, const cs_tree_script *s, int iterations, cs_engine_config *ec,
                      cs_allreduce_result *out, GError **err)
{
  memset(out, 0, sizeof *out);
  if (s->n > c->nodes * c->cores) {
    g_set_error(err, CS_INPUT_ERROR, 1, "n = %d is larger than the cluster: %d nodes x %d cores", s->n, c->nodes,
                c->cores);
    return false;
  }
  int *node_of = g_new(int, s->n);
  cs_smp_spread(c, s->n, node_of);
  char *platform = write_platform(c, err);
  bool ok = platform != NULL;
  bench b = {.s = s, .iterations = iterations, .msg_bytes = (int)c->header_bytes + 4};
  if (ok) {
    ec->platform_file = platform;
    ec->n = s->n;
    ec->cores = c->cores;
    ec->host_of = node_of;
    ec->o_send = cs_smp_o_send(c);
    ec->o_recv = cs_smp_o_recv(c);
    cs_proc *procs = g_new0(cs_proc, s->n);
    ok = cs_engine_run(ec, procs, process_main, &b, err);
    for (int r = 0; ok && r < s->n; r++)
      cs_proc_release(&procs[r]);
    g_free(procs);
    unlink(platform);
    g_free(platform);
  }
  if (ok) {
    out->sim_time_s = cs_engine_clock();
    out->us_per_allreduce = iterations > 0 ? (b.t_end - b.t_start) / iterations * 1e6 : 0;
    out->messages_per_allreduce = cs_ts_messages(s);
    out->internode_messages_per_allreduce = cs_ts_internode_messages(s, node_of);
    out->wrong_results = b.wrong;
    out->result_ok = b.wrong == 0 && cs_engine_retired() == s->n;
  }
  g_free(node_of);
  return ok;
}
