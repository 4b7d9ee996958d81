# parking_lot.tcl -- the ns-2.35 run that diffsweep's standard builder `parking_lot` is set
# beside (python/diffsweep/scenario/parking_lot.py; docs/model.md, "The standard parking lot").
#
# Usage:
#   ns parking_lot.tcl <aqm> <K> <n_long> <n_cross> <seed> [dur_s] [warm_s] [tcp] [out_prefix]
#     aqm        : DropTail or RED (every bottleneck's queue, with ns-2.35's defaults)
#     K          : bottlenecks in the chain, 1..4 (link k from router k to router k+1)
#     n_long     : TCP flows crossing all K links (router 0 to router K)
#     n_cross    : TCP flows on each link k (entering at router k, leaving at router k+1)
#     seed       : 1,2,... selects substream <seed> of the two RNGs below
#     dur_s      : simulated seconds (default 60); warm_s: measured from here (default 10)
#     tcp        : Newreno (default) or Reno
#     out_prefix : write <prefix>.run (one CSV line) and <prefix>.hdr; else print both
#   PL_OVERHEAD=s in the environment sets every agent's overhead_ (a send delayed U(0, s));
#   PL_LINK_MS=ms every bottleneck's delay (10 ms unless set; the phase check, README.md), or
#   ms0,ms1,... one per link (run.sh's primary cells: 10 ms + U(0, a packet time) per link and
#   seed, phase_delays.py)
#
# Topology (each a duplex-link; one-way delays; A = 20 ms, the builder's access_delay_ms):
#
#   long i : s_i --100 Mb/s, A-- r0 ==L0==> r1 ==L1==> ... ==L(K-1)==> rK --100 Mb/s, A-- d_i
#   cross j on link k: c_kj --100 Mb/s, A-- r_k ==Lk==> r_k+1 --100 Mb/s, A-- e_kj
#
#   Every Lk: 10 Mb/s, 10 ms (PL_LINK_MS), <aqm>. Two-way propagation delay: long 2 (2A + K x 10 ms),
#   cross 2 (2A + 10 ms) = 100 ms. Every queue keeps ns-2.35's default limit_ 50; nothing but
#   the defaults is set on the queues (RED configures itself from each link: red.cc).
#
# Traffic: per flow Agent/TCP/<tcp> -> Agent/TCPSink with ns-2.35's defaults (packetSize_
#   1000, window_ 20, windowInit_ 2, syn_ and delay_growth_ true, bugFix_, singledup_ 1, ...),
#   a backlogged Application/FTP starting at U(0, 1) s. ACKs return over the same duplex
#   links (uncongested: no data flows the other way).
#
# Randomness: $defaultRNG (base seed 12345, substream <seed>) drives RED's drops; startrng
#   (base seed 24680, substream <seed>) draws the start times.
#
# Measures over [warm, dur]:
#   goodput per flow = TCPSink bytes_ difference / 1040 segments x 1000 B (payload)
#   per link k: its flow monitor (arrivals, drops, bytes departed, and the packets waiting,
#   integrated over time: the one being transmitted is not in an ns-2 queue)

if {$argc < 5} {
    puts stderr "usage: ns parking_lot.tcl aqm K n_long n_cross seed ?dur? ?warm? ?tcp? ?out_prefix?"
    exit 1
}
set AQM   [lindex $argv 0]
set K     [lindex $argv 1]
set NL    [lindex $argv 2]
set NC    [lindex $argv 3]
set seed  [lindex $argv 4]
set dur   [expr {$argc > 5 ? [lindex $argv 5] : 60.0}]
set warm  [expr {$argc > 6 ? [lindex $argv 6] : 10.0}]
set TCP   [expr {$argc > 7 ? [lindex $argv 7] : "Newreno"}]
set opfx  [expr {$argc > 8 ? [lindex $argv 8] : ""}]
if {$AQM != "DropTail" && $AQM != "RED"} { puts stderr "aqm must be DropTail or RED"; exit 1 }
if {$K < 1 || $K > 4} { puts stderr "K must be in 1..4"; exit 1 }
set MAXK 4
source [file join [file dirname [info script]] .. ns2_common.tcl]

set LINK_BPS 10e6
# PL_LINK_MS=ms or ms0,ms1,...: the bottlenecks' delays (ns-2's phase effects shift with them)
set LINK_MS  [expr {[info exists ::env(PL_LINK_MS)] ? $::env(PL_LINK_MS) : 10.0}]
set lms [split $LINK_MS ,]
for {set k 0} {$k < $K} {incr k} {
    set link_ms($k) [lindex $lms [expr {[llength $lms] == 1 ? 0 : $k}]]
    if {$link_ms($k) == ""} { puts stderr "PL_LINK_MS: one delay or one per link ($K)"; exit 1 }
}
# the CSV's link_ms: the one delay, or the links' joined by /
if {[llength $lms] > 1} { set LINK_MS [join [lrange $lms 0 [expr {$K - 1}]] /] }
set ACC_MS   20.0
set PAY  [Agent/TCP set packetSize_]
set WIRE [expr {$PAY + [Agent/TCP set tcpip_base_hdr_size_]}]

set startrng [seed_rngs $seed]

set ns [new Simulator]
for {set k 0} {$k <= $K} {incr k} { set r($k) [$ns node] }
for {set k 0} {$k < $K} {incr k} {
    $ns duplex-link $r($k) $r([expr {$k + 1}]) 10Mb $link_ms($k)ms $AQM
}

