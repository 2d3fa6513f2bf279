/*
 * model_api.h -- the few internal functions of the library that TIMING's
 * analysis tool (tanalyze.c) and machine timer (tmachine.c) call.  They
 * are hidden in libblacs.so, so these programs link the static library.
 * The four timers never include this: they use the public interface only,
 * so that they can be linked against the reference BLACS as well.
 *
 *   bi_topos, bi_ntopos, bi_topo_find  the topology table (SRC/topology.c):
 *                                      TOP letter -> algorithms and cost models
 *   bi_bcast_param, bi_comb_param      the rings/branches a letter means
 *   bi_op_setup                        the element operation of a combine (SRC/ops.c)
 *   bi_bcast_choose, bi_comb_choose    what TOP 'A' picks (SRC/bcast_auto.c, comb_auto.c)
 *   bi_machine_default                 the machine the models are fed (SRC/machine.c)
 */
#ifndef MODEL_API_H
#define MODEL_API_H
#include "bi.h"    /* bi_machine, bi_lin, bi_topo, bi_model_fn, bi_op, BI_SUM, BI_D */
#include "model.h" /* bi_bcast_param, bi_comb_param, bi_op_setup, bi_machine_default */
#include "topo_algs.h" /* bi_bcast_choose, bi_comb_choose */

#endif
