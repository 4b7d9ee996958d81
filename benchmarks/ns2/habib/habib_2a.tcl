# habib_2a.tcl -- ns-2.35 reference run of the "standard conditioner" experiment of Habib,
# Bhargava & Fahmy, "A Round Trip Time and Time-out Aware Traffic Conditioner for
# Differentiated Services Networks" (Sec. IV, V.A, topology of Fig. 2(a)).
#
# Usage:
#   ns habib_2a.tcl <f2_rtt_ms> <seed> [dur_s] [cond] [warm_s] [nflows] [out_prefix]
#     f2_rtt_ms  : two-way propagation delay of aggregate F2 (F1 is fixed at 20 ms); >= 20
#     seed       : 1,2,... selects substream <seed> of the two RNGs below
#     dur_s      : simulated seconds (default 100)
#     cond       : tsw3cm (default) = standard conditioner (TSW rate estimator + TSW3CM)
#                  none            = every packet marked green (code point 10): the core is
#                                    plain RED with the DP0 parameters
#     warm_s     : start of the measurement window (default 20); measures are over [warm, dur]
#     nflows     : TCP micro-flows per aggregate (default 200, the paper's)
#     out_prefix : write <prefix>.run (one CSV line) and <prefix>.hdr (its header);
#                  otherwise print header and line to stdout
#
# Topology (every link a duplex pair; the forward direction listed; one-way delays):
#
#   n1 --100 Mb/s, 2.5 ms---- e1 ==100 Mb/s, 2.5 ms, dsRED/edge==+
#                                                               c ==10 Mb/s, 2.5 ms, dsRED/core==> d --100 Mb/s, 2.5 ms-- n3 (F1 sinks)
#   n2 --100 Mb/s, D2 ms----- e2 ==100 Mb/s, 2.5 ms, dsRED/edge==+                                    +--100 Mb/s, 2.5 ms-- n4 (F2 sinks)
#
#   D2 = f2_rtt_ms/2 - 7.5 ms  (2.5 ms at RTT 20, 42.5 ms at RTT 100, 92.5 ms at RTT 200).
#   Two-way propagation delay: F1 4 x 2 x 2.5 = 20 ms, F2 = f2_rtt_ms.
#   Reverse links (ACK direction): same rate and delay, DropTail.
#   Queue limits: c->d (the bottleneck) 100 packets; every other queue 20000 packets (more
#   than the 200 x 64 = 12800 packets one aggregate can have in flight), so that the
#   only place a packet can be lost is c->d (checked: drops_elsewhere column).
#
# Edge conditioner (Queue/dsRED/edge on e1->c and on e2->c, one per aggregate):
#   addPolicyEntry [$n1 id] [$n3 id] TSW3CM 10 2000000 3000000   (F1 at e1; F2: n2 -> n4 at e2)
#   addPolicerEntry TSW3CM 10 11 12
#   ns-2.35's addPolicyEntry takes no window argument for TSW3CM (only TSW2CM reads an optional
#   7th one), so the TSW window is ns-2's fixed winLen = 1.0 s. avgRate starts at CIR.
#   TSW meter (per packet, wire bytes): avgRate = (avgRate*winLen + size)/(now - tfront + winLen)
#   TSW3CM: r = avgRate*(1-U); r > PIR -> 12 (red, DP2); r > CIR -> 11 (yellow, DP1); else 10.
#   The edge queue is a plain large FIFO: one physical queue, 3 precedences, setMREDMode DROP.
#   cond none: addPolicyEntry ... Null 10 / addPolicerEntry Null 10 (everything green).
#
# Core (Queue/dsRED/core on c->d), exactly:
#   meanPktSize 1064; set numQueues_ 1; setNumPrec 3
#   addPHBEntry 10 0 0; addPHBEntry 11 0 1; addPHBEntry 12 0 2
#   setMREDMode RIO-C
#   configQ 0 0 40 55 0.02 0.002 ; configQ 0 1 25 40 0.05 0.002 ; configQ 0 2 10 25 0.1 0.002
#   queue-limit 100 packets
#
# Traffic: per aggregate nflows Agent/TCP/Newreno -> Agent/TCPSink, packetSize_ 1024 (ns-2
#   payload; 1064 B on the wire with the 40-B tcpip_base_hdr_size_), window_ 64, all else
#   ns-2.35 defaults; backlogged Application/FTP; start times U(0, 1) s. fid_ 1 = F1, 2 = F2.
#
# Randomness: $defaultRNG (base seed 12345, substream <seed>) drives ns-2's own draws (TSW3CM
#   marking, RED drops); startrng (base seed 24680, substream <seed>) draws the start times.
#
# Measures over [warm, dur] per aggregate:
#   goodput  = TCPSink bytes_ difference (bytes_ counts wire bytes, 1064 per in-order segment)
#              -> segments = bytes/1064 -> Mb/s of 1024-byte payloads (f*_mbps) and of wire
#              bytes (f*_wire_mbps)
#   marks    = edge dsRED getStat pkts for code points 10/11/12 (packets entering e->c)
#   drops    = per-fid flow monitor on c->d (pdrops_ = all, epdrops_ = early RED drops)
#   timeouts = sum of nrexmit_ (RTO expirations), rexmits = sum of nrexmitpack_,
#   sent     = sum of ndatapack_

