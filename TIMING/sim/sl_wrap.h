/* sl_wrap.h -- the BLACS time accounting of TIMING/sim/sl_wrap.c */
#ifndef SL_WRAP_H
#define SL_WRAP_H
void sl_wrap_reset(void);
void sl_wrap_dump(const char *path);
/* non-zero while a BLACS communication routine runs (its wrapper's count) */
extern int sl_in_blacs;
#endif
