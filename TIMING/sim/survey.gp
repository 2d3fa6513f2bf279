# survey.gp -- one LAWN 73 survey: observed (lines) and predicted (dashed)
# time against N per topology.  Data lines: SERIES N OBS_MS PRED_MS.
# gnuplot -e "dat='...'; out='...'; ttl='...'" survey.gp
set terminal pngcairo size 1000,650 noenhanced
set output out
set title ttl . ": observed (solid) and predicted (dashed)"
set xlabel "N (doubles)"
set ylabel "time (ms)"
set key outside right
set grid
S = system("awk '{print $1}' " . dat . " | sort -u | tr '\n' ' '")
plot for [i=1:words(S)] dat u ($2):(strcol(1) eq word(S,i) ? $3 : NaN) w lp lc i pt 7 ps 0.6 t word(S,i), \
     for [i=1:words(S)] dat u ($2):(strcol(1) eq word(S,i) ? $4 : NaN) w l lc i dt 2 notitle
