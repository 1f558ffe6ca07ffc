/* Checks a user's SimGrid platform file before SimGrid sees it (SimGrid
 * aborts the process on much of what is wrong in one): well-formed XML,
 * every speed, bandwidth and latency a finite number with one of SimGrid's
 * units and in range, and a route between every two hosts a run uses.
 * Every refusal is one CS_INPUT_ERROR line "PATH: <element id=...>: problem".
 * Pure functions of the file's text (no SimGrid, no disk): the fuzz harness
 * tests/fuzz/fuzz_platform_xml.c feeds them bytes. */
#ifndef COLLSIM_XML_VALIDATE_H
#define COLLSIM_XML_VALIDATE_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

/* The hosts and routes of a platform file, as read. */
typedef struct cs_xml_platform cs_xml_platform;

/* Read and check the text (len bytes) of the platform file named path (the
 * name is only used in messages): its XML, its values, its host names.
 * NULL with err (CS_INPUT_ERROR) on the first problem. */
cs_xml_platform *cs_xml_platform_read(const char *path, const char *text, size_t len, GError **err);
void cs_xml_platform_free(cs_xml_platform *x);

/* Hosts, in the engine's order: natural order of their names (node-2
 * before node-10), as sim/engine/sg_engine.c places ranks on them. */
size_t cs_xml_platform_host_count(const cs_xml_platform *x);
const char *cs_xml_platform_host(const cs_xml_platform *x, size_t i);

/* Check that SimGrid finds a route each way between every two of the first
 * `used` hosts (all of them if used exceeds the count).  FALSE with err
 * (CS_INPUT_ERROR) naming the two hosts and the zone that lacks the route. */
bool cs_xml_platform_check_routes(cs_xml_platform *x, size_t used, GError **err);

/* The kinds of value SimGrid reads with units. */
typedef enum { CS_SG_SPEED, CS_SG_BANDWIDTH, CS_SG_TIME } cs_sg_quantity;

/* One value as SimGrid reads it (strtod, then a unit of its tables, none
 * meaning flops, bytes per second or seconds): *out in flops, bytes/s or
 * seconds.  FALSE with *why ("unknown unit 'Kf'", "not a number", "out of
 * range") when SimGrid would refuse the text; a finite result is not
 * implied (SimGrid reads "nan" and "inf"). */
bool cs_sg_parse_value(const char *text, cs_sg_quantity kind, double *out, const char **why);

#endif
