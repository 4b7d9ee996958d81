# kaur_k2.tcl -- ns-2.35 re-creation of Kaur & Vin (TR2001-1), Sec. 3.1.1 / Fig. 2:
# one TCP-Reno flow sharing a 40 Mb/s bottleneck with strict-priority EF
# (exponential on-off) or CBR traffic.
#
# Usage:
#   ns kaur_k2.tcl <net> <ton_ms> <seed> <timers> [dur_s] [warm_s] [efcorr] [trace_prefix]
#     net      : ef | cbr
#     ton_ms   : mean EF on-time in ms (ignored for cbr, but printed)
#     seed     : 1,2,3,...  (selects MRG32k3a substream of $defaultRNG)
#     timers   : def  -> ns-2.35 defaults (tcpTick_ 0.01, minrto_ 0.2, windowInit_ 2)
#                old  -> "old ns-2": tcpTick_ 0.1, minrto_ 0, windowInit_ 1
#     dur_s    : simulated seconds (default 100)
#     warm_s   : warm-up excluded from the measurement (default 10)
#     efcorr   : 0 (default) idle_time_ = T_on*(1-f)/f exactly as in the brief;
#                1 = correct idle_time_ for ns-2's burst-length rounding so
#                the *realised* EF load is exactly f (matters only for T_on=0.4ms)
#     trace_prefix : if given, write <prefix>.tr (full packet trace) and
#                <prefix>.tcp (cwnd_/ack_/t_seqno_ traces) -- diagnostics only
# Prints one CSV line (header with "#hdr" prefix when the env var KV_HDR=1).
#
# Topology (all links 40 Mb/s; one-way delays give RTP = 8 ms):
#
#     S --1.75ms--+                                 +--1.75ms-- K   (TCP sink)
#                 R1 ==========0.5ms============ R2
#     E --1ms-----+   (dsRED/core, 2 phys queues,   +--0.1ms--- X   (EF/CBR sink)
#                      strict priority, drop-tail)
#
# EF/CBR enters on its own link E->R1 and leaves on its own link R2->X, so the
# only shared queue is R1->R2 and the TCP sink link R2->K carries TCP data only.

if {$argc < 4} {
    puts stderr "usage: ns kaur_k2.tcl net ton_ms seed timers ?dur? ?warm? ?efcorr? ?trace?"
    exit 1
}
set net    [lindex $argv 0]
set ton_ms [lindex $argv 1]
set seed   [lindex $argv 2]
set timers [lindex $argv 3]
set dur    [expr {$argc > 4 ? [lindex $argv 4] : 100.0}]
set warm   [expr {$argc > 5 ? [lindex $argv 5] : 10.0}]
set efcorr [expr {$argc > 6 ? [lindex $argv 6] : 0}]
set tpfx   [expr {$argc > 7 ? [lindex $argv 7] : ""}]

# TCP variant: KV_TCP=sack in the environment runs Agent/TCP/Sack1 with the SACK sink
# Agent/TCPSink/Sack1 (ns-2.35 defaults: maxSackBlocks_ 3) instead of Reno (run_sack.sh)
if {[info exists env(KV_TCP)] && $env(KV_TCP) == "sack"} {
    set TCPAGENT Agent/TCP/Sack1
    set SINKAGENT Agent/TCPSink/Sack1
} else {
    set TCPAGENT Agent/TCP/Reno
    set SINKAGENT Agent/TCPSink
}
# ---------------------------------------------------------------- constants
set BW      40e6        ;# all links, b/s
set F       0.3         ;# EF / CBR share of the bottleneck
set EFPKT   1500        ;# EF/CBR packet size, bytes (UDP adds no header in ns-2)
set TCPPAY  536         ;# TCP payload; ns-2 adds 40 B TCP/IP header -> 576 B on the wire
set TCPWIRE 576
set BUF_B   200000      ;# 200 KB buffers ...
set QLIM    [expr {int($BUF_B / $TCPWIRE)}]   ;# ... = 347 packets (queues are in packets)

# ---------------------------------------------------------------- RNG
# All randomness (EF burst lengths and idle times) comes from $defaultRNG.
# Fixed base seed, then advance to substream <seed>: independent streams.
global defaultRNG
$defaultRNG seed 12345
for {set i 1} {$i < $seed} {incr i} { $defaultRNG next-substream }

