/* Verification of a constructed tree (on by default for every run). */
#ifndef COLLSIM_VERIFY_H
#define COLLSIM_VERIFY_H

#include <glib.h>
#include <stdint.h>

/* What every process reported.  color[r] is the colour rank r should have
 * (-1: not a member); reported_member / reported_color what it says. */
typedef struct cs_tree_view {
  int n;
  int colors;
  const int32_t *color;
  const int8_t *reported_member;
  const int32_t *reported_color;
  const int32_t *parent;        /* -1 at a root */
  const int32_t *nchildren;
  int32_t *const *children;
} cs_tree_view;

/* Checks, per colour: the tree spans exactly the members, one root, every
 * vertex has at most k children, parent and child links agree, no cycle, and
 * (when require_min_height) the height is the minimal height of a k-ary tree
 * over that many vertices.  Returns TRUE when all hold; otherwise FALSE with
 * the first violation in *why.  *height gets the largest height (-1: no member). */
gboolean cs_verify_tree(const cs_tree_view *v, int k, gboolean require_min_height, int *height, GString *why);

#endif
