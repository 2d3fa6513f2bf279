# fig7.gp -- LAWN 29 figure 7 from the simulation: predicted (left) and
# observed (right) time against n.  gnuplot -e "dat='...'; out='...'" fig7.gp
set terminal pngcairo size 1200,500 noenhanced
set output out
set multiplot layout 1,2
set xlabel "vector length n (single-precision items)"
set ylabel "time (ms)"
set key top left
set grid
set title "Predicted, 64 nodes, alpha 525 us, beta 2 us, gamma 0.35 us"
plot dat u 1:2 w lp t "Version 1 (TOP 1)", dat u 1:4 w lp t "Version 2 (H)", \
     dat u 1:6 w lp t "Version 3 (R)", dat u 1:8 w lp lw 2 t "hybrid (Y)"
set title "Observed (SimGrid SMPI, simulated iPSC/860)"
plot dat u 1:3 w lp t "Version 1 (TOP 1)", dat u 1:5 w lp t "Version 2 (H)", \
     dat u 1:7 w lp t "Version 3 (R)", dat u 1:9 w lp lw 2 t "hybrid (Y)"
unset multiplot
