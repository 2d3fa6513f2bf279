/*
 * bcast_auto.c -- TOP 'A' (ours): the broadcast the cost models of the
 * topology table predict to be fastest (slowest process), on the default
 * machine (machine.c).  The choice depends on (Np, bytes) and the
 * environment only, so every process of the scope makes the same one
 * (Watts 15.1: hybrid selection by the models).  Candidates: every BLACS
 * broadcast whose parameter is fixed by its letter (not ' ', 'M', 'T');
 * ties go to the earlier table entry.  The selection step (topology.c)
 * runs the broadcast chosen here.
 */
#include "topo_algs.h"
#include "model.h"

const bi_topo *bi_bcast_choose(int np, double bytes, int *param)
{
    const bi_machine *m = bi_machine_default();
    const bi_topo *best = NULL;
    double tbest = 0;
    for (int i = 0; i < bi_ntopos; i++) {
        const bi_topo *c = &bi_topos[i];
        if (!c->bcast || !c->bcast_model || c->bcast == bi_topo_auto ||
            c->bcast == bi_bcast_mpi || c->top == 'M' || c->top == 'T')
            continue;
        int p = bi_bcast_param(c, NULL, np);
        double v = c->bcast_model(m, np, bytes, p, NULL);
        if (!best || v < tbest) {
            best = c;
            tbest = v;
            *param = p;
        }
    }
    return best;
}

/* the model of the algorithm 'A' picks (on the default machine), on machine m */
double bi_model_bcast_auto(const bi_machine *m, int np, double bytes, int param, double *root)
{
    const bi_topo *b = bi_bcast_choose(np, bytes, &param);
    return b->bcast_model(m, np, bytes, param, root);
}
