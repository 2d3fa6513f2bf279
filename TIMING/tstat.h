/*
 * tstat.h -- the statistics of LAWN 73's timing sections, shared by the
 * analysis tool (tanalyze.c) and its test (TESTING/t_timing_analyze.c).
 *
 *   least squares  T = alpha + beta N over every data point (3.3)
 *   data RE        max_i (max D_r(i) - min D_r(i)) / average D_r(i) * 100 over
 *                  the repeated data points D_r(i) (3.3, tables 5-7, 12, 16)
 *   prediction RE  max_i |T^o(i) - T^p(i)| / |T^o(i)| * 100 for broadcasts
 *                  (4.4.2, table 11), / |T^p(i)| for combines (5.5.2, table 15)
 * The N = 0 point is left out of both REs, as the paper did.
 */
#ifndef TSTAT_H
#define TSTAT_H
#include <math.h>
#include <stdlib.h>

typedef struct {
    double alpha, beta; /* T = alpha + beta * x */
    int n;              /* points used; 0: no fit */
} tfit;

/* ordinary least squares of y on x (n points) */
static inline tfit tstat_lsq(const double *x, const double *y, int n)
{
    tfit f = {0, 0, 0};
    if (n < 1) return f;
    double sx = 0, sy = 0;
    for (int i = 0; i < n; i++) sx += x[i], sy += y[i];
    double mx = sx / n, my = sy / n, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    f.beta = sxx > 0 ? sxy / sxx : 0;
    f.alpha = my - f.beta * mx;
    f.n = n;
    return f;
}

/* one data point: every sample taken at one N */
typedef struct {
    double n, mean, min, max;
    int cnt;
    double med; /* median of the samples (0 when not computed) */
} tpoint;

/* paper 3.3: the spread of the repeated points, in percent; points with a
 * single sample and N = 0 do not count; NAN when no point qualifies */
static inline double tstat_re_data(const tpoint *p, int np)
{
    double re = NAN;
    for (int i = 0; i < np; i++) {
        if (p[i].cnt < 2 || p[i].n <= 0 || p[i].mean == 0) continue;
        double r = (p[i].max - p[i].min) / fabs(p[i].mean) * 100.0;
        if (isnan(re) || r > re) re = r;
    }
    return re;
}

/* paper 4.4.2 (denominator observed, by_pred = 0) and 5.5.2 (denominator
 * predicted, by_pred = 1), in percent; N = 0 and zero denominators skipped;
 * NAN when no point qualifies */
static inline double tstat_re_pred(const double *N, const double *obs, const double *pred,
                                   int n, int by_pred)
{
    double re = NAN;
    for (int i = 0; i < n; i++) {
        double d = fabs(by_pred ? pred[i] : obs[i]);
        if (N[i] <= 0 || d == 0 || isnan(obs[i]) || isnan(pred[i])) continue;
        double r = fabs(obs[i] - pred[i]) / d * 100.0;
        if (isnan(re) || r > re) re = r;
    }
    return re;
}

/* geometric mean of the positive ratios a[i]/b[i]; NAN if none */
static inline double tstat_geomean_ratio(const double *a, const double *b, int n)
{
    double s = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (a[i] > 0 && b[i] > 0) s += log(a[i] / b[i]), k++;
    return k ? exp(s / k) : NAN;
}

#endif
