# rossi_web.tcl -- ns-2.35 re-creation of Rossi, Casetti & Mellia, "A Simulation Study of Web
# Traffic over DiffServ Networks" (Sec. II-III), HTTP-only scenario, in the form fixed by
# diffsweep's builder (see README.md for every value and the reasons).
#
# Usage:
#   ns rossi_web.tcl <rho> <alpha_af> <seed> [t_stop] [t_halt] [syncfg] [out_prefix]
#     rho        : total offered load (fraction of the 10 Mb/s bottleneck)
#     alpha_af   : share of the load offered by the DS (AF) cloud; BE gets 1 - alpha_af
#     seed       : 1,2,... selects substream <seed> of every RNG below
#     t_stop     : no new transfers after this time (default 200 s)
#     t_halt     : the run stops here (default 300 s)
#     syncfg     : syn  (default) = ns-2.35 defaults: syn_ 1, delay_growth_ 1 (one-way TCP models a
#                                   SYN exchange: a 40-B packet with seqno 0 first, cwnd 1; after
#                                   its ACK cwnd = windowInit_ = 2 and the data follow)
#                  nosyn          = syn_ 0 (no SYN packet: the first data packets leave at once
#                                   with cwnd = windowInit_ = 2); sensitivity check only
#                  nosyn_ng       = syn_ 0 and delay_growth_ 0 (gap check, docs/ns2-gaps.md)
#     out_prefix : write <prefix>.tr (one line per transfer), <prefix>.run (one line per run)
#                  and the matching .trhdr/.runhdr; without it everything goes to stdout
#
# Topology (all DS senders on one node AS, all DS receivers on AD; BE likewise on BS/BD):
#
#   AS --100 Mb/s, 1 ms--+                              +--100 Mb/s, 1 ms-- AD (DS/AF sinks)
#                        S ==10 Mb/s, 10 ms, dsRED/edge==> R
#   BS --100 Mb/s, 1 ms--+   50-pkt queue, RIO-C        +--100 Mb/s, 1 ms-- BD (BE sinks)
#
#  * Two-way propagation delay 24 ms. Reverse (ACK) links: same bandwidths and delays,
#    DropTail, 1000-pkt limits (never congested; 40-B ACKs are never lost).
#  * S->R is Queue/dsRED/edge: it marks (TSW2CM) and queues (one physical queue, RIO-C) in the
#    same object, so the marker and the RIO-C queue both sit at router S.
#  * Marker: ONE policy entry (AS -> AD) TSW2CM, CIR 5 Mb/s, ns-2 default window winLen 1.0 s
#    (dsPolicy.cc sets winLen = 1.0 unless a 7th argument is given), so all DS transfers form
#    one aggregate metered by one TSW. In profile -> code point 10 (green, precedence 0);
#    TSW2CM downgrades with probability (avgRate - CIR)/avgRate when avgRate > CIR -> code
#    point 12 (red, precedence 1). BS -> BD: Null policy, code point 0 -> precedence 1 (the
#    same red virtual queue as out-of-profile AF).
#  * RIO-C: setNumPrec 2, meanPktSize 1000, green 20/40/0.02, red 5/10/0.20 (packets), q_w
#    0.002 (ns-2 default of configQ), non-gentle (average above th_max -> forced drop), queue
#    limit 50 packets (redq_.qlim = limit()). setSchedularMode RR (one queue: moot).
#
# Traffic: web-like transfers, Poisson arrivals per cloud (mean interarrival
#  tau_i = 13.6 KB * 8 / (alpha_i * rho * 10 Mb/s)), size uniform over {1,2,3,4,5,6,7,8,10,90}
#  packets (mean 13.6). Each transfer is a fresh one-way Agent/TCP/Reno -> Agent/TCPSink
#  connection: agent pairs are kept in a pool per cloud; a pair is returned to the pool when its
#  transfer completes and, when reused, `$tcp reset` + `$sink reset` give it a new incarnation
#  (cwnd = initial window, ssthresh = window_, fresh RTT estimator with RTO 3 s (rtxcur_init_),
#  counters zeroed; tcp.cc/tcp-sink.cc discard any packet of an older incarnation by its
#  timestamp, ts < lastreset_). packetSize_ 960 (+40 B header = 1000 B on the wire),
#  window_ 20, all other TCP parameters ns-2.35 defaults (printed to stderr).
#
# Per transfer: start time, completion time t_ack = when the sender gets the ACK of the last
#  packet (TcpAgent::finish -> `done`), t_rcv = t_ack - 12.0384 ms (the ACK's one-way trip:
#  1 + 10 + 1 ms propagation + 3.2 + 32 + 3.2 us transmission of 40 B; the reverse links never
#  queue, checked against a packet trace, see README), packets sent (ndatapack_, SYN included),
#  retransmitted packets (nrexmitpack_), timeouts (nrexmit_), and from a per-fid flow monitor on
#  S->R: arrivals, drops (forced + early) and early drops, in packets and bytes (the SYN is 40 B,
#  data packets 1000 B, so the bytes separate SYN from data).
#
# Randomness: $defaultRNG (base seed 12345, substream <seed>) drives ns-2's own draws (RIO
#  early drops, TSW2CM downgrades, TCP boot_time_); four more MRG32k3a streams (base seeds 101,
#  102, 201, 202; substream <seed>) draw AF arrivals, AF sizes, BE arrivals, BE sizes.

