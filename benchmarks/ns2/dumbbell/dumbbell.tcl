# dumbbell.tcl -- the ns-2.35 run that diffsweep's standard builder `dumbbell` is set beside
# (python/diffsweep/scenario/dumbbell.py; docs/model.md, "The standard dumbbell").
#
# Usage:
#   ns dumbbell.tcl <aqm> <nflows> <rtt_ms> <seed> [dur_s] [warm_s] [tcp] [out_prefix]
#     aqm        : DropTail or RED (the bottleneck's queue, with ns-2.35's defaults)
#     nflows     : TCP flows
#     rtt_ms     : every flow's two-way propagation delay, or lo-hi (e.g. 20-100): flow i
#                  at lo + i (hi - lo) / (nflows - 1), as the builder's rtt_min_ms/rtt_max_ms
#     seed       : 1,2,... selects substream <seed> of the two RNGs below
#     dur_s      : simulated seconds (default 60); warm_s: measured from here (default 10)
#     tcp        : Newreno (default) or Reno
#     out_prefix : write <prefix>.run (one CSV line) and <prefix>.hdr; else print both
#
# Topology (each a duplex-link; one-way delays; A_i = (rtt_i/2 - 10 ms)/2):
#
#   s_i --100 Mb/s, A_i ms, DropTail-- r1 ==10 Mb/s, 10 ms, <aqm>==> r2 --100 Mb/s, A_i ms-- d_i
#
#   Two-way propagation delay of flow i: 2 (A_i + 10 + A_i) = rtt_i. Every queue keeps
#   ns-2.35's default limit_ 50. Nothing but the defaults is set on the queues: RED's
#   thresh_ 0 / maxthresh_ 0 / q_weight_ -1 make red.cc configure itself from the link
#   (printed to stderr below, with the TCP defaults in force).
#
# Traffic: per flow Agent/TCP/<tcp> -> Agent/TCPSink with ns-2.35's defaults (packetSize_
#   1000, window_ 20, windowInit_ 2, syn_ and delay_growth_ true, bugFix_, singledup_ 1, ...),
#   a backlogged Application/FTP starting at U(0, 1) s.
#
# Randomness: $defaultRNG (base seed 12345, substream <seed>) drives RED's drops; startrng
#   (base seed 24680, substream <seed>) draws the start times.
#
# Measures over [warm, dur]:
#   goodput per flow = TCPSink bytes_ difference / 1040 segments x 1000 B (payload)
#   sent, retransmitted packets, timeouts: the agents' ndatapack_, nrexmitpack_, nrexmit_
#   bottleneck: its flow monitor (arrivals, drops, early drops, bytes departed, and the packets
#   waiting, integrated over time: the one being transmitted is not in an ns-2 queue)

if {$argc < 4} {
    puts stderr "usage: ns dumbbell.tcl aqm nflows rtt_ms seed ?dur? ?warm? ?tcp? ?out_prefix?"
    exit 1
}
set AQM   [lindex $argv 0]
set NF    [lindex $argv 1]
set RTT   [lindex $argv 2]
set seed  [lindex $argv 3]
set dur   [expr {$argc > 4 ? [lindex $argv 4] : 60.0}]
set warm  [expr {$argc > 5 ? [lindex $argv 5] : 10.0}]
set TCP   [expr {$argc > 6 ? [lindex $argv 6] : "Newreno"}]
set opfx  [expr {$argc > 7 ? [lindex $argv 7] : ""}]
if {$AQM != "DropTail" && $AQM != "RED"} { puts stderr "aqm must be DropTail or RED"; exit 1 }
source [file join [file dirname [info script]] .. ns2_common.tcl]

set BNECK_BPS 10e6
set BNECK_MS  10.0
set PAY  [Agent/TCP set packetSize_]
set WIRE [expr {$PAY + [Agent/TCP set tcpip_base_hdr_size_]}]

if {[string first "-" $RTT] > 0} {
    foreach {lo hi} [split $RTT -] break
} else {
    set lo $RTT; set hi $RTT
}
for {set i 0} {$i < $NF} {incr i} {
    set rtt($i) [expr {$NF > 1 ? $lo + $i * ($hi - $lo) / double($NF - 1) : double($lo)}]
    set acc($i) [expr {($rtt($i) / 2.0 - $BNECK_MS) / 2.0}]
    if {$acc($i) < 0} { puts stderr "rtt_ms must be >= [expr {4 * $BNECK_MS / 2}]"; exit 1 }
}

set startrng [seed_rngs $seed]

