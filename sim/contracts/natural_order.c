/* Natural order of names (see natural_order.h). */
#include "sim/contracts/natural_order.h"

#include <glib.h>
#include <stdlib.h>

int cs_natural_cmp(const char *x, const char *y)
{
  while (*x && *y) {
    if (g_ascii_isdigit(*x) && g_ascii_isdigit(*y)) {
      char *ex, *ey;
      unsigned long long vx = strtoull(x, &ex, 10), vy = strtoull(y, &ey, 10);
      if (vx != vy)
        return vx < vy ? -1 : 1;
      if (ex - x != ey - y) /* same value, more leading zeros last */
        return (ex - x) < (ey - y) ? -1 : 1;
      x = ex;
      y = ey;
    } else {
      if (*x != *y)
        return (unsigned char)*x - (unsigned char)*y;
      x++;
      y++;
    }
  }
  return (unsigned char)*x - (unsigned char)*y;
}
