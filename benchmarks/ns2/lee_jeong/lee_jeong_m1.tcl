# lee_jeong_m1.tcl -- ns-2.35 re-creation of Lee & Jeong, "Balancing Marker" (Sec. 4, Table 3),
# Method 1 only: the ns-2 built-in token-bucket policer (2 colours, IN/OUT) shared by the 7
# aggregated TCP Reno connections S1..S7, RIO-C at the core.
#
# Usage:
#   ns lee_jeong_m1.tcl <udp> <cir_bps> <cbs_pkts> <seed> [tcpcfg] [dur_s] [warm_s] [out_prefix]
#     udp        : 0 = no UDP, 1 = two UDP on-off sources (20 ms on / 20 ms off, 10 Mb/s when on)
#     cir_bps    : token rate of the shared bucket (case 1: 7e6, case 2: 3.5e6)
#     cbs_pkts   : bucket depth in 1000-B packets (case 1 and 2: 70 -> 70 000 bytes)
#     seed       : 1,2,... selects substream <seed> of the two RNGs below
#     tcpcfg     : ns (default) = ns-2.35 Agent/TCP/Reno defaults (bugFix_ 1, singledup_ 1)
#                  ds          = bugFix_ false, singledup_ 0 (as in ../kaur_k5.tcl's "ds")
#                  nsov        = ns, and every TCP send delayed U(0, 10 us) (overhead_ 1e-5):
#                                simultaneous arrivals at the edge meet in a random order
#                                instead of the one floating-point rounding gives them
#                                (../gaps/lee_jeong_ties.py, docs/ns2-gaps.md section 3)
#     dur_s      : simulated seconds (default 60, the paper's Table 3)
#     warm_s     : start of the secondary measurement window (default 10); the primary
#                  measure is the whole run [0, dur] (the paper states no warm-up)
#     out_prefix : write <prefix>.run / <prefix>.flows (CSV lines, headers in <prefix>.hdr
#                  and <prefix>.fhdr); otherwise print to stdout
#
# Topology (one-way delays; every link is a duplex pair, the forward direction listed):
#
#   S1..S7  --10 Mb/s, 100/80/60/40/20/10/2 ms--+
#   B1..B10 --10 Mb/s, 2 ms (best effort)--------+
#   U1, U2  --10 Mb/s, 2 ms (UDP, variant 1)-----E1 ==100 Mb/s, 1 ms==> C ==10 Mb/s, 1 ms==> R2
#                                              dsRED/edge            dsRED/core (RIO-C)    |
#                                                                                          +--100 Mb/s, 1 ms-- DA (sinks of S1..S7)
#                                                                                          +--100 Mb/s, 1 ms-- DB (sinks of B1..B10)
#                                                                                          +--100 Mb/s, 1 ms-- DU (UDP sinks)
#
#  * E1 = the paper's (B)Marker, C = R1, C->R2 = the paper's bottleneck R1-R2 (10 Mb/s).
#    The paper gives only the access links (10 Mb/s, the listed delays); the edge link
#    E1->C (100 Mb/s, 1 ms), the bottleneck delay (1 ms) and the destination links
#    (100 Mb/s, 1 ms) are our choices. E1->C and the destination links are faster than the
#    bottleneck so that the only congested queue is C->R2. Two-way propagation delays:
#    S1 206 ms ... S7 10 ms; best effort and UDP 10 ms.
#  * Reverse (ACK) direction: DropTail everywhere, never congested (40-B ACKs).
#  * Queue limits: access links S->E1 200 packets (above the 110-packet window, so no
#    access drops; checked: drops_access column), E1->C 1000, bottleneck C->R2 100 packets
#    (the paper's router buffer; ns-2 dsRED holds up to 100 *waiting* packets plus the one
#    being transmitted), everything else 1000.
#
# Marking (edge, Queue/dsRED/edge on E1->C):
#  * ns-2 policies are keyed by (source node, destination node), and each policy-table entry
#    owns its token-bucket state. To give the 7 connections ONE shared bucket, the 7 TCP
#    sinks sit on one node DA and a single entry (ANY_HOST = -1, DA) TokenBucket is used:
#    dsPolicy.cc's getPolicyTableEntry returns the first entry whose source is the packet's
#    or -1 and whose destination is the packet's or -1, so all 7 sources hit the same entry.
#    CIR = cir_bps, CBS = cbs_pkts x 1000 bytes; IN -> code point 10 (green), OUT -> 12 (red).
#    The ns-2 token bucket compares the packet's full size (1000 B here) with the tokens.
#  * Everything else (best effort to DB, UDP to DU) matches the second entry (-1, -1) Null
#    with code point 0 (best effort).
#  * The edge queue itself is a plain large FIFO (setMREDMode DROP, thresholds 1000).
#
# Core (Queue/dsRED/core on C->R2): one physical queue, 3 precedences, setMREDMode RIO-C:
#    prec 0 GREEN  {40, 60, 0.02}  code point 10 (IN)
#    prec 1 YELLOW {30, 50, 0.04}  code point 11 (unused by Method 1)
#    prec 2 RED    {20, 40, 0.10}  code points 12 (OUT) and 0 (best effort and UDP)
#  thresholds in packets, meanPktSize 1000, ns-2 default q_w 0.002, non-gentle (drop all
#  above th_max). In ns-2's RIO-C the average for precedence p counts the packets of
#  precedences 0..p, so the RED average is over the whole queue. BE and UDP share the RED
#  precedence with OUT packets (our choice; the paper does not say how BE is treated).
#
# Traffic:
#  * TCP: Agent/TCP/Reno, packetSize_ 960 (+40 B TCP/IP header = 1000 B on the wire, the
#    paper's 1000-B packets), window_ 110, Agent/TCPSink (one ACK per data packet), backlogged
#    (LJ_TCP=sack: Agent/TCP/Sack1 with Agent/TCPSink/Sack1, run_sack.sh)
#    Application/FTP. Start times U(0, 1) s from `startrng`, so runs differ.
#  * UDP (variant udp=1): two Agent/UDP + Application/Traffic/CBR, 1000-B packets, 10 Mb/s
#    while on, switched on for 20 ms and off for 20 ms (period 0.04 s, a deterministic square
#    wave: 25 packets per burst, 5 Mb/s average each); each source's phase is U(0, 0.04) s
#    from `startrng`. Sinks: Agent/LossMonitor on DU.
#
# Randomness: $defaultRNG (base seed 12345, substream <seed>) drives ns-2's own draws (the RIO
# drop decisions); startrng (base seed 24680, substream <seed>) draws the start times and UDP
# phases.
#
# Measures: per connection, goodput = TCPSink bytes_ (in-order bytes delivered, 1000 B per
# unique segment, i.e. wire size) x 8 / dur over [0, dur] (primary), and over [warm, dur]
# (secondary). UDP: LossMonitor bytes_ x 8 / dur.

