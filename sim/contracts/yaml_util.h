/* Small helpers over libyaml's document API, shared by the YAML readers
 * (experiment files, tree scripts). */
#ifndef COLLSIM_YAML_UTIL_H
#define COLLSIM_YAML_UTIL_H

#include <yaml.h>

/* 1-based line of a node (0 when there is none). */
static inline int cs_yaml_line(const yaml_node_t *node) { return node ? (int)node->start_mark.line + 1 : 0; }

/* "a scalar", "a list", "a mapping", for messages. */
static inline const char *cs_yaml_type_name(const yaml_node_t *node)
{
  switch (node->type) {
  case YAML_SCALAR_NODE: return "a scalar";
  case YAML_SEQUENCE_NODE: return "a list";
  case YAML_MAPPING_NODE: return "a mapping";
  default: return "nothing";
  }
}

static inline const char *cs_yaml_scalar(const yaml_node_t *node) { return (const char *)node->data.scalar.value; }

#endif
