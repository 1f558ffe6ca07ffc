/* The SMPI side of bench/smpi/compare.sh: one collective, once, from
 * MPI_Init (every rank starts at simulated time 0, no barrier before it),
 * then every rank prints its MPI_Wtime() before and after it,
 *   rank=<r> start_s=<seconds> end_s=<seconds>
 * (compare.sh takes the largest end_s: the last rank's time).
 * Usage (under smpirun): coll COLL SIZE
 *   COLL  allgather | scatter | gather | bcast | reduce-scatter | reduce |
 *         allreduce | alltoall | barrier |
 *         scatter-mpich-p2p (MPICH's binomial scatter in MPI_Send/MPI_Recv) |
 *         alltoall-linear-p2p (the linear alltoall with one receive posted
 *         at a time, as collsim's schedule runs it)
 *   SIZE  bytes: per rank for allgather/scatter/gather/reduce-scatter, per
 *         pair of ranks for alltoall (what rank s sends rank d), the whole
 *         buffer for bcast/reduce/allreduce (collsim's --block and
 *         --bytes); ignored by barrier (give 0).
 * The algorithm is SMPI's, pinned by smpirun's --cfg=smpi/<coll>:<algo>.
 * Each rank allocates what its role needs (the root alone holds the p
 * blocks of a scatter or a gather); buffers of 64 KiB or more come from
 * SMPI_SHARED_MALLOC (one copy for all ranks: the content is garbage, the
 * timing is not affected), smaller ones from malloc, so that runs of
 * 131,072 ranks (bench/smpi/speed.sh) do not map two files per rank
 * (vm.max_map_count).  Reductions (reduce, allreduce, reduce-scatter)
 * use MPI_INT with MPI_SUM (SIZE / 4 elements); their computation is not timed when the run sets
 * smpi/simulate-computation:no (compare.sh does). */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
  fprintf(stderr, "usage: coll allgather|scatter|gather|bcast|reduce-scatter|reduce|allreduce|alltoall|barrier BYTES\n");
  MPI_Abort(MPI_COMM_WORLD, 2);
}

/* MPICH's binomial scatter from rank 0 (MPIR_Scatter_intra_binomial),
 * written with MPI_Send/MPI_Recv: the parent sends each child its
 * subtree's blocks, farthest child (largest subtree) first.  SMPI's only
 * binomial scatter, ompi_binomial, sends nearest child first; this lets
 * compare.sh tell the order's effect from the rest. */
static void scatter_mpich_p2p(char *buf, long block, int rank, int size)
{
  int mask = 1;
  while (mask < size) {
    if (rank & mask) {
      int blocks = size - rank < mask ? size - rank : mask;
      MPI_Recv(buf, (int)(blocks * block), MPI_BYTE, rank - mask, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rank + mask < size) {
      int blocks = size - rank - mask < mask ? size - rank - mask : mask;
      MPI_Send(buf, (int)(blocks * block), MPI_BYTE, rank + mask, 7, MPI_COMM_WORLD);
    }
}

/* The linear alltoall as collsim's schedule (linear_alltoall.c) runs it:
 * MPI_Send to rank-1, rank-2, ... (detached below 64 KiB), then MPI_Recv
 * from rank+1, rank+2, ..., each posted when the one before has completed.
 * SMPI's basic_linear posts every receive at once; this tells the
 * posting's effect from the rest. */
static void alltoall_linear_p2p(char *a, char *b, int n, int rank, int size)
{
  for (int i = 1; i < size; i++) {
    int to = (rank - i + size) % size;
    MPI_Send(a + (size_t)to * (size_t)n, n, MPI_BYTE, to, 8, MPI_COMM_WORLD);
  }
  for (int i = 1; i < size; i++) {
    int from = (rank + i) % size;
    MPI_Recv(b + (size_t)from * (size_t)n, n, MPI_BYTE, from, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

#define SHARED_FROM (64 * 1024)

/* A buffer of `bytes` (at least 1): shared from SHARED_FROM bytes on. */
static char *buffer_new(size_t bytes)
{
  if (bytes == 0)
    bytes = 1;
  return bytes >= SHARED_FROM ? SMPI_SHARED_MALLOC(bytes) : malloc(bytes);
}

static void buffer_free(char *buf, size_t bytes)
{
  if (bytes >= SHARED_FROM)
    SMPI_SHARED_FREE(buf);
  else
    free(buf);
}

/* Bytes of the send (a) and receive (b) buffers of `rank` for `coll`. */
static void buffer_sizes(const char *coll, size_t bytes, size_t size, int rank, size_t *a, size_t *b)
{
  size_t all = bytes * size;
  *a = *b = bytes;
  if (strcmp(coll, "allgather") == 0)
    *b = all;
  else if (strcmp(coll, "scatter") == 0)
    *a = rank == 0 ? all : 0;
  else if (strcmp(coll, "gather") == 0)
    *b = rank == 0 ? all : 0;
  else if (strcmp(coll, "reduce-scatter") == 0)
    *a = all;
  else if (strcmp(coll, "alltoall") == 0 || strcmp(coll, "alltoall-linear-p2p") == 0)
    *a = *b = all;
  else if (strcmp(coll, "barrier") == 0)
    *a = *b = 0;
  else if (strcmp(coll, "scatter-mpich-p2p") == 0) /* rank r > 0 gets at most its lowest set bit's blocks */
    *a = rank == 0 ? all : bytes * (size_t)(rank & -rank);
}

/* Run the collective `coll` over `bytes` (see the top of the file). */
static void run(const char *coll, long bytes, int size)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  size_t na, nb;
  buffer_sizes(coll, (size_t)bytes, (size_t)size, rank, &na, &nb);
  char *a = buffer_new(na);
  char *b = buffer_new(nb);
  int n = (int)bytes;
  if (strcmp(coll, "allgather") == 0)
    MPI_Allgather(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD);
  else if (strcmp(coll, "scatter") == 0)
    MPI_Scatter(a, n, MPI_BYTE, b, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (strcmp(coll, "scatter-mpich-p2p") == 0)
    scatter_mpich_p2p(a, bytes, rank, size);
  else if (strcmp(coll, "gather") == 0)
    MPI_Gather(a, n, MPI_BYTE, b, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (strcmp(coll, "bcast") == 0)
    MPI_Bcast(a, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (strcmp(coll, "reduce-scatter") == 0) {
    int *counts = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++)
      counts[i] = n / (int)sizeof(int);
    MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    free(counts);
  }
  else if (strcmp(coll, "reduce") == 0)
    MPI_Reduce(a, b, n / (int)sizeof(int), MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  else if (strcmp(coll, "allreduce") == 0)
    MPI_Allreduce(a, b, n / (int)sizeof(int), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  else if (strcmp(coll, "alltoall") == 0)
    MPI_Alltoall(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD);
  else if (strcmp(coll, "alltoall-linear-p2p") == 0)
    alltoall_linear_p2p(a, b, n, rank, size);
  else if (strcmp(coll, "barrier") == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  else
    usage();
  buffer_free(a, na);
  buffer_free(b, nb);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3)
    usage();
  double start = MPI_Wtime();
  run(argv[1], atol(argv[2]), size);
  /* No message after the collective: one would share links with the
   * collective's last messages (an MPI_Reduce of the times slowed the last
   * rank by up to 0.5 % on a fat tree). */
  printf("rank=%d start_s=%.9e end_s=%.9e\n", rank, start, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