# flows in the builder's order: the long ones, then link 0's cross flows, link 1's, ...
set NF 0
proc add_flow {from to} {
    global ns NF ACC_MS TCP startrng tcp sink
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $from 100Mb ${ACC_MS}ms DropTail
    $ns duplex-link $to $d 100Mb ${ACC_MS}ms DropTail
    # PL_OVERHEAD=seconds (gap check, as dumbbell.tcl's DB_OVERHEAD): every send delayed
    # U(0, s) (ns-2's overhead_), so that packets reaching a queue at the same instant do so
    # in a random order
    set ts [backlogged_flow $ns $s $d $TCP [expr {$NF + 1}] $startrng PL_OVERHEAD]
    set tcp($NF) [lindex $ts 0]
    set sink($NF) [lindex $ts 1]
    incr NF
}
for {set i 0} {$i < $NL} {incr i} { add_flow $r(0) $r($K) }
for {set k 0} {$k < $K} {incr k} {
    for {set j 0} {$j < $NC} {incr j} { add_flow $r($k) $r([expr {$k + 1}]) }
}

for {set k 0} {$k < $K} {incr k} {
    set lk [$ns link $r($k) $r([expr {$k + 1}])]
    set m [link_monitor $ns $lk $AQM]
    set fmon($k) [lindex $m 0]
    set qint($k) [lindex $m 1]
    set qB($k) [$lk queue]
}

# PL_TRACE=file (diagnosis, README.md "Why the drop-tail cells still disagree"): ns-2's queue
# trace of link 1 (enqueues +, dequeues -, drops d, with their times)
if {[info exists ::env(PL_TRACE)] && $K > 1} {
    $ns trace-queue $r(1) $r(2) [open $::env(PL_TRACE) w]
}

proc snap {} {
    global NF K tcp sink fmon qint ns
    set by {}; set sent 0; set to 0
    for {set i 0} {$i < $NF} {incr i} {
        lappend by [$sink($i) set bytes_]
        set sent [expr {$sent + [$tcp($i) set ndatapack_]}]
        set to   [expr {$to + [$tcp($i) set nrexmit_]}]
    }
    set links {}
    set now [$ns now]
    for {set k 0} {$k < $K} {incr k} {
        set arr 0; set dr 0
        foreach fl [$fmon($k) flows] {
            set arr [expr {$arr + [$fl set parrivals_]}]
            set dr  [expr {$dr + [$fl set pdrops_]}]
        }
        set q [integral_now $qint($k) $now]
        lappend links [list $arr $dr $q [$fmon($k) set bdepartures_]]
    }
    return [list $by $sent $to $links]
}
$ns at $warm "set SW \[snap\]"

proc finish {} {
    global ns SW NF NL NC K MAXK AQM seed dur warm TCP opfx WIRE PAY LINK_BPS LINK_MS tcp
    set SE [snap]
    set T [expr {$dur - $warm}]
    foreach {byE sentE toE lkE} $SE break
    foreach {byW sentW toW lkW} $SW break
    set tot 0.0; set s2 0.0; set lsum 0.0; set csum 0.0
    for {set i 0} {$i < $NF} {incr i} {
        set g [expr {([lindex $byE $i] - [lindex $byW $i]) / double($WIRE) * $PAY * 8.0 / $T}]
        set tot [expr {$tot + $g}]; set s2 [expr {$s2 + $g * $g}]
        if {$i < $NL} { set lsum [expr {$lsum + $g}] } else { set csum [expr {$csum + $g}] }
    }
    set jain [expr {$s2 > 0 ? $tot * $tot / ($NF * $s2) : 0}]
    set sent [expr {$sentE - $sentW}]
    set line [list $AQM $K $NL $NC $seed $TCP [$tcp(0) set overhead_] $LINK_MS $dur $warm \
        [format %.5f [expr {$NL > 0 ? $lsum / $NL / 1e6 : 0}]] \
        [format %.5f [expr {$NC > 0 ? $csum / ($NC * $K) / 1e6 : 0}]] \
        [format %.5f [expr {$tot / 1e6}]] [format %.5f $jain] $sent [expr {$toE - $toW}]]
    set alldr 0
    set hl {}
    for {set k 0} {$k < $MAXK} {incr k} {
        if {$k < $K} {
            foreach {aE dE qE bE} [lindex $lkE $k] break
            foreach {aW dW qW bW} [lindex $lkW $k] break
            set arr [expr {$aE - $aW}]; set dr [expr {$dE - $dW}]
            set alldr [expr {$alldr + $dr}]
            lappend line $arr $dr [format %.6f [expr {$arr > 0 ? 100.0 * $dr / $arr : 0}]] \
                [format %.4f [expr {($qE - $qW) / $T}]] \
                [format %.5f [expr {($bE - $bW) * 8.0 / $T / $LINK_BPS}]]
        } else {
            lappend line {} {} {} {} {}
        }
        lappend hl arrivals_$k drops_$k drop_pct_$k mean_waiting_pkts_$k util_$k
    }
    lappend line [format %.6f [expr {$sent > 0 ? 100.0 * $alldr / $sent : 0}]]
    set hdr "aqm,n_links,n_long,n_cross,seed,tcp,overhead_s,link_ms,dur_s,warm_s,long_mbps,cross_mbps,total_mbps,jain,sent_pkts,timeouts,[join $hl ,],loss_pct"
    set line [join $line ,]
    write_run $opfx $hdr $line
    exit 0
}
$ns at $dur "finish"

# read after the links are made: red.cc's initialize_params has filled in the automatic values
# (thresh_ and maxthresh_ in mean-size packets, q_weight_); every link alike
foreach {dl ql} [defaults_text $tcp(0) $qB(0) $AQM] break
puts stderr "ns-[ns-version] parking_lot aqm=$AQM K=$K n_long=$NL n_cross=$NC seed=$seed tcp=[$tcp(0) info class] dur=$dur warm=$warm :: $dl :: every bottleneck [$qB(0) info class] $ql"
$ns run
