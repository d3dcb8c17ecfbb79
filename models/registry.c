/* registry.c - the network models users can name: one row per model (or
 * variant of a model) in `netmodel_registry` (models/model.h). Above every
 * model file, which never calls back here.
 */
#include <string.h>

#include "models/model.h"

extern const struct netmodel_ops netmodel_analytic_ops;
extern const struct netmodel_ops netmodel_flow_ops;
extern const struct netmodel_ops netmodel_flow_hd_ops;
extern const struct netmodel_ops netmodel_packet_ops;
extern const struct netmodel_ops netmodel_packet_vct_ops;
extern const struct netmodel_ops netmodel_packet_buf_ops;

const struct netmodel_ops *const netmodel_registry[] = {
  &netmodel_analytic_ops,
  &netmodel_flow_ops,
  &netmodel_flow_hd_ops,
  &netmodel_packet_ops,
  &netmodel_packet_vct_ops,
  &netmodel_packet_buf_ops,
  NULL,
};

const struct netmodel_ops *netmodel_find(const char *name)
{
  for (int i = 0; netmodel_registry[i]; i++)
    if (name && strcmp(netmodel_registry[i]->name, name) == 0)
      return netmodel_registry[i];
  return NULL;
}

char *netmodel_names(void)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; netmodel_registry[i]; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", netmodel_registry[i]->name);
  return g_string_free(s, FALSE);
}
