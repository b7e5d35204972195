# timeline.gp: the timeline plot of report/timeline.sh, from the files
# mmreport --timeline writes. gnuplot -e "dir='DIR'; out='FILE.png'" (or
# .svg). Top: one row per task (the longest holders), a box per lock hold
# (colour = lock kind and mode, length = hold, and taller the longer), its wait before it as a thin
# line, a red triangle where the task was switched out holding a lock,
# grey ticks at the preemption points it took, and below the row its mmu_gather
# stretches between those points (black). Bottom: every hold of the trace,
# time x log2(hold), colour = how many. Time runs from the trace's first
# event, whose trace timestamp (span.txt's second word) the axes name.
ext = out[strlen(out)-2:]
if (ext eq 'png') { set terminal pngcairo size 1400,900 font 'sans,10' } else { set terminal svg size 1400,900 font 'sans,10' }
set output out
set linetype 1 lc rgb '#4e79a7'
set linetype 2 lc rgb '#1b3d6d'
set linetype 3 lc rgb '#f28e2b'
set linetype 4 lc rgb '#a34f00'
# a hold's box: as long as the hold, and taller the longer it is (log2 of
# its ns from 256 ns to 1 s), so that a long hold stands out even where
# a thousand short ones crowd the row
hh(d) = (d <= 0 ? 0.04 : 0.04 + 0.30 * ((l = log(d * 1e9) / log(2)) < 8 ? 0 : l > 30 ? 1 : (l - 8) / 22.0))
span = real(word(system("cat " . dir . "/span.txt"), 1))
first = word(system("cat " . dir . "/span.txt"), 2)
nrows = int(system("wc -l < " . dir . "/rows.txt"))
set multiplot title system("cat " . dir . "/summary.txt") font ',10'
# both panels on one time axis: the same margins, keys and colour box outside them
set lmargin at screen 0.09
set rmargin at screen 0.76
# --- the timeline
set tmargin at screen 0.90
set bmargin at screen 0.42
set xrange [0:span]
set yrange [0.4:nrows + 0.6]
set ytics () font ',9'
do for [i=1:nrows] { set ytics add (system("sed -n " . i . "p " . dir . "/rows.txt | cut -d' ' -f2") i) }
set xlabel sprintf('time (s) since the first event, at %s s in the trace', first)
set ylabel 'task (comm-pid), longest hold or stretch on top'
set grid xtics lc rgb '#dddddd'
set key at screen 0.995, screen 0.90 right top vertical font ',9' samplen 2 spacing 1.1 title "lock held: kind, mode\n(length = hold, taller = longer)"
set style fill solid 0.9 border
plot \
  dir.'/holds.dat' u (($2+$3)/2):1:(($3-$2)/2):(hh($3-$2)):($4+1) w boxxyerror lc variable notitle, \
  1/0 w boxes lt 1 fs solid t 'anon\_vma read', \
  1/0 w boxes lt 2 fs solid t 'anon\_vma write', \
  1/0 w boxes lt 3 fs solid t 'i\_mmap read', \
  1/0 w boxes lt 4 fs solid t 'i\_mmap write', \
  dir.'/waits.dat' u 2:($1+0.36):($3-$2):(0) w vectors nohead lw 1.5 lc rgb '#d62728' t 'waited for the lock', \
  dir.'/stretches.dat' u (($2+$3)/2):($1-0.4):(($3-$2)/2):(0.06) w boxxyerror lc rgb '#000000' t 'mmu\_gather stretch (no preemption point)', \
  dir.'/points.dat' u 2:($1-0.4) w points pt 2 ps 0.5 lc rgb '#888888' t 'preemption point taken', \
  dir.'/switches.dat' u 2:($1+0.42) w points pt 11 ps 1.2 lc rgb '#d62728' t 'switched out holding a lock'
# --- the heat map
set tmargin at screen 0.33
set bmargin at screen 0.06
set colorbox user origin screen 0.78, screen 0.06 size screen 0.015, screen 0.27
unset grid
set key off
set yrange [7.5:30.5]
set ytics ('256 ns' 8, '1 us' 10, '4 us' 12, '16 us' 14, '65 us' 16, '262 us' 18, '1 ms' 20, '4 ms' 22, '17 ms' 24, '67 ms' 26, '268 ms' 28, '1 s' 30) font ',9'
set ylabel 'hold length (log2 buckets)'
set xlabel sprintf('time (s) since the first event, at %s s in the trace: every hold of every task', first)
set logscale cb
set cblabel 'holds'
set palette defined (0 '#fff5eb', 1 '#fd8d3c', 2 '#d94801', 3 '#7f2704')
plot dir.'/heat.dat' u 1:2:3 w image
unset multiplot
