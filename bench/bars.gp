# gnuplot -e "in='X.dat'; out='X'; ttl='...'; ylab='...'; logy=0" bars.gp
# The bar chart of one bench table (bench/plots.sh writes X.dat): the first
# line names the series ("label" and one name per value column), then one
# line per bar group: a label without spaces and its values. Writes X.png
# and X.svg.
set datafile commentschars '#'
set datafile missing '-'
set termoption noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set xtics rotate by -30 nomirror
set bmargin 9
set ylabel ylab
set title ttl
set key outside top center horizontal box autotitle columnheader
if (logy) { set logscale y 10 } else { set yrange [*:*]; set xzeroaxis lt -1 }
ncol = int(system("awk 'NR == 1 { print NF; exit }' ".in))
do for [fmt in 'svg png'] {
  if (fmt eq 'svg') { set terminal svg size 1000,600 dynamic noenhanced background rgb 'white' }
  else { set terminal png size 1000,600 noenhanced background rgb 'white' }
  set output out.'.'.fmt
  plot for [c = 2:ncol] in using c:xtic(1)
}
