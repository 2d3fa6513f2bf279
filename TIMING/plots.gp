# plots.gp -- PNG figures of a timing survey, in the spirit of LAWN 73:
#   fig_tc.png, fig_ts.png           figures 4-11: T_c and T_s, every sample and
#                                    the least squares line of each library
#   fig_bcast_survey.png             figures 20-23: survey of broadcast topologies
#   fig_bcast_pred_ring.png,
#   fig_bcast_pred_best.png          figures 24-31: predicted (lines) against
#                                    measured (points) broadcast times
#   fig_comb_survey.png              figures 40-43: survey of sum combines
#   fig_comb_pred.png                figures 44-47: predicted against measured
#                                    maximum time, bidirectional exchange and 1-tree
# Usage: gnuplot -e "d='TIMING/out'" TIMING/plots.gp  (reads d/plotvars.gp and
# the d/*.dat files written by tanalyze -o d).
if (!exists("d")) d = "TIMING/out"
load d."/plotvars.gp"

set terminal pngcairo size 900,600 font "sans,10" noenhanced
set datafile missing "?"
set key top left box opaque
set grid
set xlabel "N (double precision elements)"
set ylabel "time (microseconds)"
dat(f) = d."/".f
fitline(stem, l, x) = value(stem."_".l."_a") + value(stem."_".l."_b") * x
ltitle(l) = l eq "mpi" ? "MPI primitive" : l eq "ours" ? "our BLACS" : "reference BLACS"
lcol(l) = l eq "mpi" ? 1 : l eq "ours" ? 2 : 3

if (strlen(tc_libs) > 0) {
  set output dat("fig_tc.png")
  set title "Tc, nearest neighbour echo test (half a round trip)"
  plot for [l in tc_libs] dat("tc_".l.".dat") using 1:2 with points pt 6 lc lcol(l) title ltitle(l), \
       for [l in tc_libs] fitline("tc", l, x) with lines lc lcol(l) lw 2 title ltitle(l)." least squares"
}
if (strlen(ts_libs) > 0) {
  set output dat("fig_ts.png")
  set title "Ts, time to post a send"
  plot for [l in ts_libs] dat("ts_".l.".dat") using 1:2 with points pt 6 lc lcol(l) title ltitle(l), \
       for [l in ts_libs] fitline("ts", l, x) with lines lc lcol(l) lw 2 title ltitle(l)." least squares"
}

if (bcast_survey_ncol > 1) {
  set output dat("fig_bcast_survey.png")
  set title sprintf("Survey of %d-process broadcast topologies (maximum time over processes)", np)
  plot for [i=2:bcast_survey_ncol] dat("bcast_survey.dat") using 1:i with linespoints lw (i == 2 ? 3 : 1) title columnhead(i)
}

predplot(f) = dat(f)
if (bcast_pred_ring_ok) {
  set output dat("fig_bcast_pred_ring.png")
  set title "Predicted vs. measured: ".bcast_pred_ring_title
  plot predplot("bcast_pred_ring.dat") using 1:2 with points pt 6 lc 1 title "measured maximum", \
       "" using 1:4 with lines lc 1 lw 2 title "predicted maximum", \
       "" using 1:($3 < 0 ? 1/0 : $3) with points pt 1 lc 2 title "measured source", \
       "" using 1:5 with lines lc 2 lw 2 dt 2 title "predicted source"
}
if (bcast_pred_best_ok) {
  set output dat("fig_bcast_pred_best.png")
  set title "Predicted vs. measured: ".bcast_pred_best_title
  plot predplot("bcast_pred_best.dat") using 1:2 with points pt 6 lc 1 title "measured maximum", \
       "" using 1:4 with lines lc 1 lw 2 title "predicted maximum", \
       "" using 1:($3 < 0 ? 1/0 : $3) with points pt 1 lc 2 title "measured source", \
       "" using 1:5 with lines lc 2 lw 2 dt 2 title "predicted source"
}

if (comb_survey_ncol > 1) {
  set output dat("fig_comb_survey.png")
  set title sprintf("Survey of %d-process sum combines, leave on all (maximum time)", np)
  plot for [i=2:comb_survey_ncol] dat("comb_survey.dat") using 1:i with linespoints lw (i == 2 ? 3 : 1) title columnhead(i)
}
if (comb_pred_h_ok || comb_pred_1_ok) {
  set output dat("fig_comb_pred.png")
  set title sprintf("Predicted vs. measured maximum time, %d-process sum combine (leave on all)", np)
  plot (comb_pred_h_ok ? dat("comb_pred_h.dat") : "/dev/null") using 1:2 with points pt 6 lc 1 title "bidirectional exchange 'H', measured", \
       "" using 1:4 with lines lc 1 lw 2 title "'H' predicted", \
       (comb_pred_1_ok ? dat("comb_pred_1.dat") : "/dev/null") using 1:2 with points pt 1 lc 2 title "1-tree '1', measured", \
       "" using 1:4 with lines lc 2 lw 2 dt 2 title "'1' predicted"
}
unset output