set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 10Mb ${BNECK_MS}ms $AQM
for {set i 0} {$i < $NF} {incr i} {
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 100Mb $acc($i)ms DropTail
    $ns duplex-link $r2 $d($i) 100Mb $acc($i)ms DropTail
}
set qB [[$ns link $r1 $r2] queue]

for {set i 0} {$i < $NF} {incr i} {
    # DB_OVERHEAD=seconds (gap check): every send delayed U(0, s) (ns-2's overhead_), so that
    # packets reaching the bottleneck at the same instant do so in a random order
    set ts [backlogged_flow $ns $s($i) $d($i) $TCP [expr {$i + 1}] $startrng DB_OVERHEAD]
    set tcp($i) [lindex $ts 0]
    set sink($i) [lindex $ts 1]
}

foreach {fmon qint} [link_monitor $ns [$ns link $r1 $r2] $AQM] break

proc snap {} {
    global NF tcp sink fmon qint ns
    set by {}; set sent 0; set rx 0; set to 0
    for {set i 0} {$i < $NF} {incr i} {
        lappend by [$sink($i) set bytes_]
        set sent [expr {$sent + [$tcp($i) set ndatapack_]}]
        set rx   [expr {$rx + [$tcp($i) set nrexmitpack_]}]
        set to   [expr {$to + [$tcp($i) set nrexmit_]}]
    }
    set arr 0; set dr 0; set edr 0
    foreach fl [$fmon flows] {
        set arr [expr {$arr + [$fl set parrivals_]}]
        set dr  [expr {$dr + [$fl set pdrops_]}]
        set edr [expr {$edr + [$fl set epdrops_]}]
    }
    set qsum [integral_now $qint [$ns now]]
    return [list $by $sent $rx $to $arr $dr $edr $qsum [$fmon set bdepartures_]]
}
$ns at $warm "set SW \[snap\]"

proc finish {} {
    global ns SW NF AQM RTT seed dur warm TCP opfx WIRE PAY BNECK_BPS tcp
    set SE [snap]
    set T [expr {$dur - $warm}]
    foreach {byE sentE rxE toE arrE drE edrE qE depE} $SE break
    foreach {byW sentW rxW toW arrW drW edrW qW depW} $SW break
    set tot 0.0; set s2 0.0; set gmin -1; set gmax 0
    for {set i 0} {$i < $NF} {incr i} {
        set g [expr {([lindex $byE $i] - [lindex $byW $i]) / double($WIRE) * $PAY * 8.0 / $T}]
        set tot [expr {$tot + $g}]; set s2 [expr {$s2 + $g * $g}]
        if {$gmin < 0 || $g < $gmin} { set gmin $g }
        if {$g > $gmax} { set gmax $g }
    }
    set jain [expr {$s2 > 0 ? $tot * $tot / ($NF * $s2) : 0}]
    set mm [expr {$gmax > 0 ? $gmin / $gmax : 0}]
    set sent [expr {$sentE - $sentW}]
    set drops [expr {$drE - $drW}]
    set line [join [list $AQM $NF $RTT $seed $TCP [$tcp(0) set overhead_] $dur $warm \
        [format %.5f [expr {$tot / 1e6}]] [format %.5f $jain] [format %.5f $mm] $sent \
        [expr {$rxE - $rxW}] [expr {$toE - $toW}] [expr {$arrE - $arrW}] $drops \
        [expr {$edrE - $edrW}] \
        [format %.6f [expr {$sent > 0 ? 100.0 * $drops / $sent : 0}]] \
        [format %.4f [expr {($qE - $qW) / $T}]] \
        [format %.5f [expr {($depE - $depW) * 8.0 / $T / $BNECK_BPS}]]] ,]
    set hdr "aqm,n_flows,rtt_ms,seed,tcp,overhead_s,dur_s,warm_s,total_mbps,jain,min_max,sent_pkts,rexmit_pkts,timeouts,bneck_arrivals,bneck_drops,bneck_edrops,loss_pct,mean_waiting_pkts,bneck_util"
    write_run $opfx $hdr $line
    exit 0
}
$ns at $dur "finish"

# read after the link is made: red.cc's initialize_params has filled in the automatic values
# (thresh_ and maxthresh_ in mean-size packets, q_weight_)
foreach {dl ql} [defaults_text $tcp(0) $qB $AQM] break
puts stderr "ns-[ns-version] dumbbell aqm=$AQM nflows=$NF rtt_ms=$RTT seed=$seed tcp=[$tcp(0) info class] dur=$dur warm=$warm :: $dl :: bottleneck [$qB info class] $ql"
$ns run
