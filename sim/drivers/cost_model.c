/* Tables 1 and 2 of seed 001, as printed in the paper. */
#include "sim/drivers/cost_model.h"

#include <string.h>

cs_cost_family cs_cost_family_of(const cs_coll_algo *a)
{
  return strncmp(a->name, "two-tier", 8) == 0 ? CS_COST_TWO_TIER : CS_COST_BASE;
}

static double base_cost(cs_coll coll, double p, double n, double beta, double gamma)
{
  double f = (p - 1) / p;
  switch (coll) {
  case CS_COLL_BCAST:
    return 2 * f * n * beta;
  case CS_COLL_REDUCE_SCATTER:
    return f * (n * beta + n * gamma);
  case CS_COLL_REDUCE:
    return f * (2 * n * beta + n * gamma);
  default: /* scatter, gather, allgather */
    return f * n * beta;
  }
}

static double two_tier_cost(cs_coll coll, double sn, double nps, double n, double beta, double gamma)
{
  switch (coll) {
  case CS_COLL_SCATTER:
  case CS_COLL_GATHER:
    return n * beta * (1 / nps > 1 / sn ? 1 / nps : 1 / sn);
  case CS_COLL_ALLGATHER:
    return n * beta * (1 / nps + 1 / sn + 1 / (sn * nps));
  case CS_COLL_BCAST:
    return n * beta * 3 / nps;
  case CS_COLL_REDUCE_SCATTER:
    return n * beta * (1 / nps + 1 / sn + 1 / (sn * nps)) + 2 * n * gamma;
  default: /* reduce */
    return n * beta * (1 / nps + 2 / sn) + 2 * n * gamma;
  }
}

double cs_cost_model(cs_coll coll, cs_cost_family fam, const cs_two_tier *net, double n, double beta, double gamma)
{
  if (fam == CS_COST_TWO_TIER)
    return two_tier_cost(coll, (double)net->sn, (double)net->nps, n, beta, gamma);
  return base_cost(coll, (double)net->p, n, beta, gamma);
}

const char *cs_cost_formula(cs_coll coll, cs_cost_family fam)
{
  static const char *const base[CS_NCOLLS] = {
      "(p-1)/p*n*beta", "(p-1)/p*n*beta", "2*(p-1)/p*n*beta", "(p-1)/p*n*beta",
      "(p-1)/p*(n*beta + n*gamma)", "(p-1)/p*(2*n*beta + n*gamma)"};
  static const char *const two[CS_NCOLLS] = {
      "n*beta*max(1/nps, 1/sn)", "n*beta*max(1/nps, 1/sn)", "n*beta*3/nps",
      "n*beta*(1/nps + 1/sn + 1/(sn*nps))", "n*beta*(1/nps + 1/sn + 1/(sn*nps)) + 2*n*gamma",
      "n*beta*(1/nps + 2/sn) + 2*n*gamma"};
  return fam == CS_COST_TWO_TIER ? two[coll] : base[coll];
}
