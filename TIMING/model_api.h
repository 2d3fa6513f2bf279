/*
 * model_api.h -- the few internal functions of the library that TIMING's
 * analysis tool (tanalyze.c) and machine timer (tmachine.c) call.  They
 * are hidden in libblacs.so, so these programs link the static library.
 * The four timers never include this: they use the public interface only,
 * so that they can be linked against the reference BLACS as well.
 *
 *   bi_topos, bi_ntopos, bi_topo_find  the topology table (SRC/topology.c):
 *                                      TOP letter -> algorithms and cost models
 *   bi_bcast_param, bi_comb_param      the rings/branches a letter means (topology.c)
 *   bi_bcast_choose, bi_comb_choose    what TOP 'A' picks (topology.c)
 *   bi_model_*                         the cost models (SRC/model_bcast.c, model_comb.c)
 *   bi_machine_default                 the machine the models are fed (SRC/machine.c)
 *   bi_op_setup                        the element operation of a combine (SRC/ops.c)
 */
#ifndef MODEL_API_H
#define MODEL_API_H
#include "topology.h" /* the table, parameters, 'A'; model.h (machine, models); core.h (bi_op) */

#endif
