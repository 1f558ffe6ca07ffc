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

/* Nesting deeper than any collsim file needs (libyaml's document loader
 * takes time quadratic in the depth: 5 s at 50,000 levels). */
#define CS_YAML_MAX_DEPTH 64

/* Scans the text's events (linear time) before it is loaded: 0 when the
 * nesting stays within max_depth (or the text has a syntax error, which the
 * loader reports), else the line where it goes deeper. */
static inline int cs_yaml_too_deep(const char *text, size_t len, int max_depth)
{
  yaml_parser_t parser;
  yaml_event_t ev;
  int depth = 0, line = 0;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  while (!line && yaml_parser_parse(&parser, &ev)) {
    yaml_event_type_t t = ev.type;
    if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
      if (++depth > max_depth)
        line = (int)ev.start_mark.line + 1;
    } else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) {
      depth--;
    }
    yaml_event_delete(&ev);
    if (t == YAML_STREAM_END_EVENT)
      break;
  }
  yaml_parser_delete(&parser);
  return line;
}

#endif
