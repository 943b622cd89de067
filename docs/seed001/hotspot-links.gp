set datafile separator ','
set terminal pngcairo size 1500,520 noenhanced
set output 'hotspot-links.png'
set multiplot layout 1,3 title 'seed 001 hot-spot, 8x8 torus: load of every link (arrows point downstream; hot region around router (5,5), sources on routers (0-3, 0-1))'
set size ratio -1
set xrange [-0.5:7.5]
set yrange [-0.5:7.5]
set xtics 1
set ytics 1
set palette defined (0 'light-grey', 0.3 'yellow', 0.7 'red', 1 'black')
set cbrange [0:1]
set title 'deterministic'
plot '../../experiments/seed001/results/hotspot-links-deterministic.csv' skip 1 using ($2 + ($4 == 0 ? 0.1 : -0.08) * $5):($3 + ($4 == 0 ? 0.08 : 0.1) * $5):($4 == 0 ? 0.8 * $5 : 0):($4 == 0 ? 0 : 0.8 * $5):7 with vectors head filled lw 3 lc palette notitle
set title 'IBA_CC'
plot '../../experiments/seed001/results/hotspot-links-IBA_CC.csv' skip 1 using ($2 + ($4 == 0 ? 0.1 : -0.08) * $5):($3 + ($4 == 0 ? 0.08 : 0.1) * $5):($4 == 0 ? 0.8 * $5 : 0):($4 == 0 ? 0 : 0.8 * $5):7 with vectors head filled lw 3 lc palette notitle
set title 'DRB'
plot '../../experiments/seed001/results/hotspot-links-DRB.csv' skip 1 using ($2 + ($4 == 0 ? 0.1 : -0.08) * $5):($3 + ($4 == 0 ? 0.08 : 0.1) * $5):($4 == 0 ? 0.8 * $5 : 0):($4 == 0 ? 0 : 0.8 * $5):7 with vectors head filled lw 3 lc palette notitle
unset multiplot
