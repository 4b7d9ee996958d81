# kaur_k5.tcl -- ns-2.35 re-creation of Kaur & Vin (TR2001-1), Sec. 4.1 / Fig. 5a:
# N = 64 TCP-Reno flows with equal RTP (8 ms) sharing a 40 Mb/s drop-tail bottleneck,
# with or without strict-priority EF (exponential on-off) traffic, matched to
# diffsweep's `kaur_vin` builder (sweeps/kaur_vin/k5_equal.toml).
#
# Usage:
#   ns kaur_k5.tcl <net> <ton_ms> <seed> <overhead_s> [tcpcfg] [dur_s] [warm_s] [efcorr] [nflows] [start_s] [out_prefix]
#     net        : none (TCP-only) | ef (TCP+EF)
#     ton_ms     : mean EF on-time in ms (printed but unused for none)
#     seed       : 1,2,3,... selects substream <seed> of the two RNGs below
#     overhead_s : Agent/TCP overhead_ (0 = ns-2 default; 1e-4 = 100 us send jitter)
#     tcpcfg     : ds (default) = matched to diffsweep: bugFix_ false, singledup_ 0
#                  ns          = ns-2.35 defaults: bugFix_ true, singledup_ 1
#     dur_s      : simulated seconds (default 100, as in k5_equal.toml)
#     warm_s     : warm-up excluded from the measurement (default 10)
#     efcorr     : 1 (default) scale idle_time_ so that the *realised* EF share is f = 0.30
#                  despite ns-2's whole-packet burst rounding (diffsweep's source realises
#                  exactly f); 0 = idle_time_ = T_on (1-f)/f literally
#     nflows     : number of TCP flows (default 64)
#     start_s    : 0 (default, as diffsweep's builder) = every FTP starts at t = 0;
#                  > 0 = flow i starts at U(0, start_s), drawn from a third RNG (variant)
#     out_prefix : if given, write <prefix>.run (one CSV line, header in <prefix>.hdr) and
#                  <prefix>.flows (one CSV line per flow); otherwise print the run line
#
# Topology (all links 40 Mb/s; one-way delays give every flow RTP = 8 ms):
#
#   S_i --1.75ms--+                                   +--1.75ms-- K_i   (TCPSink of flow i)
#   (i=1..64)     R1 ===========0.5 ms============== R2                 (i=1..64)
#   E ----1ms-----+   dsRED/core: 2 physical queues,  +--0.1ms--- X     (EF sink)
#                     strict priority (PRI), drop-tail
#
# Each flow has its own access link S_i->R1 (diffsweep: one access link per flow, 200 KB
# drop-tail) and its own egress link R2->K_i. EF enters on its own link E->R1 and leaves on
# R2->X, so it shares only the R1->R2 link, where it has strict priority and its own buffer.

if {$argc < 4} {
    puts stderr "usage: ns kaur_k5.tcl net ton_ms seed overhead_s ?tcpcfg? ?dur? ?warm? ?efcorr? ?nflows? ?start_s? ?out_prefix?"
    exit 1
}
set net      [lindex $argv 0]
set ton_ms   [lindex $argv 1]
set seed     [lindex $argv 2]
set overhead [lindex $argv 3]
set tcpcfg   [expr {$argc > 4 ? [lindex $argv 4] : "ds"}]
set dur      [expr {$argc > 5 ? [lindex $argv 5] : 100.0}]
set warm     [expr {$argc > 6 ? [lindex $argv 6] : 10.0}]
set efcorr   [expr {$argc > 7 ? [lindex $argv 7] : 1}]
set N        [expr {$argc > 8 ? [lindex $argv 8] : 64}]
set spread   [expr {$argc > 9 ? [lindex $argv 9] : 0}]
set opfx     [expr {$argc > 10 ? [lindex $argv 10] : ""}]

