/* registry.c - the registry: one row per strategy (see mapping/strategy.h). */
#include "mapping/strategy.h"

extern const strategy strategy_identity;
extern const strategy strategy_random;
extern const strategy strategy_scotch;
extern const strategy strategy_sweep;
extern const strategy strategy_scan;
extern const strategy strategy_morton;
extern const strategy strategy_peano;
extern const strategy strategy_gray;
extern const strategy strategy_hilbert;
extern const strategy strategy_greedy;
extern const strategy strategy_wh;
extern const strategy strategy_mc;
extern const strategy strategy_mmc;
extern const strategy strategy_kl;
extern const strategy strategy_geometric;
extern const strategy strategy_embed;
extern const strategy strategy_ml;
extern const strategy strategy_bokhari;
extern const strategy strategy_topo_aware;
extern const strategy strategy_greedy_hoefler;
extern const strategy strategy_fhgreedy;
extern const strategy strategy_greedy_allc;
extern const strategy strategy_bipartition;
extern const strategy strategy_pacmap;
extern const strategy strategy_mxovlp;
extern const strategy strategy_mxov_al;
extern const strategy strategy_exco;
extern const strategy strategy_coce;
extern const strategy strategy_affine;
extern const strategy strategy_step_embedding;
extern const strategy strategy_pairs;
extern const strategy strategy_stack;
extern const strategy strategy_fold;
extern const strategy strategy_bft;
extern const strategy strategy_mht;
extern const strategy strategy_coce_mht;
extern const strategy strategy_tabu;
extern const strategy strategy_replay;
extern const strategy strategy_portfolio;
extern const strategy strategy_hier;

const strategy *const strategy_registry[] = {
  &strategy_identity,
  &strategy_random,
  &strategy_scotch,
  &strategy_sweep,
  &strategy_scan,
  &strategy_morton,
  &strategy_peano,
  &strategy_gray,
  &strategy_hilbert,
  &strategy_greedy,
  &strategy_wh,
  &strategy_mc,
  &strategy_mmc,
  &strategy_kl,
  &strategy_geometric,
  &strategy_embed,
  &strategy_ml,
  &strategy_bokhari,
  &strategy_topo_aware,
  &strategy_greedy_hoefler,
  &strategy_fhgreedy,
  &strategy_greedy_allc,
  &strategy_bipartition,
  &strategy_pacmap,
  &strategy_mxovlp,
  &strategy_mxov_al,
  &strategy_exco,
  &strategy_coce,
  &strategy_affine,
  &strategy_step_embedding,
  &strategy_pairs,
  &strategy_stack,
  &strategy_fold,
  &strategy_bft,
  &strategy_mht,
  &strategy_coce_mht,
  &strategy_tabu,
  &strategy_replay,
  &strategy_portfolio,
  &strategy_hier,
  NULL,
};
