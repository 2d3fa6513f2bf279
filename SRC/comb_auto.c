/*
 * comb_auto.c -- TOP 'A' for combines: the cheapest of the radix-2 tree,
 * the bidirectional exchange (leave-on-all), 'R', 'B' and 'Y' by their cost
 * models (the topology table's model column), evaluated with the machine
 * parameters of machine.c.  The choice depends only on (Np, bytes,
 * leave-on-all, coherence flag) and the environment, so every process of
 * the scope makes the same one without communicating.  All candidates
 * combine in a fixed order, so 'A' is repeatable.  The selection step
 * (topology.c) runs the letter chosen here.
 */
#include "comb.h"

double bi_comb_model(bi_model_fn f, const bi_machine *m, int np, double bytes, int param, int all)
{
    double one = 0, t = f(m, np, bytes, param, &one);
    return all ? t : one;
}

char bi_comb_choose(const bi_machine *m, int np, double bytes, int all, int coherent)
{
    static const char cand[] = {'1', 'H', 'Y', 'R', 'B'};
    char best = '1';
    double bt = 0;
    for (size_t i = 0; i < sizeof cand; i++) {
        if (cand[i] == 'H' && (!all || coherent)) continue; /* 'H' is the tree then */
        const bi_topo *t = bi_topo_find(cand[i]);
        double v = bi_comb_model(t->comb_model, m, np, bytes, 1, all);
        if (i == 0 || v < bt) best = cand[i], bt = v;
    }
    return best;
}

double bi_model_comb_auto(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    char t1 = bi_comb_choose(m, np, bytes, 0, 0), ta = bi_comb_choose(m, np, bytes, 1, 0);
    if (root) *root = bi_comb_model(bi_topo_find(t1)->comb_model, m, np, bytes, 1, 0);
    return bi_comb_model(bi_topo_find(ta)->comb_model, m, np, bytes, 1, 1);
}