if {$argc < 2} {
    puts stderr "usage: ns habib_2a.tcl f2_rtt_ms seed ?dur? ?cond? ?warm? ?nflows? ?out_prefix?"
    exit 1
}
set F2RTT [lindex $argv 0]
set seed  [lindex $argv 1]
set dur   [expr {$argc > 2 ? [lindex $argv 2] : 100.0}]
set cond  [expr {$argc > 3 ? [lindex $argv 3] : "tsw3cm"}]
set warm  [expr {$argc > 4 ? [lindex $argv 4] : 20.0}]
set NF    [expr {$argc > 5 ? [lindex $argv 5] : 200}]
set opfx  [expr {$argc > 6 ? [lindex $argv 6] : ""}]
if {$cond != "tsw3cm" && $cond != "none"} { puts stderr "cond must be tsw3cm or none"; exit 1 }

# ---------------------------------------------------------------- constants
set PAY     1024
set WIRE    [expr {$PAY + 40}]
set WIN     64
set CIR     2000000
set PIR     3000000
set BUF     100
set BIGQ    20000
set LD      2.5                              ;# ms, every link but n2-e2
set D2      [expr {$F2RTT / 2.0 - 3 * $LD}]  ;# ms, n2-e2
if {$D2 < 0} { puts stderr "f2_rtt_ms must be >= [expr {6 * $LD}]"; exit 1 }
set CP_G 10
set CP_Y 11
set CP_R 12

# ---------------------------------------------------------------- RNGs
global defaultRNG
$defaultRNG seed 12345
for {set i 1} {$i < $seed} {incr i} { $defaultRNG next-substream }
set startrng [new RNG]
$startrng seed 24680
for {set i 1} {$i < $seed} {incr i} { $startrng next-substream }

set ns [new Simulator]

# ---------------------------------------------------------------- topology
foreach n {n1 n2 e1 e2 c d n3 n4} { set $n [$ns node] }
$ns duplex-link $n1 $e1 100Mb ${LD}ms DropTail
$ns duplex-link $n2 $e2 100Mb ${D2}ms DropTail
$ns simplex-link $e1 $c 100Mb ${LD}ms dsRED/edge
$ns simplex-link $c $e1 100Mb ${LD}ms DropTail
$ns simplex-link $e2 $c 100Mb ${LD}ms dsRED/edge
$ns simplex-link $c $e2 100Mb ${LD}ms DropTail
$ns simplex-link $c $d 10Mb ${LD}ms dsRED/core
$ns simplex-link $d $c 10Mb ${LD}ms DropTail
$ns duplex-link $d $n3 100Mb ${LD}ms DropTail
$ns duplex-link $d $n4 100Mb ${LD}ms DropTail
foreach {a b} [list $n1 $e1 $e1 $n1 $n2 $e2 $e2 $n2 $e1 $c $c $e1 $e2 $c $c $e2 $d $c $d $n3 $n3 $d $d $n4 $n4 $d] {
    $ns queue-limit $a $b $BIGQ
}
$ns queue-limit $c $d $BUF