# ---------------------------------------------------------------- constants
set BW      40e6        ;# every link, b/s
set F       0.3         ;# EF share of the bottleneck
set EFPKT   1500        ;# EF packet size, bytes (ns-2 UDP adds no header)
set TCPPAY  536         ;# TCP payload (packetSize_); ns-2 adds 40 B TCP/IP header
set TCPWIRE 576         ;#   -> 576 B on the wire (diffsweep header_bytes = 40)
set BUF_B   200000      ;# 200 KB = 40 Mb/s x 40 ms
# ns-2 queues count packets: 200000 B / 576 B = 347 packets (diffsweep: access_pkts =
# 200000 // 576 = 347; its byte-limited bottleneck class also holds 347 576-B packets).
set QLIM    [expr {int($BUF_B / $TCPWIRE)}]
# diffsweep's limit counts the packet being transmitted. ns-2 DropTail holds at most
# qlim-1 waiting + 1 on the wire = qlim (same). dsRED holds qlim *waiting* + 1 on the wire,
# so the bottleneck's TCP queue gets QLIM-1 = 346 to hold 347 in all (checked with a trace).
set QLIM_DS [expr {$QLIM - 1}]
set RTP_MS  8.0
set BN_MS   0.5                                   ;# diffsweep bottleneck_delay_ms
set SIDE_MS [expr {($RTP_MS/2.0 - $BN_MS) / 2.0}] ;# = 1.75 ms access and egress

# ---------------------------------------------------------------- RNGs
# Two independent MRG32k3a generators, each advanced to substream <seed>:
#  * $defaultRNG: everything ns-2 draws by default -- here only TCP's overhead_ jitter
#    (Random::uniform(overhead_) in TcpAgent::send_much).
#  * efrng: the EF on/off source only. So for a given seed the EF sequence is the same
#    with overhead_ 0 and 1e-4 (common random numbers).
global defaultRNG
$defaultRNG seed 12345
for {set i 1} {$i < $seed} {incr i} { $defaultRNG next-substream }
set efrng [new RNG]
$efrng seed 67890
for {set i 1} {$i < $seed} {incr i} { $efrng next-substream }
#  * startrng: start times (only with start_s > 0).
set startrng [new RNG]
$startrng seed 24680
for {set i 1} {$i < $seed} {incr i} { $startrng next-substream }

set ns [new Simulator]

# ---------------------------------------------------------------- topology
set R1 [$ns node]
set R2 [$ns node]
set E  [$ns node]
set X  [$ns node]
$ns duplex-link  $E  $R1 40Mb 1ms    DropTail
$ns simplex-link $R1 $R2 40Mb ${BN_MS}ms dsRED/core
$ns simplex-link $R2 $R1 40Mb ${BN_MS}ms DropTail
$ns duplex-link  $R2 $X  40Mb 0.1ms  DropTail
foreach {a b} [list $E $R1 $R1 $E $R2 $R1 $R2 $X $X $R2] { $ns queue-limit $a $b $QLIM }
$ns queue-limit $R1 $R2 $QLIM_DS

for {set i 0} {$i < $N} {incr i} {
    set S($i) [$ns node]
    set K($i) [$ns node]
    $ns duplex-link $S($i) $R1 40Mb ${SIDE_MS}ms DropTail
    $ns duplex-link $R2 $K($i) 40Mb ${SIDE_MS}ms DropTail
    foreach {a b} [list $S($i) $R1 $R1 $S($i) $R2 $K($i) $K($i) $R2] { $ns queue-limit $a $b $QLIM }
}

# ---- strict priority on R1->R2 with Queue/dsRED/core (as in kaur_k2.tcl)
# Physical queue 0 (EF, code point 46) is always served first (setSchedularMode PRI, no
# rate cap => non-preemptive strict priority); queue 1 holds TCP (code point 0). MRED
# mode DROP with th_min = queue limit = plain drop-tail. Each physical queue has its own
# limit, so EF never takes TCP's buffer (the paper's footnote 1).
set q [[$ns link $R1 $R2] queue]
$q meanPktSize $TCPWIRE
$q set numQueues_ 2
$q setNumPrec 1
$q setSchedularMode PRI
$q addPHBEntry 46 0 0
$q addPHBEntry 0  1 0
$q setMREDMode DROP
$q configQ 0 0 $QLIM $QLIM 0.1
$q configQ 1 0 $QLIM_DS $QLIM_DS 0.1

