/*
 * global.c -- the process-wide state every layer reads: the settings taken
 * from the environment and BLACS_SET (bi_g), and the record of the call in
 * progress (bi_cur), which errors and hang reports name, and of the last
 * one completed (bi_last: kept at BLACS_DEBUG=2 only, for the hang report).
 * It sits below every other file: each layer writes what it owns here and
 * reads the rest, so no lower layer has to call up into the one that owns
 * a value.
 */
#include "base.h"

struct bi_global bi_g = {.bufwait = 120.0};
bi_call bi_cur, bi_last;
atomic_int bi_inside;
atomic_uint bi_calls;