if {$argc < 3} {
    puts stderr "usage: ns rossi_web.tcl rho alpha_af seed ?t_stop? ?t_halt? ?syncfg? ?out_prefix?"
    exit 1
}
set RHO    [lindex $argv 0]
set ALPHA  [lindex $argv 1]
set seed   [lindex $argv 2]
set TSTOP  [expr {$argc > 3 ? double([lindex $argv 3]) : 200.0}]
set THALT  [expr {$argc > 4 ? double([lindex $argv 4]) : 300.0}]
set syncfg [expr {$argc > 5 ? [lindex $argv 5] : "syn"}]
set opfx   [expr {$argc > 6 ? [lindex $argv 6] : ""}]

# ---------------------------------------------------------------- constants
set PKT     1000                  ;# bytes on the wire per data packet
set TCPPAY  [expr {$PKT - 40}]    ;# ns-2 adds tcpip_base_hdr_size_ 40
set WIN     20
set BW      10e6                  ;# bottleneck, b/s
set CIR     5e6                   ;# SLA50
set BUF     50                    ;# bottleneck physical queue, packets
set BIGQ    1000
set SIZES   {1 2 3 4 5 6 7 8 10 90}
set MEANKB  13.6
set CP_G    10
set CP_R    12
set CP_BE   0
set ACKDLY  [expr {0.012 + 40*8/100e6 + 40*8/10e6 + 40*8/100e6}]

# ---------------------------------------------------------------- RNGs
global defaultRNG
$defaultRNG seed 12345
for {set i 1} {$i < $seed} {incr i} { $defaultRNG next-substream }
foreach {nm base} {arrAF 101 sizAF 102 arrBE 201 sizBE 202} {
    set rng($nm) [new RNG]
    $rng($nm) seed $base
    for {set i 1} {$i < $seed} {incr i} { $rng($nm) next-substream }
}

set ns [new Simulator]

# ---------------------------------------------------------------- topology
set S  [$ns node]
set R  [$ns node]
set AS [$ns node]
set BS [$ns node]
set AD [$ns node]
set BD [$ns node]
$ns simplex-link $S $R 10Mb 10ms dsRED/edge
$ns simplex-link $R $S 10Mb 10ms DropTail
$ns queue-limit $S $R $BUF
$ns queue-limit $R $S $BIGQ
foreach {a b} [list $AS $S $BS $S $R $AD $R $BD] {
    $ns duplex-link $a $b 100Mb 1ms DropTail
    $ns queue-limit $a $b $BIGQ
    $ns queue-limit $b $a $BIGQ
}

# ---------------------------------------------------------------- DiffServ at S
set q [[$ns link $S $R] queue]
$q meanPktSize $PKT
$q set numQueues_ 1
$q setNumPrec 2
$q addPolicyEntry [$AS id] [$AD id] TSW2CM $CP_G $CIR
$q addPolicyEntry [$BS id] [$BD id] Null $CP_BE
$q addPolicerEntry TSW2CM $CP_G $CP_R
$q addPolicerEntry Null $CP_BE
$q addPHBEntry $CP_G 0 0
$q addPHBEntry $CP_R 0 1
$q addPHBEntry $CP_BE 0 1
$q setMREDMode RIO-C
$q configQ 0 0 20 40 0.02
$q configQ 0 1 5 10 0.20
$q setSchedularMode RR

