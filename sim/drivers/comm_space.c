/* The space model of Section 3 (see comm_space.h).  Bytes are 10^6 per MB
 * as the paper's arithmetic uses them (2.5e6 bytes = "2.5 MBytes"). */
#include "sim/drivers/comm_space.h"

#include <math.h>

const char *const cs_space_csv_columns[] = {
    "op", "cpm", "n", "bits_per_rank", "map_bytes_per_proclet", "unshared_bytes_per_process",
    "unshared_bytes_per_machine", "unshared_bytes_total", "shared_bytes_per_process", "shared_bytes_per_machine",
    "shared_bytes_total", NULL};

cs_record *cs_space_model_record(const int64_t cpm[3])
{
  double c = (double)cpm[0], p = (double)cpm[1], m = (double)cpm[2], n = c * p * m;
  double bits = n > 1 ? ceil(log2(n)) : 1;
  double per_proclet = n * bits / 8;
  cs_record *r = cs_record_new();
  cs_rec_str(r, "op", "space");
  cs_rec_i64_list(r, "cpm", cpm, 3);
  cs_rec_num(r, "n", n, "%.0f");
  cs_rec_num(r, "bits_per_rank", bits, "%.0f");
  cs_rec_num(r, "map_bytes_per_proclet", per_proclet, "%.0f");
  cs_rec_num(r, "unshared_bytes_per_process", per_proclet * c, "%.0f");
  cs_rec_num(r, "unshared_bytes_per_machine", per_proclet * c * p, "%.0f");
  cs_rec_num(r, "unshared_bytes_total", per_proclet * n, "%.0f");
  cs_rec_num(r, "shared_bytes_per_process", per_proclet, "%.0f");
  cs_rec_num(r, "shared_bytes_per_machine", per_proclet * p, "%.0f");
  cs_rec_num(r, "shared_bytes_total", per_proclet * p * m, "%.0f");
  return r;
}
