/* Clusters of SMP nodes on a switched Ethernet (seed 002, Section 5): m nodes
 * of c processors, one 100 Mbit/s full-duplex link from each node to a
 * non-blocking switch, messages between processes of one node through shared
 * memory.  Processes are spread evenly over the nodes as LAM-MPI did: rank r
 * on node r mod m (so rank 0 is on node 0, and with n = m*c every node holds
 * c ranks).
 *
 * Timing model (one calibration for all clusters, see smp_cluster.c):
 *   - every message costs the sending process o_send and the receiving
 *     process o_recv of CPU time, each `cycles` / clock rate: the three
 *     clusters differ only by their processors' clock;
 *   - between nodes: the wire latency plus the bytes at 100 Mbit/s, the
 *     node's link shared by its processes;
 *   - inside a node: shared-memory latency, no network.
 * Spec (--cluster): NODESxCORES (e.g. 8x4) or a preset name: 2w (16 x 2-way
 * Pentium III 450 MHz), 4w (8 x 4-way Pentium Pro 166 MHz), 8w (4 x 8-way
 * Pentium Pro 200 MHz); NODESxCORES equal to a preset's shape takes that
 * preset's processor, any other shape needs @MHZ (e.g. 6x4@300). */
#ifndef COLLSIM_SMP_CLUSTER_H
#define COLLSIM_SMP_CLUSTER_H

#include <glib.h>
#include <stdbool.h>

typedef struct cs_smp_cluster {
  char name[32];      /* "4w", or "6x4@300" */
  const char *cpu;    /* e.g. "Pentium Pro 166 MHz" */
  int nodes, cores;
  double mhz;
  double net_bw;      /* bytes/s per direction of a node's link */
  double net_lat;     /* s, node to node */
  double shm_bw;      /* bytes/s inside a node */
  double shm_lat;     /* s */
  double cycles_send; /* CPU cycles per message sent */
  double cycles_recv; /* CPU cycles per message received */
  double header_bytes;/* bytes added to every message on the wire (envelope, TCP/IP, Ethernet) */
} cs_smp_cluster;

#define CS_SMP_ERROR (cs_smp_error_quark())
GQuark cs_smp_error_quark(void);

bool cs_smp_parse(const char *spec, cs_smp_cluster *out, GError **err);
double cs_smp_o_send(const cs_smp_cluster *c); /* seconds */
double cs_smp_o_recv(const cs_smp_cluster *c);
/* node_of[r] for r < n (n <= nodes * cores). */
void cs_smp_spread(const cs_smp_cluster *c, int n, int *node_of);
/* SimGrid XML, hosts node-0 .. node-<m-1>, written atomically. */
bool cs_smp_write_xml(const cs_smp_cluster *c, const char *path, GError **err);

#endif
