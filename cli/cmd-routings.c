/* cmd-routings.c - `mapsim routings`: every routing of every topology
 * family with its one-line summary, printed from the families' routing
 * rows (routing/family/family.h), the one source the --routing help and
 * the shorthand help are generated from too. */
#include <stdio.h>

#include "cli/cli.h"
#include "routing/family/family.h"

/* "adaptive, seeded": what a row's flags say, for the listing */
static void flag_text(unsigned flags, char *buf, size_t size)
{
  g_snprintf(buf, size, "%s%s%s%s", flags & ROUTE_FLAG_ALIAS ? "alias" : "",
             flags & ROUTE_FLAG_ADAPTIVE ? "adaptive" : "",
             (flags & ROUTE_FLAG_ADAPTIVE) && (flags & ROUTE_FLAG_KEYED) ? ", " : "",
             flags & ROUTE_FLAG_SEEDED ? "seeded" : flags & ROUTE_FLAG_KEYED ? "keyed" : "");
}

int cmd_routings(int argc, char **argv)
{
  cli_common c;
  if (!cli_parse(&argc, &argv, "routings", "",
                 "Lists the routings of every topology family: family, name, kind (adaptive: "
                 "the model chooses among paths by load; seeded, keyed: a path per rank pair; "
                 "alias: another name of the family's own), summary.",
                 "Choose one with --routing NAME, [routing] algorithm = NAME or :routing=NAME.\n\n"
                 "Example:\n  mapsim routings\n"
                 "  mapsim simulate --platform dragonfly:g=9:a=4:p=2:h=2 --routing ugal "
                 "--trace traces/data/cg-16",
                 0, &c, NULL))
    return 2;
  if (argc > 1) {
    fprintf(stderr, "mapsim: routings: unexpected argument '%s', expected none\n", argv[1]);
    return 2;
  }
  printf("%-10s %-14s %-16s %s\n", "family", "routing", "kind", "summary");
  for (int i = 0; i < family_count(); i++) {
    const family_ops *f = family_at(i);
    for (int r = 0; r < f->nroutings; r++) {
      const family_routing *row = &f->routings[r];
      char kind[32];
      flag_text(row->flags, kind, sizeof kind);
      printf("%-10s %-14s %-16s %s\n", f->name, row->name, *kind ? kind : "-", row->summary);
    }
  }
  return 0;
}