if {$argc < 4} {
    puts stderr "usage: ns lee_jeong_m1.tcl udp cir_bps cbs_pkts seed ?tcpcfg? ?dur? ?warm? ?out_prefix?"
    exit 1
}
set udpon  [lindex $argv 0]
set CIR    [lindex $argv 1]
set CBSP   [lindex $argv 2]
set seed   [lindex $argv 3]
set tcpcfg [expr {$argc > 4 ? [lindex $argv 4] : "ns"}]
set dur    [expr {$argc > 5 ? [lindex $argv 5] : 60.0}]
set warm   [expr {$argc > 6 ? [lindex $argv 6] : 10.0}]
set opfx   [expr {$argc > 7 ? [lindex $argv 7] : ""}]

# ---------------------------------------------------------------- constants
set PKT      1000                  ;# bytes on the wire
set TCPPAY   [expr {$PKT - 40}]    ;# ns-2 adds tcpip_base_hdr_size_ 40
set CBS      [expr {$CBSP * $PKT}] ;# bytes
set WIN      110
set BUF      100                   ;# bottleneck physical queue, packets
set ACCQ     200
set BIGQ     1000
set DELAYS   {100 80 60 40 20 10 2}
set NA       7
set NB       10
set BE_MS    2
set UDP_MS   2
set UDP_ON   0.020
set UDP_OFF  0.020
set CP_IN    10
set CP_YEL   11
set CP_OUT   12
set CP_BE    0

