# collmark.gp -- CollMark ratios T_coll(n,p)/T_p2p(n) against n, one line
# per topology.  Data lines: SERIES N RATIO.
# gnuplot -e "dat='...'; out='...'; ttl='...'" collmark.gp
set terminal pngcairo size 1100,700 noenhanced
set output out
set title ttl . ": T_collective(n,p) / T_p2p(n)"
set xlabel "n (doubles)"
set ylabel "ratio"
set logscale xy
set key outside right
set grid
S = system("awk '{print $1}' " . dat . " | sort -u | tr '\n' ' '")
plot for [i=1:words(S)] dat u ($2):(strcol(1) eq word(S,i) ? $3 : NaN) w lp pt 7 ps 0.6 t word(S,i)
