/* The group-map registry (seed 003, Figure 3's portfolio; Section 6's
 * "framework ... designed to allow the framework to be extended with more
 * representations"): one table of every representation, each defined in the
 * file named after it.  A row is the representation's cs_gm_rep (its name,
 * its one-line description and its entry points).  Adding a representation
 * is its file plus one line here.  The order of the rows is the order of
 * `collsim groupmap --list` and the tie-break order of the strategies.
 *
 * The permutation representation (WTR, Section 5.5) is not a row: it is
 * returned by cs_perm_rep_wtr() and composed with a row X as "wtr+X" by the
 * module core (groupmap.c).
 */
#include "sim/contracts/groupmap.h"

#include <string.h>

extern const cs_gm_rep cs_gm_rep_array;        /* array.c */
extern const cs_gm_rep cs_gm_rep_range_stride; /* range_stride.c */
extern const cs_gm_rep cs_gm_rep_bitmap;       /* bitmap.c */
extern const cs_gm_rep cs_gm_rep_bdd;          /* bdd.c */
extern const cs_gm_rep cs_gm_rep_bwt;          /* bwt.c */
extern const cs_gm_rep cs_gm_rep_elias_fano;   /* elias_fano.c */
extern const cs_gm_rep cs_gm_rep_roaring;      /* roaring.c */
extern const cs_perm_rep cs_perm_rep_wtr_impl; /* wtr.c */

/* The paper's representations first, then those beyond it. */
static const cs_gm_rep *const reps[] = {
    &cs_gm_rep_array,
    &cs_gm_rep_range_stride,
    &cs_gm_rep_bitmap,
    &cs_gm_rep_bdd,
    &cs_gm_rep_bwt,
    &cs_gm_rep_elias_fano,
    &cs_gm_rep_roaring,
};

size_t cs_gm_rep_count(void) { return sizeof reps / sizeof reps[0]; }

const cs_gm_rep *cs_gm_rep_at(size_t i) { return i < cs_gm_rep_count() ? reps[i] : NULL; }

const cs_gm_rep *cs_gm_rep_find(const char *name)
{
  for (size_t i = 0; name && i < cs_gm_rep_count(); i++)
    if (strcmp(reps[i]->name, name) == 0)
      return reps[i];
  return NULL;
}

const cs_perm_rep *cs_perm_rep_wtr(void) { return &cs_perm_rep_wtr_impl; }
