/* strategies.c - the registry: one row per strategy (see strategy.h). */
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
  NULL,
};