set ns [new Simulator]
if {$tpfx != ""} {
    set trf [open $tpfx.tr w]
    $ns trace-all $trf
}

# ---------------------------------------------------------------- topology
set S  [$ns node]
set E  [$ns node]
set R1 [$ns node]
set R2 [$ns node]
set K  [$ns node]
set X  [$ns node]

$ns duplex-link  $S  $R1 40Mb 1.75ms DropTail
$ns duplex-link  $E  $R1 40Mb 1ms    DropTail
$ns simplex-link $R1 $R2 40Mb 0.5ms  dsRED/core
$ns simplex-link $R2 $R1 40Mb 0.5ms  DropTail
$ns duplex-link  $R2 $K  40Mb 1.75ms DropTail
$ns duplex-link  $R2 $X  40Mb 0.1ms  DropTail

# 347-packet buffers everywhere (ns default is 50).
foreach {a b} [list $S $R1 $R1 $S $E $R1 $R1 $E $R1 $R2 $R2 $R1 $R2 $K $K $R2 $R2 $X $X $R2] {
    $ns queue-limit $a $b $QLIM
}

# ---- strict priority on R1->R2 with Queue/dsRED/core
# Two physical queues; queue 0 (EF, code point 46) always served first
# (setSchedularMode PRI, no max rate => pure non-preemptive strict priority).
# Each physical queue has its own limit (= link queue-limit, 347 pkts), so
# EF never occupies TCP's buffer. MRED mode DROP = plain drop-tail at
# min(qlim, th_min); th_min is set to QLIM.
set q [[$ns link $R1 $R2] queue]
$q meanPktSize $TCPWIRE
$q set numQueues_ 2
$q setNumPrec 1
$q setSchedularMode PRI
$q addPHBEntry 46 0 0          ;# EF/CBR  -> physical queue 0 (high priority)
$q addPHBEntry 0  1 0          ;# TCP (prio_ 0) -> physical queue 1
$q setMREDMode DROP
$q configQ 0 0 $QLIM $QLIM 0.1
$q configQ 1 0 $QLIM $QLIM 0.1

# ---------------------------------------------------------------- TCP
set tcp [new $TCPAGENT]
$tcp set packetSize_ $TCPPAY
$tcp set window_ 1000          ;# large advertised window
$tcp set fid_ 1
$tcp set prio_ 0
if {$timers == "old"} {
    $tcp set tcpTick_ 0.1
    $tcp set minrto_ 0
    $tcp set windowInit_ 1
} elseif {$timers != "def"} {
    puts stderr "timers must be def or old"; exit 1
}
set sink [new $SINKAGENT]
$ns attach-agent $S $tcp
$ns attach-agent $K $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"          ;# backlogged

# ---------------------------------------------------------------- EF / CBR
set udp [new Agent/UDP]
$udp set packetSize_ $EFPKT     ;# else UDP fragments app data into 1000 B pkts
$udp set prio_ 46
$udp set fid_ 2
set lm [new Agent/LossMonitor]
$ns attach-agent $E $udp
$ns attach-agent $X $lm
$ns connect $udp $lm