# ---------------------------------------------------------------- DiffServ
# Edges: e1 conditions F1 (n1 -> n3), e2 conditions F2 (n2 -> n4).
set qE(1) [[$ns link $e1 $c] queue]
set qE(2) [[$ns link $e2 $c] queue]
set src(1) $n1; set dst(1) $n3
set src(2) $n2; set dst(2) $n4
foreach a {1 2} {
    set q $qE($a)
    $q meanPktSize $WIRE
    $q set numQueues_ 1
    $q setNumPrec 3
    if {$cond == "tsw3cm"} {
        $q addPolicyEntry [$src($a) id] [$dst($a) id] TSW3CM $CP_G $CIR $PIR
        $q addPolicerEntry TSW3CM $CP_G $CP_Y $CP_R
    } else {
        $q addPolicyEntry [$src($a) id] [$dst($a) id] Null $CP_G
        $q addPolicerEntry Null $CP_G
    }
    foreach {cp prec} [list $CP_G 0 $CP_Y 1 $CP_R 2] { $q addPHBEntry $cp 0 $prec }
    $q setMREDMode DROP
    foreach prec {0 1 2} { $q configQ 0 $prec $BIGQ $BIGQ 0.1 }
}

# Core c->d: RIO-C, 3 precedences of one 100-packet physical queue.
set qC [[$ns link $c $d] queue]
$qC meanPktSize $WIRE
$qC set numQueues_ 1
$qC setNumPrec 3
foreach {cp prec} [list $CP_G 0 $CP_Y 1 $CP_R 2] { $qC addPHBEntry $cp 0 $prec }
$qC setMREDMode RIO-C
$qC configQ 0 0 40 55 0.02 0.002
$qC configQ 0 1 25 40 0.05 0.002
$qC configQ 0 2 10 25 0.1 0.002

# ---------------------------------------------------------------- TCP
for {set a 1} {$a <= 2} {incr a} {
    for {set i 0} {$i < $NF} {incr i} {
        set t [new Agent/TCP/Newreno]
        # HB_OVERHEAD=seconds (gap check, docs/ns2-gaps.md section 2): every send delayed
        # U(0, s) (ns-2's overhead_): same-instant arrivals at a queue in a random order.
        if {[info exists ::env(HB_OVERHEAD)]} { $t set overhead_ $::env(HB_OVERHEAD) }
        $t set packetSize_ $PAY
        $t set window_ $WIN
        $t set fid_ $a
        set k [new Agent/TCPSink]
        $ns attach-agent $src($a) $t
        $ns attach-agent $dst($a) $k
        $ns connect $t $k
        set f [new Application/FTP]
        $f attach-agent $t
        set t0 [$startrng uniform 0 1]
        $ns at $t0 "$f start"
        set tcp($a,$i) $t
        set sink($a,$i) $k
    }
}

# ---------------------------------------------------------------- monitors
set nullf [open /dev/null w]
# per-fid flow monitor with early-drop accounting on the bottleneck
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $c $d] $fmon 1
# queue monitors on every other forward/reverse queue to prove nothing is lost there
set others {}
foreach {a b} [list $n1 $e1 $e1 $n1 $n2 $e2 $e2 $n2 $e1 $c $c $e1 $e2 $c $c $e2 $d $c $d $n3 $n3 $d $d $n4 $n4 $d] {
    lappend others [$ns monitor-queue $a $b $nullf]
}
set qm_bn [$ns monitor-queue $c $d $nullf]

proc flowstats {fid} {
    global fmon
    foreach fl [$fmon flows] {
        if {[$fl set flowid_] == $fid} {
            return [list [$fl set parrivals_] [$fl set pdrops_] [$fl set epdrops_] [$fl set pdepartures_]]
        }
    }
    return {0 0 0 0}
}

proc snap {} {
    global NF tcp sink qE CP_G CP_Y CP_R qm_bn
    set s {}
    for {set a 1} {$a <= 2} {incr a} {
        set by 0; set to 0; set rx 0; set sent 0
        for {set i 0} {$i < $NF} {incr i} {
            set by   [expr {$by + [$sink($a,$i) set bytes_]}]
            set to   [expr {$to + [$tcp($a,$i) set nrexmit_]}]
            set rx   [expr {$rx + [$tcp($a,$i) set nrexmitpack_]}]
            set sent [expr {$sent + [$tcp($a,$i) set ndatapack_]}]
        }
        set m {}
        foreach cp [list $CP_G $CP_Y $CP_R] { lappend m [expr {int([$qE($a) getStat pkts $cp])}] }
        lappend s [concat [list $by $to $rx $sent] $m [flowstats $a]]
    }
    lappend s [$qm_bn set bdepartures_]
    return $s
}
proc perflow {} {
    # per-flow sink bytes, for the fairness/starvation measures
    global NF sink
    set s {}
    for {set a 1} {$a <= 2} {incr a} {
        for {set i 0} {$i < $NF} {incr i} { lappend s [$sink($a,$i) set bytes_] }
    }
    return $s
}
set SW {}
set PW {}
$ns at $warm "set SW \[snap\]; set PW \[perflow\]"

