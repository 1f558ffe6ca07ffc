/* Natural order of names: "node-9" < "node-10".  SimGrid lists hosts and
 * links by name; the engine numbers them in this order (rank r runs on the
 * r-th host of it), and the platform file check (platforms/xml_validate.c)
 * must pick the same hosts, so both use this one comparison. */
#ifndef COLLSIM_NATURAL_ORDER_H
#define COLLSIM_NATURAL_ORDER_H

/* < 0, 0 or > 0 as x sorts before, with or after y: runs of digits compare
 * by value (the same value with more leading zeros after), other
 * characters by byte. */
int cs_natural_cmp(const char *x, const char *y);

#endif
