/* The parent group and who joins the new group(s) (seed 000, Sec. 6 set-up). */
#ifndef COLLSIM_GROUP_H
#define COLLSIM_GROUP_H

#include <glib.h>
#include <stdint.h>

typedef enum { CS_COLOR_MOD = 0, CS_COLOR_RANDOM = 1 } cs_color_rule;

typedef struct cs_group {
  int n;
  int colors;
  int32_t *color;       /* colour of each rank, -1 when it does not join */
  int64_t m;            /* members over all colours */
  int64_t *m_color;     /* members per colour */
} cs_group;

/* Rank r joins when u(seed, r, 0) < f.  Its colour: r mod colors (MOD), or
 * floor(u(seed, r, 1) * colors) (RANDOM). */
int cs_member_draw(uint64_t seed, int rank, double f);
int cs_color_draw(uint64_t seed, int rank, int colors, cs_color_rule rule);

cs_group *cs_group_draw(int n, double f, int colors, cs_color_rule rule, uint64_t seed);
/* Members listed in a file: ranks in [0, n), separated by white space or
 * commas, '#' starts a comment; duplicates are an error. */
cs_group *cs_group_from_file(const char *path, int n, int colors, cs_color_rule rule, uint64_t seed,
                             GError **err);
void cs_group_free(cs_group *g);

#endif