# per-fid flow monitor on S->R, with early-drop accounting
# (built as Simulator::makeflowmon does, but each new per-fid Flow object is also remembered
#  in flowobj(fid): `$fmon flows` overflows FlowMon's fixed text buffer with >10^4 flows)
set fmon [new QueueMonitor/ED/Flowmon]
set fcl [new Classifier/Hash/Fid 4096]
$fcl proc unknown-flow { src dst fid } {
    global flowobj
    set fdesc [new QueueMonitor/ED/Flow]
    set slot [$self installNext $fdesc]
    $self set-hash auto $src $dst $fid $slot
    set flowobj($fid) $fdesc
}
$fcl proc no-slot slotnum { }
$fmon classifier $fcl
$ns attach-fmon [$ns link $S $R] $fmon 1

# ---------------------------------------------------------------- TCP defaults
Agent/TCP set packetSize_ $TCPPAY
Agent/TCP set window_ $WIN
if {$syncfg == "nosyn"} {
    Agent/TCP set syn_ false
} elseif {$syncfg == "nosyn_ng"} {
    # no SYN and no delay_growth_ (ns-2.35 default 1: the ACK of seqno 0, meant to be the SYN's,
    # resets cwnd to windowInit_; without a SYN that ACK is the first data packet's):
    # docs/ns2-gaps.md, benchmarks/ns2/gaps/gap_delay_growth.sh
    Agent/TCP set syn_ false
    Agent/TCP set delay_growth_ false
} elseif {$syncfg != "syn"} {
    puts stderr "syncfg must be syn, nosyn or nosyn_ng"; exit 1
}

# ---------------------------------------------------------------- transfers
set src(AF) $AS; set dst(AF) $AD
set src(BE) $BS; set dst(BE) $BD
set npool(AF) 0; set npool(BE) 0
set free(AF) {}; set free(BE) {}
set nextfid 1
set nstarted(AF) 0; set nstarted(BE) 0
set ndone(AF) 0; set ndone(BE) 0
foreach c {AF BE} {
    set alpha_c [expr {$c == "AF" ? $ALPHA : 1.0 - $ALPHA}]
    set tau($c) [expr {$alpha_c > 0 ? $MEANKB * 1000 * 8 / ($alpha_c * $RHO * $BW) : -1}]
}

proc new_pair {c} {
    global ns src dst npool tcp sink
    set k $npool($c)
    incr npool($c)
    set tcp($c,$k) [new Agent/TCP/Reno]
    set sink($c,$k) [new Agent/TCPSink]
    $ns attach-agent $src($c) $tcp($c,$k)
    $ns attach-agent $dst($c) $sink($c,$k)
    $ns connect $tcp($c,$k) $sink($c,$k)
    $tcp($c,$k) proc done {} [list transfer_done $c $k]
    return $k
}

proc start_transfer {c} {
    global ns free tcp sink nextfid rng SIZES TSTOP tau nstarted tinfo pairfid
    set now [$ns now]
    if {[llength $free($c)] > 0} {
        set k [lindex $free($c) 0]
        set free($c) [lrange $free($c) 1 end]
        $tcp($c,$k) reset
        $sink($c,$k) reset
    } else {
        set k [new_pair $c]
    }
    set fid $nextfid
    incr nextfid
    set size [lindex $SIZES [$rng(siz$c) integer [llength $SIZES]]]
    $tcp($c,$k) set fid_ $fid
    set pairfid($c,$k) $fid
    set tinfo($fid) [list $c $size $now]
    incr nstarted($c)
    $tcp($c,$k) advanceby $size
    set t [expr {$now + [$rng(arr$c) exponential $tau($c)]}]
    if {$t < $TSTOP} { $ns at $t "start_transfer $c" }
}

proc transfer_done {c k} {
    global ns tcp free pairfid tdone ndone
    set fid $pairfid($c,$k)
    set t $tcp($c,$k)
    set tdone($fid) [list [$ns now] [$t set ndatapack_] [$t set nrexmitpack_] [$t set nrexmit_]]
    incr ndone($c)
    unset pairfid($c,$k)
    lappend free($c) $k
}

foreach c {AF BE} {
    if {$tau($c) > 0} {
        $ns at [$rng(arr$c) exponential $tau($c)] "start_transfer $c"
    }
}

