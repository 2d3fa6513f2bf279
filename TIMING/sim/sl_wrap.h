/* sl_wrap.h -- the BLACS time accounting of TIMING/sim/sl_wrap.c */
#ifndef SL_WRAP_H
#define SL_WRAP_H
void sl_wrap_reset(void);
void sl_wrap_dump(const char *path);
#endif
