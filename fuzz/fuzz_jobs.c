/* fuzz_jobs.c - jobs files (sim/jobs.c) loaded and their jobs placed
 * (node lists, the allocation policies of routing/alloc.c) on a 4x4x4
 * torus and a 72-node dragonfly, once with each job's own policy and once
 * with random-groups for all; every placement must hold each node once.
 * Nothing is replayed. */
#include "fuzz.h"
#include "sim/jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void place(const jobs_file *jf, const char *spec, const char *policy)
{
  platform *p = platform_load(spec, NULL);
  GError *e = NULL;
  jobs_placement *pl = p ? jobs_place(jf, p, policy, &e) : NULL;
  if (pl) {
    gboolean *seen = g_new0(gboolean, p->topo->nnodes);
    for (int j = 0; j < pl->njobs; j++)
      for (int i = 0; i < pl->nnodes[j]; i++) {
        int v = pl->nodes[j][i];
        if (v < 0 || v >= topo_compute_nodes(p->topo) || seen[v])
          abort();
        seen[v] = TRUE;
      }
    g_free(seen);
  }
  jobs_placement_free(pl);
  platform_free(p);
  g_clear_error(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *path = fuzz_file(data, size, "jobs.ini");
  GError *e = NULL;
  jobs_file *jf = jobs_load(path, &e);
  if (jf) {
    place(jf, "torus:4x4x4", NULL);
    place(jf, "dragonfly:g=9:a=4:p=2:h=2", NULL);
    place(jf, "dragonfly:g=9:a=4:p=2:h=2", "random-groups");
  }
  jobs_file_free(jf);
  g_clear_error(&e);
  g_free(path);
  return 0;
}