set idle_s 0
if {$net == "ef"} {
    set ton  [expr {$ton_ms / 1000.0}]
    set ipt  [expr {$EFPKT * 8.0 / $BW}]    ;# 0.3 ms: EF sends at link speed
    if {$efcorr} {
        # ns-2 Exponential: burst = max(1, round(Exp(mean ton/ipt))) packets,
        # so the realised mean on-time exceeds ton for small ton.
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
} elseif {$net == "cbr"} {
    set src [new Application/Traffic/CBR]
    $src set packetSize_ $EFPKT
    $src set rate_ [expr {$F * $BW}]       ;# 12 Mb/s -> one 1500 B pkt per ms
} else {
    puts stderr "net must be ef or cbr"; exit 1
}
$src attach-agent $udp
$ns at 0.0 "$src start"

# ---------------------------------------------------------------- monitors
set nullf [open /dev/null w]
set qm_acc [$ns monitor-queue $S  $R1 $nullf]   ;# TCP access queue
set qm_bn  [$ns monitor-queue $R1 $R2 $nullf]   ;# bottleneck (EF+TCP)
set qm_k   [$ns monitor-queue $R2 $K  $nullf]   ;# TCP data delivered to sink

if {$tpfx != ""} {
    set tcpf [open $tpfx.tcp w]
    $tcp attach $tcpf
    $tcp trace cwnd_
    $tcp trace ack_
    $tcp trace t_seqno_
}

# snapshot counters at the end of warm-up and at the end
proc snap {} {
    global tcp qm_acc qm_bn qm_k q lm sink
    return [list \
        [$tcp set ack_] [$tcp set nrexmit_] [$tcp set nrexmitpack_] \
        [$tcp set ncwndcuts_] [$tcp set ndatapack_] \
        [$qm_acc set pdrops_] [$qm_k set pdepartures_] [$qm_k set bdepartures_] \
        [$q getStat drops 0] [$q getStat drops 46] [$q getStat pkts 46] \
        [$lm set npkts_] [$lm set bytes_] [$sink set bytes_] ]
}
set S0 {}
$ns at $warm "set S0 \[snap\]"

proc finish {} {
    global S0 tcp ns net ton_ms seed timers dur warm efcorr idle_s BW TCPWIRE F tpfx
    set S1 [snap]
    set d {}
    foreach a $S0 b $S1 { lappend d [expr {$b - $a}] }
    foreach {dack dto drxp dcut ddat dacc dkp dkb dbt dbe def dlp dlb dsb} $d break
    set T [expr {$dur - $warm}]
    set avail [expr {(1.0 - $F) * $BW}]
    # goodput: TCPSink bytes_ = bytes delivered in order to the application,
    # counted in wire size (576 B per segment) -> unique segments x 576 B
    set good_bps [expr {$dsb * 8.0 / $T}]
    set uniq     [expr {$dsb / $TCPWIRE}]
    set wire_bps [expr {$dkb * 8.0 / $T}]                 ;# all TCP pkts delivered (incl. dups)
    set dups     [expr {$dkp - $uniq}]                    ;# duplicate deliveries at the sink
    set ackgood  [expr {$dack * $TCPWIRE * 8.0 / $T}]     ;# cross-check: sender's ack_ advance
    set ef_frac  [expr {$dlb * 8.0 / $T / $BW}]
    set ef_lost  [expr {$def - $dlp}]                     ;# approx (in-flight at edges)
    if {[info exists ::env(KV_HDR)] && $::env(KV_HDR) == 1} {
        puts "network,ton_ms,seed,timers,efcorr,idle_ms,U_good,U_wire,goodput_mbps,wire_mbps,timeouts,rexmit_pkts,cwnd_cuts,data_pkts_sent,dup_deliveries,drops_access,drops_bneck_tcp,drops_bneck_ef,ef_pkts_bneck,ef_pkts_rcvd,ef_frac_meas,U_avail,U_ack"
    }
    puts [format "%s,%s,%d,%s,%d,%.4f,%.5f,%.5f,%.4f,%.4f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.4f,%.5f,%.5f" \
        $net $ton_ms $seed $timers $efcorr [expr {$idle_s*1000.0}] \
        [expr {$good_bps/$avail}] [expr {$wire_bps/$avail}] \
        [expr {$good_bps/1e6}] [expr {$wire_bps/1e6}] \
        $dto $drxp $dcut $ddat $dups $dacc [expr {int($dbt)}] [expr {int($dbe)}] \
        [expr {int($def)}] $dlp $ef_frac \
        [expr {$good_bps / ((1.0 - $ef_frac) * $BW)}] [expr {$ackgood/$avail}]]
    if {$tpfx != ""} { $ns flush-trace }
    exit 0
}
$ns at $dur "finish"

# print the TCP defaults actually in force (stderr, once per run)
set dl {}
foreach v {tcpTick_ minrto_ maxrto_ windowInit_ bugFix_ rtxcur_init_ rfc2988_ timerfix_ singledup_ maxburst_ window_ packetSize_ tcpip_base_hdr_size_} {
    lappend dl "$v=[$tcp set $v]"
}
puts stderr "ns-[ns-version] $net ton=$ton_ms seed=$seed timers=$timers qlim=$QLIM :: [join $dl { }]"

$ns run