proc finish {} {
    global ns SW PW NF F2RTT seed dur warm cond opfx WIRE PAY others D2
    set SE [snap]
    set PE [perflow]
    set T [expr {$dur - $warm}]
    set cols [list $cond $F2RTT $seed $NF $dur $warm [format %.3f $D2]]
    set tot 0.0; set totw 0.0
    set agg {}
    for {set a 1} {$a <= 2} {incr a} {
        set e [lindex $SE [expr {$a - 1}]]
        set w [lindex $SW [expr {$a - 1}]]
        set dv {}
        foreach x $e y $w { lappend dv [expr {$x - $y}] }
        foreach {by to rx sent mg my mr arr dr edr dep} $dv break
        set segs [expr {$by / double($WIRE)}]
        set mbps  [expr {$segs * $PAY * 8.0 / $T / 1e6}]
        set wmbps [expr {$by * 8.0 / $T / 1e6}]
        set tot [expr {$tot + $mbps}]; set totw [expr {$totw + $wmbps}]
        # per-flow: Jain index within the aggregate and flows with zero goodput in the window
        set s1 0.0; set s2 0.0; set nz 0
        for {set i 0} {$i < $NF} {incr i} {
            set k [expr {($a - 1) * $NF + $i}]
            set g [expr {[lindex $PE $k] - [lindex $PW $k]}]
            set s1 [expr {$s1 + $g}]; set s2 [expr {$s2 + double($g) * $g}]
            if {$g == 0} { incr nz }
        }
        set jain [expr {$s2 > 0 ? $s1 * $s1 / ($NF * $s2) : 0}]
        lappend agg [format %.4f $mbps] [format %.4f $wmbps] $sent $rx $to $mg $my $mr $arr $dr $edr [format %.4f $jain] $nz
    }
    set odrops 0
    foreach m $others { incr odrops [expr {int([$m set pdrops_])}] }
    set util [expr {([lindex $SE 2] - [lindex $SW 2]) * 8.0 / $T / 10e6}]
    set line [join [concat $cols $agg [list [format %.4f $tot] [format %.4f $totw] [format %.5f $util] $odrops]] ,]
    set hdr "cond,f2_rtt_ms,seed,nflows,dur_s,warm_s,d2_ms"
    foreach a {1 2} {
        foreach v {mbps wire_mbps sent_pkts rexmit_pkts timeouts marked_green marked_yellow marked_red core_arrivals core_drops core_edrops jain_flows zero_flows} {
            append hdr ",f${a}_$v"
        }
    }
    append hdr ",total_mbps,total_wire_mbps,bneck_util,drops_elsewhere"
    if {$opfx != ""} {
        set f [open $opfx.hdr w]; puts $f $hdr; close $f
        set f [open $opfx.run w]; puts $f $line; close $f
    } else {
        puts $hdr; puts $line
    }
    exit 0
}
$ns at $dur "finish"

set dl {}
foreach v {tcpTick_ minrto_ maxrto_ windowInit_ maxburst_ window_ packetSize_ tcpip_base_hdr_size_ bugFix_ singledup_ syn_ delay_growth_ rtxcur_init_ srtt_init_ rttvar_init_ numdupacks_ rfc2988_ timerfix_ newreno_changes_ newreno_changes1_ partial_window_deflation_ exit_recovery_fix_ overhead_ ecn_} {
    if {[catch {lappend dl "$v=[$tcp(1,0) set $v]"}]} { lappend dl "$v=n/a" }
}
puts stderr "ns-[ns-version] habib_2a cond=$cond f2_rtt_ms=$F2RTT seed=$seed nflows=$NF dur=$dur warm=$warm d2_ms=$D2 buf=$BUF :: [join $dl { }]"
puts stderr "# TCPSink: [join [list generateDSacks_=[$sink(1,0) set generateDSacks_] qs_enabled_=[$sink(1,0) set qs_enabled_]] { }]  Agent/TCP/Newreno class: [$tcp(1,0) info class]"
if {[info exists ::env(HB_PRINTPOLICY)]} {
    foreach a {1 2} { $qE($a) printPolicyTable; $qE($a) printPolicerTable; $qE($a) printPHBTable }
    $qC printPHBTable
}
$ns run