# ---------------------------------------------------------------- TCP flows
# TCP variant: KV_TCP=sack in the environment runs Agent/TCP/Sack1 with the SACK sink
# Agent/TCPSink/Sack1 (ns-2.35 defaults: maxSackBlocks_ 3) instead of Reno (run_sack.sh)
if {[info exists env(KV_TCP)] && $env(KV_TCP) == "sack"} {
    set TCPAGENT Agent/TCP/Sack1
    set SINKAGENT Agent/TCPSink/Sack1
} else {
    set TCPAGENT Agent/TCP/Reno
    set SINKAGENT Agent/TCPSink
}
Agent/TCP set overhead_ $overhead
for {set i 0} {$i < $N} {incr i} {
    set tcp($i) [new $TCPAGENT]
    $tcp($i) set packetSize_ $TCPPAY
    $tcp($i) set window_ 1000          ;# diffsweep max_window_pkts = 1000
    $tcp($i) set fid_ [expr {$i + 10}]
    $tcp($i) set prio_ 0
    $tcp($i) set overhead_ $overhead
    if {$tcpcfg == "ds"} {
        # diffsweep's Reno: reno_bugfix=False (builder default), no limited transmit.
        $tcp($i) set bugFix_ false
        $tcp($i) set singledup_ 0
    } elseif {$tcpcfg != "ns"} {
        puts stderr "tcpcfg must be ds or ns"; exit 1
    }
    # tcpTick_ 0.01, minrto_ 0.2, windowInit_ 2, maxburst_ 0: ns-2.35 defaults = diffsweep's.
    set sink($i) [new $SINKAGENT]
    $ns attach-agent $S($i) $tcp($i)
    $ns attach-agent $K($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    # backlogged; all flows start at t = 0 as in the builder (start_s = 0)
    set t0($i) [expr {$spread > 0 ? [$startrng uniform 0 $spread] : 0.0}]
    $ns at $t0($i) "$ftp($i) start"
}

# ---------------------------------------------------------------- EF
set udp [new Agent/UDP]
$udp set packetSize_ $EFPKT
$udp set prio_ 46
$udp set fid_ 2
set lm [new Agent/LossMonitor]
$ns attach-agent $E $udp
$ns attach-agent $X $lm
$ns connect $udp $lm

set idle_s 0
if {$net == "ef"} {
    set ton [expr {$ton_ms / 1000.0}]
    set ipt [expr {$EFPKT * 8.0 / $BW}]    ;# 0.3 ms: EF sends at line rate while on
    if {$efcorr} {
        # ns-2's Exponential source: burst = max(1, round(Exp(mean ton/ipt))) packets, so
        # the mean burst exceeds ton/ipt; scale the idle time so the share is exactly f.
        set m  [expr {$ton / $ipt}]
        set en [expr {exp(0.5/$m)/(exp(1.0/$m)-1.0) + 1.0 - exp(-0.5/$m)}]
        set idle_s [expr {$en * $ipt * (1.0-$F)/$F}]
    } else {
        set idle_s [expr {$ton * (1.0-$F)/$F}]
    }
    set src [new Application/Traffic/Exponential]
    $src set packetSize_ $EFPKT
    $src set rate_ $BW
    $src set burst_time_ $ton
    $src set idle_time_ $idle_s
    $src use-rng $efrng
    $src attach-agent $udp
    $ns at 0.0 "$src start"
} elseif {$net != "none"} {
    puts stderr "net must be ef or none"; exit 1
}

# ---------------------------------------------------------------- monitors
# Diagnostics only (check_k5.sh): KV_TRACEQ=<file> traces the R1->R2 queue;
# KV_TRACE0=<file> traces flow 0's access link in both directions (S_0->R1 and R1->S_0).
if {[info exists ::env(KV_TRACEQ)]} {
    set trq [open $::env(KV_TRACEQ) w]
    $ns trace-queue $R1 $R2 $trq
}
if {[info exists ::env(KV_TRACE0)]} {
    set tr0 [open $::env(KV_TRACE0) w]
    $ns trace-queue $S(0) $R1 $tr0
    $ns trace-queue $R1 $S(0) $tr0
}
set nullf [open /dev/null w]
set qm_bn [$ns monitor-queue $R1 $R2 $nullf]
for {set i 0} {$i < $N} {incr i} {
    set qm_acc($i) [$ns monitor-queue $S($i) $R1 $nullf]
}

proc snap {} {
    global N tcp sink qm_acc qm_bn q lm
    set s {}
    for {set i 0} {$i < $N} {incr i} {
        lappend s [list [$sink($i) set bytes_] [$tcp($i) set nrexmit_] \
            [$tcp($i) set nrexmitpack_] [$tcp($i) set ncwndcuts_] [$qm_acc($i) set pdrops_]]
    }
    return [list $s [$qm_bn set bdepartures_] [$q getStat drops 0] [$q getStat drops 46] \
        [$lm set npkts_] [$lm set bytes_]]
}
set S0 {}
$ns at $warm "set S0 \[snap\]"

proc finish {} {
    global S0 N ns net ton_ms seed overhead tcpcfg dur warm efcorr idle_s BW TCPWIRE TCPPAY F opfx spread
    set S1 [snap]
    set T [expr {$dur - $warm}]
    set x {}; set sto 0; set srx 0; set scut 0; set sacc 0; set tot 0.0; set sq 0.0
    set flines {}
    for {set i 0} {$i < $N} {incr i} {
        foreach {b0 to0 rx0 c0 a0} [lindex [lindex $S0 0] $i] break
        foreach {b1 to1 rx1 c1 a1} [lindex [lindex $S1 0] $i] break
        # TCPSink bytes_ = in-order bytes delivered, 576 B per unique segment
        set gb [expr {($b1 - $b0) * 8.0 / $T}]          ;# b/s on the wire (576 B/segment)
        lappend x $gb
        set tot [expr {$tot + $gb}]; set sq [expr {$sq + $gb*$gb}]
        set dto [expr {$to1-$to0}]; set drx [expr {$rx1-$rx0}]; set dcut [expr {$c1-$c0}]
        set dacc [expr {$a1-$a0}]
        incr sto $dto; incr srx $drx; incr scut $dcut; incr sacc $dacc
        lappend flines [format "%s,%s,%d,%g,%s,%d,%g,%d,%.1f,%.1f,%d,%d,%d,%d" $net $ton_ms $seed \
            $overhead $tcpcfg $efcorr $spread $i $gb [expr {$gb * $TCPPAY / $TCPWIRE}] $dto $drx $dcut $dacc]
    }
    set xs [lsort -real $x]
    set mn [lindex $xs 0]; set mx [lindex $xs end]
    set M [expr {$mx > 0 ? $mn / $mx : 0}]
    set jain [expr {$sq > 0 ? $tot*$tot / ($N * $sq) : 0}]
    set dbn [expr {[lindex $S1 1] - [lindex $S0 1]}]
    set dbt [expr {int([lindex $S1 2] - [lindex $S0 2])}]
    set dbe [expr {int([lindex $S1 3] - [lindex $S0 3])}]
    set dlb [expr {[lindex $S1 5] - [lindex $S0 5]}]
    set ef_frac [expr {$dlb * 8.0 / $T / $BW}]
    set avail [expr {$net == "ef" ? (1.0 - $F) * $BW : $BW}]
    set U [expr {$tot / $avail}]
    set U_avail [expr {$tot / ((1.0 - $ef_frac) * $BW)}]
    set busy [expr {$dbn * 8.0 / $T / $BW}]
    set nstarved 0
    foreach v $x { if {$v < 0.1 * $tot / $N} { incr nstarved } }
    set hdr "network,ton_ms,seed,overhead_s,tcpcfg,efcorr,start_s,n_flows,dur_s,warm_s,M,jain,U,U_avail,bneck_busy,ef_share,goodput_mbps,min_flow_mbps,max_flow_mbps,flows_below_10pct_fair,timeouts,rexmit_pkts,cwnd_cuts,drops_access,drops_bneck_tcp,drops_bneck_ef,idle_ms"
    set line [format "%s,%s,%d,%g,%s,%d,%g,%d,%g,%g,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f,%.4f,%.4f,%.4f,%d,%d,%d,%d,%d,%d,%d,%.4f" \
        $net $ton_ms $seed $overhead $tcpcfg $efcorr $spread $N $dur $warm $M $jain $U $U_avail $busy $ef_frac \
        [expr {$tot/1e6}] [expr {$mn/1e6}] [expr {$mx/1e6}] $nstarved $sto $srx $scut $sacc $dbt $dbe \
        [expr {$idle_s*1000.0}]]
    if {[info exists ::env(KV_TRACEQ)] || [info exists ::env(KV_TRACE0)]} { $ns flush-trace }
    if {$opfx != ""} {
        set f [open $opfx.hdr w]; puts $f $hdr; close $f
        set f [open $opfx.run w]; puts $f $line; close $f
        set f [open $opfx.flows w]
        foreach l $flines { puts $f $l }
        close $f
    } else {
        puts $hdr
        puts $line
    }
    exit 0
}
$ns at $dur "finish"

set dl {}
foreach v {tcpTick_ minrto_ maxrto_ windowInit_ bugFix_ rtxcur_init_ rfc2988_ timerfix_ singledup_ maxburst_ window_ packetSize_ tcpip_base_hdr_size_ overhead_} {
    lappend dl "$v=[$tcp(0) set $v]"
}
puts stderr "ns-[ns-version] k5 $net ton=$ton_ms seed=$seed tcpcfg=$tcpcfg N=$N start_s=$spread qlim=$QLIM/$QLIM_DS :: [join $dl { }]"

$ns run
