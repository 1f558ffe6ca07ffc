/* Section 3's space argument (seed 003) as a model: the memory of one
 * communicator that re-maps MPI_COMM_WORLD on a [C,P,M] system, with each
 * destination in ceil(lg N) bits, per proclet, per OS process, per machine
 * and in total, unshared (a map per proclet: O(N^2) in total) and shared
 * per OS process (Section 4: O(N x P x M)).  The paper's example: [1000,
 * 100, 10], 20 bits, 2.5 MB per proclet, 2.5 TB in total, 2.5 GB shared. */
#ifndef COLLSIM_COMM_SPACE_H
#define COLLSIM_COMM_SPACE_H

#include "sim/drivers/record.h"

#include <stdint.h>

cs_record *cs_space_model_record(const int64_t cpm[3]);
extern const cs_record_kind cs_space_record_kind;

#endif
