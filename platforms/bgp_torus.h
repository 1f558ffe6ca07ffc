/* BG/P-like 3D torus platforms as SimGrid XML (seed 000's machine, Intrepid). */
#ifndef COLLSIM_BGP_TORUS_H
#define COLLSIM_BGP_TORUS_H

#include <stdint.h>
#include <stdio.h>

typedef struct cs_bgp_params {
  int x, y, z;            /* torus shape in nodes */
  int cores;              /* cores (ranks) per node; rank r runs on node r / cores */
  double link_bw;         /* bytes/s per direction of one torus link */
  double link_lat;        /* seconds per hop */
  double loopback_bw;     /* bytes/s between two ranks of one node */
  double loopback_lat;    /* seconds */
  double core_speed;      /* flop/s of one core */
} cs_bgp_params;

/* BG/P defaults (sources in platforms/README). */
cs_bgp_params cs_bgp_defaults(void);

/* Parse "XxYxZ". Each dimension must be >= 2: SimGrid's TORUS declares the
 * same link twice for a ring of one node. Returns 0 on success. */
int cs_bgp_parse_shape(const char *s, int *x, int *y, int *z);

/* Smallest BG/P-style partition with at least `nodes` nodes: start at 2x2x2
 * and double the smallest dimension (the last one among equals), which gives
 * the real partitions 8x8x8, 8x8x16, 8x16x16, 16x16x16, ... 32x32x32. */
void cs_bgp_auto_shape(int64_t nodes, int *x, int *y, int *z);

/* Write the platform: one SimGrid TORUS cluster, hosts node-0 .. node-(XYZ-1),
 * node id = x + X*y + X*Y*z, dimension-order routing. Returns 0 or -1 (errno). */
int cs_bgp_write_xml(FILE *out, const cs_bgp_params *p);

#endif
