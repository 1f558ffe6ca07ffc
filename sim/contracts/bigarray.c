/* Append-only arrays in memory or on disk (see bigarray.h). */
#include "sim/contracts/bigarray.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { WRITE_BUFFER = 1 << 20 };

struct cs_bigarray {
  size_t elem;
  uint64_t len;
  bool finished;
  /* in memory */
  char *mem;
  uint64_t cap;
  /* on disk */
  FILE *file;
  void *map;
  size_t map_bytes;
};

static bool io_error(GError **err, const char *what)
{
  int e = errno;
  g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "cannot %s the schedule's temporary file in %s: %s",
              what, g_get_tmp_dir(), g_strerror(e));
  return false;
}

cs_bigarray *cs_bigarray_new(size_t elem, bool on_disk, GError **err)
{
  cs_bigarray *a = g_new0(cs_bigarray, 1);
  a->elem = elem;
  if (!on_disk)
    return a;
  char *path = NULL;
  int fd = g_file_open_tmp("collsim-schedule-XXXXXX", &path, err);
  if (fd < 0) {
    g_free(a);
    return NULL;
  }
  g_unlink(path); /* the open descriptor keeps it until the array is freed */
  g_free(path);
  a->file = fdopen(fd, "w+");
  if (!a->file) {
    io_error(err, "open");
    close(fd);
    g_free(a);
    return NULL;
  }
  setvbuf(a->file, NULL, _IOFBF, WRITE_BUFFER);
  return a;
}

static void grow(cs_bigarray *a, uint64_t need)
{
  if (need <= a->cap)
    return;
  uint64_t cap = a->cap ? a->cap : 64;
  while (cap < need)
    cap *= 2;
  a->mem = g_realloc(a->mem, cap * a->elem);
  a->cap = cap;
}

bool cs_bigarray_append(cs_bigarray *a, const void *v, uint64_t count, GError **err)
{
  g_assert(!a->finished);
  if (count == 0)
    return true;
  size_t bytes = count * a->elem;
  if (!a->file) {
    grow(a, a->len + count);
    if (v)
      memcpy(a->mem + a->len * a->elem, v, bytes);
    else
      memset(a->mem + a->len * a->elem, 0, bytes);
  } else if (v) {
    if (fwrite(v, 1, bytes, a->file) != bytes)
      return io_error(err, "write");
  } else {
    static const char zeros[4096];
    for (size_t left = bytes; left > 0;) {
      size_t n = left < sizeof zeros ? left : sizeof zeros;
      if (fwrite(zeros, 1, n, a->file) != n)
        return io_error(err, "write");
      left -= n;
    }
  }
  a->len += count;
  return true;
}

uint64_t cs_bigarray_len(const cs_bigarray *a) { return a->len; }

bool cs_bigarray_on_disk(const cs_bigarray *a) { return a->file != NULL; }

bool cs_bigarray_finish(cs_bigarray *a, void **data, GError **err)
{
  a->finished = true;
  *data = NULL;
  if (!a->file) {
    *data = a->mem;
    return true;
  }
  if (fflush(a->file) != 0)
    return io_error(err, "write");
  if (a->len == 0)
    return true;
  a->map_bytes = a->len * a->elem;
  a->map = mmap(NULL, a->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fileno(a->file), 0);
  if (a->map == MAP_FAILED) {
    a->map = NULL;
    return io_error(err, "map");
  }
  *data = a->map;
  return true;
}

void cs_bigarray_free(cs_bigarray *a)
{
  if (!a)
    return;
  if (a->map)
    munmap(a->map, a->map_bytes);
  if (a->file)
    fclose(a->file);
  g_free(a->mem);
  g_free(a);
}
