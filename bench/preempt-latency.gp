# gnuplot -e "in='preempt-latency.dat'; out='preempt-latency'" preempt-latency.gp
# in: one row per work and model: "work/model max_us_points_on max_us_points_off"
set datafile commentschars '#'
set termoption noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set logscale y 10
set format y '%.0f'
set yrange [1:*]
set grid ytics
set xtics rotate by -30 nomirror
set ylabel 'worst wake-up latency, us of guest time (log scale)'
set xlabel 'work on the same CPU / preemption model'
set title "cyclictest (SCHED_FIFO, 1 ms) beside mm work on one CPU, icount: worst latency\nwith the series' preemption points in the mmu_gather (tlb_preempt_points) on and off"
set key outside top center horizontal box
do for [fmt in 'svg png'] {
  if (fmt eq 'svg') { set terminal svg size 1000,600 dynamic noenhanced background rgb 'white' }
  else { set terminal png size 1000,600 noenhanced background rgb 'white' }
  set output out.'.'.fmt
  plot in using 2:xtic(1) title 'preemption points on' linecolor rgb '#2c7bb6', \
       '' using 3 title 'preemption points off' linecolor rgb '#d7191c'
}
