/* The space model of Section 3 (see comm_space.h).  Bytes are 10^6 per MB
 * as the paper's arithmetic uses them (2.5e6 bytes = "2.5 MBytes"). */
#include "sim/drivers/comm_space.h"

#include <math.h>

enum {
  S_OP, S_CPM, S_N, S_BITS, S_PER_PROCLET, S_UNSHARED_PROCESS, S_UNSHARED_MACHINE, S_UNSHARED_TOTAL,
  S_SHARED_PROCESS, S_SHARED_MACHINE, S_SHARED_TOTAL,
};

static const cs_column columns[] = {
    [S_OP] = {"op", CS_COL_TEXT, NULL, "", NULL, CS_COL_KEY, "the operation: space"},
    [S_CPM] = {"cpm", CS_COL_INTS, NULL, "", NULL, CS_COL_KEY,
               "proclets per OS process, OS processes per machine, machines"},
    [S_N] = {"n", CS_COL_NUM, "%.0f", "proclets", NULL, CS_COL_KEY, "proclets in the world"},
    [S_BITS] = {"bits_per_rank", CS_COL_NUM, "%.0f", "bits", NULL, 0, "bits of one destination: ceil(lg n)"},
    [S_PER_PROCLET] = {"map_bytes_per_proclet", CS_COL_NUM, "%.0f", "bytes", NULL, 0,
                       "one communicator's map re-mapping the world"},
    [S_UNSHARED_PROCESS] = {"unshared_bytes_per_process", CS_COL_NUM, "%.0f", "bytes", NULL, 0,
                            "a map per proclet: per OS process"},
    [S_UNSHARED_MACHINE] = {"unshared_bytes_per_machine", CS_COL_NUM, "%.0f", "bytes", NULL, 0,
                            "a map per proclet: per machine"},
    [S_UNSHARED_TOTAL] = {"unshared_bytes_total", CS_COL_NUM, "%.0f", "bytes", NULL, 0, "a map per proclet: in total"},
    [S_SHARED_PROCESS] = {"shared_bytes_per_process", CS_COL_NUM, "%.0f", "bytes", NULL, 0,
                          "a map per OS process: per OS process"},
    [S_SHARED_MACHINE] = {"shared_bytes_per_machine", CS_COL_NUM, "%.0f", "bytes", NULL, 0,
                          "a map per OS process: per machine"},
    [S_SHARED_TOTAL] = {"shared_bytes_total", CS_COL_NUM, "%.0f", "bytes", NULL, 0, "a map per OS process: in total"},
};

const cs_record_kind cs_space_record_kind = {"comm space", "Section 3's space model (bytes are 10^6 per MB)", columns,
                                             G_N_ELEMENTS(columns), NULL};

cs_record *cs_space_model_record(const int64_t cpm[3])
{
  double c = (double)cpm[0], p = (double)cpm[1], m = (double)cpm[2], n = c * p * m;
  double bits = n > 1 ? ceil(log2(n)) : 1;
  double per_proclet = n * bits / 8;
  cs_record *r = cs_record_new();
  cs_col_str(r, &columns[S_OP], "space");
  cs_col_i64_list(r, &columns[S_CPM], cpm, 3);
  cs_col_num(r, &columns[S_N], n);
  cs_col_num(r, &columns[S_BITS], bits);
  cs_col_num(r, &columns[S_PER_PROCLET], per_proclet);
  cs_col_num(r, &columns[S_UNSHARED_PROCESS], per_proclet * c);
  cs_col_num(r, &columns[S_UNSHARED_MACHINE], per_proclet * c * p);
  cs_col_num(r, &columns[S_UNSHARED_TOTAL], per_proclet * n);
  cs_col_num(r, &columns[S_SHARED_PROCESS], per_proclet);
  cs_col_num(r, &columns[S_SHARED_MACHINE], per_proclet * p);
  cs_col_num(r, &columns[S_SHARED_TOTAL], per_proclet * p * m);
  return r;
}
