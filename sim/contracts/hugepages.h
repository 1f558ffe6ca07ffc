/* Transparent huge pages for large runs.
 *
 * A run of a million ranks touches a gigabyte or more of memory allocated
 * in many small and large blocks; each 4 KiB page costs the kernel a fault
 * on first touch.  On this project's virtual machines a fault costs about
 * 15 us: a native dissemination barrier of 1,048,576 ranks spent 4.6 s of
 * its 11.9 s in the kernel (bench/engines.sh).  glibc's malloc asks for
 * transparent huge pages (2 MiB) when its tunable glibc.malloc.hugetlb=1
 * is set (glibc 2.35 and later), and then the same run takes 7.0 s
 * (0.8 s in the kernel).  The tunable is read when the process starts, so
 * a large run continues in a fresh image of itself with it set:
 * cs_hugepages_for(ranks) re-executes the program with the same arguments
 * and GLIBC_TUNABLES extended, once its size is known and before it has
 * printed or created anything but the folders of its output paths, which
 * it removes first (the new image makes them again, and removes them if
 * stopped: a fresh image does not know it made them).  Nothing in the
 * results depends on where
 * malloc places memory: the output is byte-identical either way.
 *
 * It does nothing when any of these holds: the run has fewer than
 * CS_HUGEPAGES_MIN_RANKS ranks (the new image costs a process start,
 * about 13 ms of CPU: sim/engine/sg_lazy.c); COLLSIM_HUGEPAGES=0 is set; GLIBC_TUNABLES already
 * names glibc.malloc.hugetlb (the user chose); the kernel's transparent
 * huge pages are "never"; glibc is older than 2.35; the program runs under
 * valgrind (whose tools would stop following it), or is built with the
 * sanitizers (whose allocator ignores the tunable), or only plans a sweep's
 * point (COLLSIM_PLAN); or a temporary
 * directory of the run exists already. */
#ifndef COLLSIM_HUGEPAGES_H
#define COLLSIM_HUGEPAGES_H

#include <stdbool.h>
#include <stdint.h>

#define CS_HUGEPAGES_MIN_RANKS 16384

/* Keeps main's argv (the new image gets the same arguments), and has
 * malloc take blocks below 32 MiB from its heap rather than from mmap
 * (hugepages.c says why). */
void cs_hugepages_init(char **argv);
/* A run of `ranks` ranks is about to start: re-executes the program with
 * huge pages when that is worthwhile (above); returns otherwise, also when
 * the exec fails (the run goes on without them).  before_exec (may be NULL)
 * undoes what this image made that the new one makes again (the folders of
 * its output paths: left in place, the new image would find them and not
 * remove them when stopped); after_failed_exec redoes it. */
void cs_hugepages_for(int64_t ranks, void (*before_exec)(void *), void (*after_failed_exec)(void *), void *arg);
/* Was this process's malloc asked for huge pages (GLIBC_TUNABLES)? */
bool cs_hugepages_asked(void);

#endif