# ---------------------------------------------------------------- RNGs
global defaultRNG
$defaultRNG seed 12345
for {set i 1} {$i < $seed} {incr i} { $defaultRNG next-substream }
set startrng [new RNG]
$startrng seed 24680
for {set i 1} {$i < $seed} {incr i} { $startrng next-substream }

set ns [new Simulator]

# ---------------------------------------------------------------- topology
set E1 [$ns node]
set C  [$ns node]
set R2 [$ns node]
set DA [$ns node]
set DB [$ns node]
set DU [$ns node]
$ns simplex-link $E1 $C 100Mb 1ms dsRED/edge
$ns simplex-link $C $E1 100Mb 1ms DropTail
$ns simplex-link $C $R2 10Mb 1ms dsRED/core
$ns simplex-link $R2 $C 10Mb 1ms DropTail
foreach d [list $DA $DB $DU] { $ns duplex-link $R2 $d 100Mb 1ms DropTail }
foreach {a b} [list $E1 $C $C $E1 $R2 $C $R2 $DA $DA $R2 $R2 $DB $DB $R2 $R2 $DU $DU $R2] {
    $ns queue-limit $a $b $BIGQ
}
$ns queue-limit $C $R2 $BUF

proc access {node ms} {
    global ns E1 ACCQ BIGQ
    $ns duplex-link $node $E1 10Mb ${ms}ms DropTail
    $ns queue-limit $node $E1 $ACCQ
    $ns queue-limit $E1 $node $BIGQ
}
# flows: index 0..6 = S1..S7 (aggregate), 7..16 = B1..B10 (best effort, the paper's S8..S17)
set NT [expr {$NA + $NB}]
for {set i 0} {$i < $NT} {incr i} {
    set S($i) [$ns node]
    if {$i < $NA} {
        set dly($i) [lindex $DELAYS $i]
        set name($i) "S[expr {$i + 1}]"
        set cls($i) agg
        set dst($i) $DA
    } else {
        set dly($i) $BE_MS
        set name($i) "S[expr {$i + 1}]"
        set cls($i) be
        set dst($i) $DB
    }
    access $S($i) $dly($i)
}
set NU [expr {$udpon ? 2 : 0}]
for {set j 0} {$j < $NU} {incr j} {
    set U($j) [$ns node]
    access $U($j) $UDP_MS
}

# ---------------------------------------------------------------- DiffServ
# Edge E1->C: marker. One shared TokenBucket for everything sent to DA (S1..S7).
set qE [[$ns link $E1 $C] queue]
$qE meanPktSize $PKT
$qE set numQueues_ 1
$qE setNumPrec 3
$qE addPolicyEntry -1 [$DA id] TokenBucket $CP_IN $CIR $CBS
$qE addPolicyEntry -1 -1 Null $CP_BE
$qE addPolicerEntry TokenBucket $CP_IN $CP_OUT
$qE addPolicerEntry Null $CP_BE
foreach {cp prec} [list $CP_IN 0 $CP_YEL 1 $CP_OUT 2 $CP_BE 2] { $qE addPHBEntry $cp 0 $prec }
$qE setMREDMode DROP
foreach prec {0 1 2} { $qE configQ 0 $prec $BIGQ $BIGQ 0.1 }

# Core C->R2: RIO-C, 100-packet physical queue.
set qC [[$ns link $C $R2] queue]
$qC meanPktSize $PKT
$qC set numQueues_ 1
$qC setNumPrec 3
foreach {cp prec} [list $CP_IN 0 $CP_YEL 1 $CP_OUT 2 $CP_BE 2] { $qC addPHBEntry $cp 0 $prec }
$qC setMREDMode RIO-C
$qC configQ 0 0 40 60 0.02
$qC configQ 0 1 30 50 0.04
$qC configQ 0 2 20 40 0.1