# ---------------------------------------------------------------- end of run
proc finish {} {
    global ns fmon q tinfo tdone pairfid tcp RHO ALPHA seed syncfg opfx TSTOP THALT ACKDLY
    global CP_G CP_R CP_BE nstarted ndone npool BW flowobj
    set now [$ns now]
    # transfers still running at t_halt: counters as they stand
    foreach key [array names pairfid] {
        set fid $pairfid($key)
        set t $tcp($key)
        set topen($fid) [list "" [$t set ndatapack_] [$t set nrexmitpack_] [$t set nrexmit_]]
    }
    foreach fid [array names flowobj] {
        set f $flowobj($fid)
        set fl($fid) [list [$f set parrivals_] [$f set barrivals_] [$f set pdrops_] \
                                      [$f set bdrops_] [$f set epdrops_] [$f set ebdrops_]]
    }
    set key [format "%g,%g,%d,%s" $RHO $ALPHA $seed $syncfg]
    set lines {}
    foreach fid [lsort -integer [array names tinfo]] {
        foreach {c size t0} $tinfo($fid) break
        if {[info exists tdone($fid)]} {
            foreach {tack nsent nrx nto} $tdone($fid) break
            set ct [format %.6f [expr {$tack - $t0}]]
            set cr [format %.6f [expr {$tack - $ACKDLY - $t0}]]
            set comp 1
        } else {
            foreach {tack nsent nrx nto} $topen($fid) break
            set ct ""; set cr ""; set comp 0
        }
        if {[info exists fl($fid)]} { set m $fl($fid) } else { set m {0 0 0 0 0 0} }
        lappend lines [format "%s,%d,%s,%d,%.6f,%d,%s,%s,%d,%d,%d,%s" $key $fid $c $size $t0 \
                           $comp $cr $ct $nsent $nrx $nto [join $m ,]]
    }
    set hdr "rho,alpha_af,seed,syncfg,fid,cloud,size_pkts,t_start,completed,ct_rcv_s,ct_ack_s,pkts_sent,rexmit_pkts,timeouts,bn_arr_pkts,bn_arr_bytes,bn_drop_pkts,bn_drop_bytes,bn_edrop_pkts,bn_edrop_bytes"
    # run line: dsRED counters per code point at S (SYNs included), utilisation
    set st {}
    foreach cp [list $CP_G $CP_R $CP_BE] {
        foreach s {pkts drops edrops} { lappend st [expr {int([$q getStat $s $cp])}] }
    }
    set util [expr {[$fmon set bdepartures_] * 8.0 / $now / $BW}]
    set rline [format "%s,%g,%g,%g,%d,%d,%d,%d,%d,%d,%.5f,%s" $key $TSTOP $THALT $now \
                   $nstarted(AF) $ndone(AF) $nstarted(BE) $ndone(BE) $npool(AF) $npool(BE) $util [join $st ,]]
    set rhdr "rho,alpha_af,seed,syncfg,t_stop,t_halt,t_end,af_started,af_completed,be_started,be_completed,af_agent_pairs,be_agent_pairs,bneck_util,cp10_pkts,cp10_drops,cp10_edrops,cp12_pkts,cp12_drops,cp12_edrops,cp0_pkts,cp0_drops,cp0_edrops"
    if {$opfx != ""} {
        set f [open $opfx.trhdr w]; puts $f $hdr; close $f
        set f [open $opfx.runhdr w]; puts $f $rhdr; close $f
        set f [open $opfx.run w]; puts $f $rline; close $f
        set f [open $opfx.tr w]; foreach l $lines { puts $f $l }; close $f
    } else {
        puts $rhdr; puts $rline; puts $hdr; foreach l $lines { puts $l }
    }
    if {[info exists ::env(RW_TRACE)]} { $ns flush-trace }
    exit 0
}

# Optional packet trace of the bottleneck and of the receivers' links (for checks only)
if {[info exists ::env(RW_TRACE)]} {
    set trf [open $::env(RW_TRACE) w]
    $ns trace-queue $S $R $trf
    $ns trace-queue $R $AD $trf
    $ns trace-queue $R $BD $trf
    $ns trace-queue $S $AS $trf
    $ns trace-queue $S $BS $trf
}

