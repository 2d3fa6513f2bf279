/*
 * machine.c -- default machine parameters for the cost models (LAWN 73 3.3:
 * T_c and T_s linear in the message length; slides: alpha, beta, gamma).
 * Used where no measurement is at hand: plans (the automatic topology 'A',
 * the segments of the pipelined ring 'P', the halvings of 'Y', when a
 * fan-in takes its contributions one at a time: bi_serial_bytes), from the
 * environment (settings.def; read once):
 *   BLACS_ALPHA        T_c(0), start-up of a complete communication, us   (2.0)
 *   BLACS_SEND_ALPHA   T_s(0), time to post a send, us                    (0.5)
 *   BLACS_POST_ALPHA   T_p, what posting a send costs when it is not waited
 *                      for (a source's sends posted together), us
 *                                                     (BLACS_SEND_ALPHA's)
 *   BLACS_BETA         us per byte sent (T_c and T_s)            (1e-4: 10 GB/s)
 *   BLACS_GAMMA        us per byte combined                      (2.5e-4)
 *   BLACS_MEMCPY_BETA  us per byte copied (T_m)                  (5e-5: 20 GB/s)
 * and, not a machine parameter but a bound the plans take from here:
 *   BLACS_SOURCE_WAIT  us a broadcast source may wait in all for its sends
 *                      to go out in order (transport.c), 0: never (10000)
 */
#include <math.h>
#include <stdlib.h>
#include "model.h"

const bi_machine *bi_machine_default(void)
{
    static bi_machine m;
    static int done;
    if (!done) {
        double beta = bi_env_num(BI_SET_BETA);
        m.tc = (bi_lin){bi_env_num(BI_SET_ALPHA), beta};
        m.ts = (bi_lin){bi_env_num(BI_SET_SEND_ALPHA), beta};
        m.tp = bi_env_num_or(BI_SET_POST_ALPHA, m.ts.a);
        m.to = (bi_lin){0.0, bi_env_num(BI_SET_GAMMA)};
        m.tm = (bi_lin){0.0, bi_env_num(BI_SET_MEMCPY_BETA)};
        done = 1;
    }
    return &m;
}

/* The length from which a fan-in (comb_tree.c) receives its children's
 * contributions one at a time rather than all at once.  Taken together,
 * they share the receiver's link and all arrive at the end, when combining
 * starts; one at a time, each is combined while the next one travels, and
 * the later ones wait what a complete communication costs beyond the send
 * overhead the models charge, T_c(0) - T_s(0).  So from
 * (T_c(0) - T_s(0)) / beta bytes on: always where a send costs as much as
 * a complete communication (SMPI with every message rendezvous), never on
 * an infinitely fast link.  Only the receiver's order changes: no sender
 * ever waits on this length (transport.c). */
double bi_serial_bytes(const bi_machine *m)
{
    double d = m->tc.a - m->ts.a;
    if (d <= 0) return 0;
    if (m->tc.b <= 0) return HUGE_VAL;
    return d / m->tc.b;
}

/* the settings of two plans, read once: the segment length of the
 * pipelined ring (model_bcast.c) and the short-vector bound of the hybrid
 * combine (model_comb.c) */
double bi_pipe_segment(void)
{
    static double seg = -1; /* BLACS_PIPE_SEGMENT: segment bytes, 0 = model */
    if (seg < 0) {
        seg = bi_env_num(BI_SET_PIPE_SEGMENT);
    }
    return seg;
}

double bi_source_wait(void)
{
    static double v = -1;
    if (v < 0) v = bi_env_num(BI_SET_SOURCE_WAIT);
    return v;
}

double bi_comb_nshort(void)
{
    static double v = -1;
    if (v < 0) {
        v = bi_env_num(BI_SET_COMB_NSHORT);
    }
    return v;
}
