/* Append-only arrays that live in memory or on disk.
 *
 * The GOAL reader (goal.c) builds its graph with these: rank by rank, each
 * array only grows at its end, and the whole is read after the last rank.
 * In memory an array is one buffer grown by doubling; ON DISK it is written
 * through a 1 MiB buffer to a temporary file (in g_get_tmp_dir(), unlinked
 * at once, so nothing is left behind whatever happens) and mapped when
 * finished, so that the operating system keeps in memory only the pages in
 * use: a schedule larger than memory is then not held in memory whole.
 * A finished array is readable and writable (a shared map of the private
 * file: writes go to the file, never to the input). */
#ifndef COLLSIM_BIGARRAY_H
#define COLLSIM_BIGARRAY_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cs_bigarray cs_bigarray;

/* An empty array of elem-byte elements, in memory or on disk.  NULL with
 * err when the temporary file cannot be made. */
cs_bigarray *cs_bigarray_new(size_t elem, bool on_disk, GError **err);
/* Appends count elements (count * elem bytes from v; v NULL: zeros).
 * False with err when the file cannot be written (a full disk). */
bool cs_bigarray_append(cs_bigarray *a, const void *v, uint64_t count, GError **err);
uint64_t cs_bigarray_len(const cs_bigarray *a);
bool cs_bigarray_on_disk(const cs_bigarray *a);
/* Every element, in order (NULL for an empty array); no append after it.
 * False with err when the file cannot be written or mapped. */
bool cs_bigarray_finish(cs_bigarray *a, void **data, GError **err);
/* Frees the array and its data (the memory, or the map and the file). */
void cs_bigarray_free(cs_bigarray *a);

#endif