# ---------------------------------------------------------------- TCP
# TCP variant: LJ_TCP=sack in the environment runs Agent/TCP/Sack1 with the SACK sink
# Agent/TCPSink/Sack1 (ns-2.35 defaults: maxSackBlocks_ 3) instead of Reno, for every TCP
# connection (S1..S17) (run_sack.sh, issue 44); tcpcfg applies to either.
if {[info exists ::env(LJ_TCP)] && $::env(LJ_TCP) == "sack"} {
    set TCPAGENT Agent/TCP/Sack1
    set SINKAGENT Agent/TCPSink/Sack1
} elseif {[info exists ::env(LJ_TCP)] && $::env(LJ_TCP) != "reno"} {
    puts stderr "LJ_TCP must be reno or sack"; exit 1
} else {
    set TCPAGENT Agent/TCP/Reno
    set SINKAGENT Agent/TCPSink
}
for {set i 0} {$i < $NT} {incr i} {
    set tcp($i) [new $TCPAGENT]
    $tcp($i) set packetSize_ $TCPPAY
    $tcp($i) set window_ $WIN
    $tcp($i) set fid_ [expr {$i + 1}]
    # LJ_OVERHEAD=seconds (gap check, ../gaps/lee_jeong_ties.py): every send delayed U(0, s)
    # (ns-2's overhead_), so that simultaneous arrivals at the edge meet in a random order.
    if {[info exists ::env(LJ_OVERHEAD)]} { $tcp($i) set overhead_ $::env(LJ_OVERHEAD) }
    if {$tcpcfg == "ds"} {
        $tcp($i) set bugFix_ false
        $tcp($i) set singledup_ 0
    } elseif {$tcpcfg == "nsov"} {
        $tcp($i) set overhead_ 1e-5
    } elseif {$tcpcfg != "ns"} {
        puts stderr "tcpcfg must be ns, ds or nsov"; exit 1
    }
    set sink($i) [new $SINKAGENT]
    $ns attach-agent $S($i) $tcp($i)
    $ns attach-agent $dst($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    set t0($i) [$startrng uniform 0 1]
    $ns at $t0($i) "$ftp($i) start"
}

# ---------------------------------------------------------------- UDP on-off
for {set j 0} {$j < $NU} {incr j} {
    set udp($j) [new Agent/UDP]
    $udp($j) set packetSize_ $PKT
    $udp($j) set fid_ [expr {100 + $j}]
    set lm($j) [new Agent/LossMonitor]
    $ns attach-agent $U($j) $udp($j)
    $ns attach-agent $DU $lm($j)
    $ns connect $udp($j) $lm($j)
    set cbr($j) [new Application/Traffic/CBR]
    $cbr($j) set packetSize_ $PKT
    $cbr($j) set rate_ 10Mb
    $cbr($j) set random_ 0
    $cbr($j) attach-agent $udp($j)
    set ph($j) [$startrng uniform 0 [expr {$UDP_ON + $UDP_OFF}]]
    # CBR sends its first packet at `start`, then one every 0.8 ms. Stopping half a packet
    # time before the end of the on-period gives exactly 25 packets (20 ms at 10 Mb/s) per
    # burst; stopping at exactly +20 ms sends a 26th packet in some bursts (float rounding).
    set half [expr {0.5 * $PKT * 8.0 / 10e6}]
    for {set t $ph($j)} {$t < $dur} {set t [expr {$t + $UDP_ON + $UDP_OFF}]} {
        $ns at $t "$cbr($j) start"
        $ns at [expr {$t + $UDP_ON - $half}] "$cbr($j) stop"
    }
}

# ---------------------------------------------------------------- monitors
set nullf [open /dev/null w]
for {set i 0} {$i < $NT} {incr i} { set qm_acc($i) [$ns monitor-queue $S($i) $E1 $nullf] }
for {set j 0} {$j < $NU} {incr j} { set qm_u($j) [$ns monitor-queue $U($j) $E1 $nullf] }
set qm_edge [$ns monitor-queue $E1 $C $nullf]
set qm_bn   [$ns monitor-queue $C $R2 $nullf]
if {[info exists ::env(LJ_TRACEQ)]} {
    set trq [open $::env(LJ_TRACEQ) w]
    $ns trace-queue $C $R2 $trq
}
# LJ_TRACEE=file (gap check, ../gaps/lee_jeong_marks.py): trace the edge link E1 -> C, whose
# enqueue ("+") events are the moments the token-bucket marker meters each packet.
if {[info exists ::env(LJ_TRACEE)]} {
    set tre [open $::env(LJ_TRACEE) w]
    $ns trace-queue $E1 $C $tre
}

proc snap {} {
    global NT NU sink tcp lm
    set s {}
    for {set i 0} {$i < $NT} {incr i} {
        lappend s [list [$sink($i) set bytes_] [$tcp($i) set nrexmit_] [$tcp($i) set nrexmitpack_]]
    }
    for {set j 0} {$j < $NU} {incr j} { lappend s [list [$lm($j) set bytes_] 0 0] }
    return $s
}
set SW {}
$ns at $warm "set SW \[snap\]"

proc finish {} {
    global ns SW NT NU NA name cls dly sink tcp lm qm_acc qm_edge qm_bn qE qC dur warm
    global udpon CIR CBSP seed tcpcfg opfx CP_IN CP_OUT CP_BE t0 UDP_MS qm_u
    set SE [snap]
    set vtag [expr {$udpon ? "udp" : "noudp"}]
    set key [format "%s,%g,%d,%d,%s" $vtag [expr {$CIR/1e6}] $CBSP $seed $tcpcfg]
    set flines {}
    set agg {}; set tot 0.0; set sq 0.0; set be 0.0; set ud 0.0
    set n [expr {$NT + $NU}]
    for {set k 0} {$k < $n} {incr k} {
        foreach {b1 to1 rx1} [lindex $SE $k] break
        foreach {bw tow rxw} [lindex $SW $k] break
        set g  [expr {$b1 * 8.0 / $dur}]
        set gw [expr {($b1 - $bw) * 8.0 / ($dur - $warm)}]
        if {$k < $NT} {
            set nm $name($k); set c $cls($k); set d $dly($k); set st [format %.4f $t0($k)]
            set drop_acc [$qm_acc($k) set pdrops_]
        } else {
            set nm "U[expr {$k - $NT + 1}]"; set c udp; set d $UDP_MS; set st ""; set drop_acc ""
            set to1 ""; set rx1 ""
        }
        if {$c == "agg"} { lappend agg $g; set tot [expr {$tot + $g}]; set sq [expr {$sq + $g*$g}] }
        if {$c == "be"}  { set be [expr {$be + $g}] }
        if {$c == "udp"} { set ud [expr {$ud + $g}] }
        lappend flines [format "%s,%s,%s,%s,%s,%.1f,%.1f,%s,%s,%s" $key $nm $c $d $st $g $gw $to1 $rx1 $drop_acc]
    }
    set jain [expr {$tot * $tot / ($NA * $sq)}]
    # UDP offered load (bytes that left the UDP sources' access links towards E1)
    set uoff 0.0
    for {set j 0} {$j < $NU} {incr j} { set uoff [expr {$uoff + [$qm_u($j) set barrivals_]}] }
    set util [expr {[$qm_bn set bdepartures_] * 8.0 / $dur / 10e6}]
    # dsRED counters by code point: edge pkts = marking counts; core drops/edrops
    set e_in  [$qE getStat pkts $CP_IN]
    set e_out [$qE getStat pkts $CP_OUT]
    set line [format "%s,%d,%g,%.5f,%.4f,%.4f,%.4f,%.4f,%.5f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d" $key $NA $dur $jain \
        [expr {$tot/1e6}] [expr {$be/1e6}] [expr {$ud/1e6}] [expr {$uoff * 8.0 / $dur / 1e6}] $util \
        [expr {int($e_in)}] [expr {int($e_out)}] \
        [expr {int([$qC getStat pkts $CP_IN])}] [expr {int([$qC getStat drops $CP_IN])}] [expr {int([$qC getStat edrops $CP_IN])}] \
        [expr {int([$qC getStat pkts $CP_OUT])}] [expr {int([$qC getStat drops $CP_OUT])}] [expr {int([$qC getStat edrops $CP_OUT])}] \
        [expr {int([$qC getStat drops $CP_BE])}] [expr {int([$qC getStat edrops $CP_BE])}] [expr {int([$qE getStat drops $CP_BE] + [$qE getStat drops $CP_IN] + [$qE getStat drops $CP_OUT])}]]
    set hdr "variant,cir_mbps,cbs_pkts,seed,tcpcfg,n_agg,dur_s,jain_agg,agg_total_mbps,be_total_mbps,udp_total_mbps,udp_offered_mbps,bneck_util,edge_in_pkts,edge_out_pkts,core_in_arrivals,core_in_drops,core_in_edrops,core_out_arrivals,core_out_drops,core_out_edrops,core_be_drops,core_be_edrops,edge_drops"
    set fhdr "variant,cir_mbps,cbs_pkts,seed,tcpcfg,conn,class,access_delay_ms,start_s,goodput_bps,goodput_warm_bps,timeouts,rexmit_pkts,drops_access"
    if {$opfx != ""} {
        set f [open $opfx.hdr w]; puts $f $hdr; close $f
        set f [open $opfx.fhdr w]; puts $f $fhdr; close $f
        set f [open $opfx.run w]; puts $f $line; close $f
        set f [open $opfx.flows w]; foreach l $flines { puts $f $l }; close $f
    } else {
        puts $hdr; puts $line; puts $fhdr; foreach l $flines { puts $l }
    }
    if {[info exists ::env(LJ_TRACEQ)] || [info exists ::env(LJ_TRACEE)]} { $ns flush-trace }
    exit 0
}
# LJ_FLOWMON=1 (gap check, ../gaps/lee_jeong_flows.sh): a per-fid flow monitor with early-drop
# accounting on the core link C -> R2; at the end, one stderr line per fid (connection i + 1,
# UDP 100 + j): "ljflow,<cir>,<cbs>,<udp>,<seed>,<fid>,arrivals,forced drops,early drops".
if {[info exists ::env(LJ_FLOWMON)]} {
    set cfm [new QueueMonitor/ED/Flowmon]
    set ccl [new Classifier/Hash/Fid 64]
    $ccl proc unknown-flow { src dst fid } {
        global cflow
        set fdesc [new QueueMonitor/ED/Flow]
        set slot [$self installNext $fdesc]
        $self set-hash auto $src $dst $fid $slot
        set cflow($fid) $fdesc
    }
    $ccl proc no-slot slotnum { }
    $cfm classifier $ccl
    $ns attach-fmon [$ns link $C $R2] $cfm 1
    proc report_flows {} {
        global cflow CIR CBSP udpon seed
        foreach fid [lsort -integer [array names cflow]] {
            set f $cflow($fid)
            puts stderr [format "ljflow,%g,%d,%d,%d,%d,%d,%d,%d" [expr {$CIR / 1e6}] $CBSP $udpon \
                $seed $fid [$f set parrivals_] [expr {[$f set pdrops_] - [$f set epdrops_]}] [$f set epdrops_]]
        }
    }
    $ns at [expr {$dur - 1e-6}] "report_flows"
}
$ns at $dur "finish"

set dl {}
foreach v {tcpTick_ minrto_ maxrto_ windowInit_ bugFix_ singledup_ maxburst_ window_ packetSize_ tcpip_base_hdr_size_ overhead_} {
    lappend dl "$v=[$tcp(0) set $v]"
}
puts stderr "ns-[ns-version] lee_jeong_m1 agent=$TCPAGENT sink=$SINKAGENT udp=$udpon cir=$CIR cbs=$CBS seed=$seed tcpcfg=$tcpcfg buf=$BUF :: [join $dl { }]"
if {[info exists ::env(LJ_PRINTPOLICY)]} { $qE printPolicyTable; $qE printPolicerTable }
$ns run