# RW_SAMPLE=dt (gap check, ../gaps/rossi_red_avg.sh): sample dsRED's RIO-C state at S every dt
# seconds until t_stop -- the green and red averages (getAverageV 0 0|1) and the physical queue
# (getCurrent 0, waiting packets) -- and print their time means and the share of samples with
# the red average above min_th (5) and above max_th (10) to stderr at the end.
if {[info exists ::env(RW_SAMPLE)]} {
    set smp(n) 0; set smp(g) 0.0; set smp(r) 0.0; set smp(q) 0.0; set smp(r5) 0; set smp(r10) 0
    proc sample {dt} {
        global ns q smp TSTOP
        set g [$q getAverageV 0 0]; set r [$q getAverageV 0 1]; set c [$q getCurrent 0]
        incr smp(n)
        set smp(g) [expr {$smp(g) + $g}]; set smp(r) [expr {$smp(r) + $r}]
        set smp(q) [expr {$smp(q) + $c}]
        if {$r > 5} { incr smp(r5) }
        if {$r > 10} { incr smp(r10) }
        set t [expr {[$ns now] + $dt}]
        if {$t < $TSTOP} { $ns at $t "sample $dt" }
    }
    $ns at 0.0 "sample $::env(RW_SAMPLE)"
    proc report_samples {} {
        global smp RHO ALPHA seed syncfg
        set n $smp(n)
        puts stderr [format "rio_sample,%g,%g,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f" $RHO $ALPHA $seed \
            $syncfg $n [expr {$smp(g) / $n}] [expr {$smp(r) / $n}] [expr {$smp(q) / $n}] \
            [expr {double($smp(r5)) / $n}] [expr {double($smp(r10)) / $n}]]
    }
    $ns at [expr {$THALT - 1e-6}] "report_samples"
}
# RW_QTRACE=file (gap check, ../gaps/rossi_red_replay.py): a trace of the S->R queue only, one
# line per enqueue '+' (written before dsRED sees the packet), dequeue '-' (after it has left
# the queue and dsRED has updated its RIO-C state) and drop 'd' (buffer full or average above
# max_th; early drops go to the flow monitor and have no line of their own) until t_stop:
#   ev time fid uid size qlen0 qlen1 avg0 avg1 n10 n12 drops edrops
# time in full double precision (ns-2's own trace prints 6 decimals; int(ptc (now - idletime_))
# needs every bit), qlen0/qlen1 = the green and red virtual
# queues (waiting packets; getCurrentV), avg0/avg1 = the RIO-C averages (getAverageV, "%f"),
# n10/n12 = dsRED's arrival counts of code points 10 and 12 and drops/edrops its forced and
# early drop counts (getStat), all at the moment of the event: from one line to the next they
# tell an arrival's code point and fate. Reading them draws nothing, so the run is unchanged.
# Not with RW_TRACE (both would trace S->R).
if {[info exists ::env(RW_QTRACE)]} {
    if {[info exists ::env(RW_TRACE)]} { puts stderr "RW_QTRACE and RW_TRACE exclusive"; exit 1 }
    set qtf [open $::env(RW_QTRACE) w]
    fconfigure $qtf -buffering full -buffersize 1048576
    $ns trace-queue $S $R [open /dev/null w]
    set lnk [$ns link $S $R]
    proc qtrace_handle {line} {
        global ns q qtf TSTOP
        set now [$ns now]
        if {$now > $TSTOP} return
        # ns-2 trace line: ev t from to type size flags fid src dst seq uid
        puts $qtf [format "%s %.17g %s %s %s %d %d %s %s %d %d %d %d" [lindex $line 0] $now \
            [lindex $line 7] [lindex $line 11] [lindex $line 5] \
            [expr {int([$q getCurrentV 0 0])}] [expr {int([$q getCurrentV 0 1])}] \
            [$q getAverageV 0 0] [$q getAverageV 0 1] \
            [expr {int([$q getStat pkts 10])}] [expr {int([$q getStat pkts 12])}] \
            [expr {int([$q getStat drops])}] [expr {int([$q getStat edrops])}]]
    }
    foreach tv {enqT_ deqT_ drpT_} {
        set tobj [$lnk set $tv]
        $tobj set callback_ 1
        $tobj proc handle {line} { qtrace_handle $line }
    }
    $ns at [expr {$THALT - 2e-6}] "flush $qtf"
}
$ns at $THALT "finish"

set t0 [new Agent/TCP/Reno]
set dl {}
foreach v {packetSize_ window_ windowInit_ syn_ delay_growth_ tcpTick_ minrto_ maxrto_ rtxcur_init_ srtt_init_ rttvar_init_ bugFix_ singledup_ maxburst_ numdupacks_ tcpip_base_hdr_size_ rfc2988_ timerfix_ restart_bugfix_ overhead_ ecn_} {
    lappend dl "$v=[$t0 set $v]"
}
puts stderr "ns-[ns-version] rossi_web rho=$RHO alpha_af=$ALPHA seed=$seed t_stop=$TSTOP t_halt=$THALT syncfg=$syncfg buf=$BUF tau_AF=$tau(AF) tau_BE=$tau(BE) ackdly=$ACKDLY :: [join $dl { }]"
if {[info exists ::env(RW_PRINTPOLICY)]} { $q printPolicyTable; $q printPolicerTable }
$ns run
