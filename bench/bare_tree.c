/* The engine's floor for bench/trees.sh: a bare SimGrid program, no collsim
 * layer, that runs ROUNDS rounds of (reduce + broadcast) of 8-byte messages
 * over the k-ary heap of N actors, with collsim's SimGrid settings, on the same
 * platform and mapping (rank r on host r / cores, hosts in natural name order).
 *   bare_tree PLATFORM.xml N K CORES ROUNDS [OVERHEAD_US]
 * With OVERHEAD_US, the sender sleeps that long before each send and the
 * receiver after each receive, as collsim models software overhead (--o-send,
 * --o-recv): the same model, without collsim's layer.
 * Prints: messages=M sim_time=T */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int N, K, ROUNDS;
static sg_mailbox_t *boxes;
static long long sent;
static long long payload = 1;
static double overhead_s;

static void receive(int r)
{
  sg_mailbox_get(boxes[r]);
  if (overhead_s > 0)
    sg_actor_sleep_for(overhead_s);
}

static sg_comm_t send_async(int to)
{
  if (overhead_s > 0)
    sg_actor_sleep_for(overhead_s);
  sent++;
  return sg_mailbox_put_async(boxes[to], &payload, 8);
}

static void reduce_and_broadcast(int r)
{
  long long first = (long long)K * r + 1;
  int nchildren = 0;
  for (long long c = first; c < first + K && c < N; c++)
    nchildren++;
  for (int i = 0; i < nchildren; i++)
    receive(r);
  if (r > 0) {
    sg_comm_wait(send_async((r - 1) / K));
    receive(r);
  }
  sg_comm_t comms[64];
  for (int i = 0; i < nchildren; i++)
    comms[i] = send_async((int)(first + i));
  if (nchildren)
    sg_comm_wait_all(comms, (size_t)nchildren);
}

static void actor(int argc, char **argv)
{
  (void)argc;
  int r = atoi(argv[0]);
  char name[24];
  snprintf(name, sizeof name, "m%d", r);
  sg_mailbox_set_receiver(name);
  for (int i = 0; i < ROUNDS; i++)
    reduce_and_broadcast(r);
}

static int by_name(const void *a, const void *b)
{
  const char *x = sg_host_get_name(*(const sg_host_t *)a), *y = sg_host_get_name(*(const sg_host_t *)b);
  size_t lx = strlen(x), ly = strlen(y);
  return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y); /* node-N: shorter number first */
}

int main(int argc, char **argv)
{
  if (argc != 6 && argc != 7) {
    fprintf(stderr, "usage: bare_tree PLATFORM.xml N K CORES ROUNDS [OVERHEAD_US]\n");
    return 2;
  }
  char *sg_argv[] = {argv[0], "--log=xbt_cfg.thres:warning", "--cfg=network/model:LV08",
                     "--cfg=network/crosstraffic:0", "--cfg=contexts/stack-size:16",
                     "--cfg=contexts/guard-size:0", NULL};
  int sg_argc = 6;
  simgrid_init(&sg_argc, sg_argv);
  simgrid_load_platform(argv[1]);
  N = atoi(argv[2]);
  K = atoi(argv[3]);
  int cores = atoi(argv[4]);
  ROUNDS = atoi(argv[5]);
  overhead_s = argc == 7 ? atof(argv[6]) * 1e-6 : 0;
  sg_host_t *hosts = sg_host_list();
  qsort(hosts, sg_host_count(), sizeof *hosts, by_name);
  boxes = malloc(sizeof *boxes * (size_t)N);
  char name[24];
  for (int r = 0; r < N; r++) {
    snprintf(name, sizeof name, "m%d", r);
    boxes[r] = sg_mailbox_by_name(name);
  }
  for (int r = 0; r < N; r++) {
    snprintf(name, sizeof name, "%d", r);
    char *args[] = {name, NULL};
    sg_actor_create(name, hosts[r / cores], actor, 1, args);
  }
  free(hosts);
  simgrid_run();
  printf("messages=%lld sim_time=%.9g\n", sent, simgrid_get_clock());
  free(boxes);
  return 0;
}
