# Matta & Guo, "Differentiated Predictive Fair Service for TCP Flows", Sec. 4.2-4.3 (Figs. 3-5,
# Table 2) on ns-2.35, matched to diffsweep's builder `matta_guo`
# (python/diffsweep/papers/matta_guo/scenario.py, sweeps/matta_guo/m3|m4|m5.toml).
#
#   ns matta_guo.tcl <mode> <n> <k> <buffer_ratio> <seed> [dur_s] [tcpcfg] [out_prefix]
#
#   mode         : iso   = isolation with ns-2's CBQ on the bottleneck: two bounded classes
#                          (okborrow 0), allot 1/(1+k) (short) and k/(1+k) (long), each with its
#                          own DropTail queue (the paper's "class-based queueing (CBQ)")
#                  pipes = isolation as two separate bottleneck links (C_u and k C_u, 40 ms, own
#                          buffers): exactly diffsweep's model of CBQ without lending
#                          (docs/model.md, "Class-based isolation"); a sensitivity check
#                  share = one DropTail FIFO of (1+k) C_u and the sum of both buffers
#   n            : sessions per class (30: Fig. 3 and 5; 60: Fig. 4)
#   k            : the long pipe in C_u (the short pipe is 1 C_u)
#   buffer_ratio : k_b / k_c (1 in Figs. 3-4; Fig. 5 varies it, with k = 4)
#   seed         : 1, 2, ...: substream of ns-2's MRG32k3a generators
#   dur_s        : simulated time (default 200, as the full diffsweep sweeps)
#   tcpcfg       : ds (default) = matched to diffsweep's TcpFlow: bugFix_ false, singledup_ 0
#                  (no limited transmit), windowInit_ 1, syn_ false, tcpTick_ 0.5
#                  ns = the same with ns-2.35's bugFix_ true, singledup_ 1
#                  dsng = ds with delay_growth_ false (a sensitivity check: docs/ns2-gaps.md)
#                  dsov = ds with every TCP send delayed U(0, 10 us) (overhead_ 1e-5): packets
#                         reaching a queue at the same instant meet in a random order instead
#                         of the one floating-point rounding gives them (docs/ns2-gaps.md)
#   out_prefix   : write <prefix>.conn (one line per connection) and <prefix>.run; default:
#                  both to stdout
#
# Set-up (Table 2 and diffsweep's reading of it):
#   * C_u = 2.5 Mb/s, B_u = 50 packets, 576-B packets (packetSize_ 536 + 40 B header),
#     window_ 128, bottleneck 40 ms, access links 4 C_u = 10 Mb/s, 5 ms, 4000-packet DropTail,
#     one per session (and per telnet flow). Receivers share one node R behind a 1 Gb/s, 5 ms
#     link (diffsweep's egress is a pure 5-ms delay); ACKs return R -> n1 -> n0 -> S over the
#     reverse links (never congested: two-way propagation 100 ms as in the paper).
#   * Buffers: max(1, round(buffer_ratio x k x 50)) packets per pipe (short: k = 1); sharing
#     uses the sum. ns-2 DropTail holds limit-1 waiting packets + the one on the wire, which
#     is diffsweep's count (the limit includes the packet being sent).
#   * N sessions of back-to-back 10-packet (short) and N of 1000-packet (long) connections;
#     each session's first connection starts at U(0, 5) s, every next one Exp(1 ms) after the
#     last one's final ACK reached the sender (TcpAgent `done`), as a new connection of the
#     session's agent pair (`$tcp reset`, `$sink reset`: cwnd = windowInit_, RTO estimator
#     re-initialised, packets of the older incarnation discarded by timestamp).
#   * 6 telnet flows (Application/Telnet, interval_ 0: tcplib's distribution), 3 per pipe
#     under isolation (flow i on the short pipe when i is even), starting at t = 0.
#   * Connection end time recorded as the time its last packet reached the sink: the sender's
#     `done` time less the one-way ACK time (ACKDLY: 50 ms + three 40-B transmissions).
set MODE  [lindex $argv 0]
set N     [lindex $argv 1]
set K     [lindex $argv 2]
set RATIO [lindex $argv 3]
set seed  [lindex $argv 4]
set DUR   [expr {$argc > 5 ? double([lindex $argv 5]) : 200.0}]
set tcpcfg [expr {$argc > 6 ? [lindex $argv 6] : "ds"}]
set opfx  [expr {$argc > 7 ? [lindex $argv 7] : ""}]
if {$argc < 5 || [lsearch {iso pipes share} $MODE] < 0} {
    puts stderr "usage: ns matta_guo.tcl iso|pipes|share n k buffer_ratio seed ?dur? ?ds|ns? ?out_prefix?"
    exit 1
}

set CU    2.5e6
set BU    50
set WIRE  576
set PAY   [expr {$WIRE - 40}]
set SHORT 10
set LONG  1000
set NTEL  6
set THINK 0.001
set FIRST 5.0
set ACCQ  4000
set BIGQ  100000
proc buf {kk} { global RATIO BU; set b [expr {int(floor($RATIO * $kk * $BU + 0.5))}]; return [expr {$b < 1 ? 1 : $b}] }
set BUF(short) [buf 1]
set BUF(long)  [buf $K]
set RATE(short) $CU
set RATE(long)  [expr {$K * $CU}]
set RATE(all)   [expr {(1 + $K) * $CU}]

global defaultRNG
$defaultRNG seed 12345
for {set i 1} {$i < $seed} {incr i} { $defaultRNG next-substream }
set rng [new RNG]
$rng seed 301
for {set i 1} {$i < $seed} {incr i} { $rng next-substream }

set ns [new Simulator]
Agent/TCP set packetSize_ $PAY
Agent/TCP set window_ 128
Agent/TCP set windowInit_ 1
Agent/TCP set syn_ false
Agent/TCP set tcpTick_ 0.5
if {$tcpcfg == "ds" || $tcpcfg == "dsng" || $tcpcfg == "dsov"} {
    Agent/TCP set bugFix_ false
    Agent/TCP set singledup_ 0
} elseif {$tcpcfg != "ns"} {
    puts stderr "tcpcfg must be ds, dsng, dsov or ns"; exit 1
}
# dsng: ds without ns-2.35's delay_growth_ (default 1: the ACK of seqno 0 -- meant for the SYN --
# resets cwnd to windowInit_, so with syn_ false a connection's slow start loses one round
# trip: 1, 1, 2, 4, 2 packets per round trip for 10 packets, instead of 1, 2, 4, 3).
if {$tcpcfg == "dsng"} { Agent/TCP set delay_growth_ false }
# MG_OVERHEAD=seconds (gap check, ../gaps/mg_ties.py): every TCP send delayed U(0, s) (ns-2's
# overhead_), so that packets arriving at a queue at the same instant meet in a random order.
if {[info exists ::env(MG_OVERHEAD)]} { Agent/TCP set overhead_ $::env(MG_OVERHEAD) }
if {$tcpcfg == "dsov"} { Agent/TCP set overhead_ 1e-5 }

# --- topology -------------------------------------------------------------------------------
set n1 [$ns node]
set R  [$ns node]
$ns duplex-link $n1 $R 1Gb 5ms DropTail
$ns queue-limit $n1 $R $BIGQ
$ns queue-limit $R $n1 $BIGQ
if {$MODE == "pipes"} {
    foreach c {short long} {
        set n0($c) [$ns node]
        $ns simplex-link $n0($c) $n1 $RATE($c) 40ms DropTail
        $ns simplex-link $n1 $n0($c) $RATE($c) 40ms DropTail
        $ns queue-limit $n0($c) $n1 $BUF($c)
        $ns queue-limit $n1 $n0($c) $BIGQ
    }
    set ACKBN(short) $RATE(short); set ACKBN(long) $RATE(long)
} else {
    set n0x [$ns node]
    set n0(short) $n0x; set n0(long) $n0x
    if {$MODE == "share"} {
        $ns simplex-link $n0x $n1 $RATE(all) 40ms DropTail
        $ns queue-limit $n0x $n1 [expr {$BUF(short) + $BUF(long)}]
    } else {
        $ns simplex-link $n0x $n1 $RATE(all) 40ms CBQ
        set L [$ns link $n0x $n1]
        set top [new CBQClass]
        $top setparams none 0 1.0 auto 8 2 0
        # maxidle: ns-2's own "auto" formula (cbq.tcl, automaxidle, gain 0.9375, priority 1)
        # with the 576-B packet; "auto" itself uses the queue's maxpkt_ and stalled a bounded
        # class in a test once the other class went idle.
        foreach c {short long} fid {1 2} {
            set allot [expr {$RATE($c) / $RATE(all)}]
            set g 0.9375; set gn [expr {pow($g, 8)}]
            set first [expr {((1.0 / $allot) - 1) * (1 - $gn) / $gn}]
            set mi [expr {$WIRE * 8.0 / $RATE(all) * ($first > 1 - $g ? $first : 1 - $g)}]
            set cl($c) [new CBQClass]
            set q($c) [new Queue/DropTail]
            $q($c) set limit_ $BUF($c)
            $cl($c) install-queue $q($c)
            if {[info exists ::env(MG_MAXIDLE)]} { set mi $::env(MG_MAXIDLE) }
            $cl($c) setparams $top 0 $allot $mi 1 1 0
            set MAXIDLE($c) $mi
        }
        $L insert $top
        foreach c {short long} fid {1 2} { $L insert $cl($c); $L bind $cl($c) $fid }
    }
    $ns simplex-link $n1 $n0x $RATE(all) 40ms DropTail
    $ns queue-limit $n1 $n0x $BIGQ
    set ACKBN(short) $RATE(all); set ACKBN(long) $RATE(all)
}
foreach c {short long} {
    set ACKDLY($c) [expr {0.050 + 320.0 / 1e9 + 320.0 / $ACKBN($c) + 320.0 / (4 * $CU)}]
}
set FID(short) 1
set FID(long) 2

proc sender_node {c} {
    global ns n0 CU ACCQ BIGQ
    set s [$ns node]
    $ns simplex-link $s $n0($c) [expr {4 * $CU}] 5ms DropTail
    $ns simplex-link $n0($c) $s [expr {4 * $CU}] 5ms DropTail
    $ns queue-limit $s $n0($c) $ACCQ
    $ns queue-limit $n0($c) $s $BIGQ
    return $s
}

# --- sessions ---------------------------------------------------------------------------------
set SIZE(short) $SHORT
set SIZE(long)  $LONG
set records {}
foreach c {short long} {
    for {set i 0} {$i < $N} {incr i} {
        set s [sender_node $c]
        set tcp($c,$i) [new Agent/TCP/Reno]
        set sink($c,$i) [new Agent/TCPSink]
        $tcp($c,$i) set fid_ $FID($c)
        $ns attach-agent $s $tcp($c,$i)
        $ns attach-agent $R $sink($c,$i)
        $ns connect $tcp($c,$i) $sink($c,$i)
        $tcp($c,$i) proc done {} [list conn_done $c $i]
        set nconn($c,$i) 0
        set t0($c,$i) ""
        $ns at [$rng uniform 0 $FIRST] "conn_start $c $i"
    }
}

proc conn_start {c i} {
    global ns tcp sink SIZE t0 nconn
    if {$nconn($c,$i) > 0} { $tcp($c,$i) reset; $sink($c,$i) reset }
    incr nconn($c,$i)
    set t0($c,$i) [$ns now]
    $tcp($c,$i) advanceby $SIZE($c)
}

proc conn_done {c i} {
    global ns tcp t0 SIZE records ACKDLY rng THINK nconn
    set t $tcp($c,$i)
    set now [$ns now]
    lappend records [format "%s,%d,%d,%d,%.6f,%.6f,1,%d,%d,%d" $c $i $nconn($c,$i) $SIZE($c) \
        $t0($c,$i) [expr {$now - $ACKDLY($c)}] [$t set ndatapack_] [$t set nrexmitpack_] [$t set nrexmit_]]
    set t0($c,$i) ""
    $ns at [expr {$now + [$rng exponential $THINK]}] "conn_start $c $i"
}

# --- telnet background --------------------------------------------------------------------------
for {set j 0} {$j < $NTEL} {incr j} {
    set c [expr {$j % 2 == 0 ? "short" : "long"}]
    set s [sender_node $c]
    set ttcp($j) [new Agent/TCP/Reno]
    set tsink($j) [new Agent/TCPSink]
    $ttcp($j) set fid_ $FID($c)
    $ns attach-agent $s $ttcp($j)
    $ns attach-agent $R $tsink($j)
    $ns connect $ttcp($j) $tsink($j)
    set tel($j) [new Application/Telnet]
    $tel($j) set interval_ 0
    $tel($j) attach-agent $ttcp($j)
    $ns at 0.0 "$tel($j) start"
}

# --- per-class counters at the bottleneck(s): a flow monitor keyed by fid (= class) -------------
proc mk_fmon {from} {
    global ns n1
    set fm [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $from $n1] $fm
    return $fm
}
if {$MODE == "pipes"} {
    set fmon(short) [mk_fmon $n0(short)]
    set fmon(long)  [mk_fmon $n0(long)]
} else {
    set fmon(short) [mk_fmon $n0x]
    set fmon(long)  $fmon(short)
}

proc finish {} {
    global ns tcp t0 SIZE records N MODE K RATIO seed DUR tcpcfg opfx fmon FID nconn BUF RATE
    global tsink NTEL
    set now [$ns now]
    set key [format "%s,%d,%g,%g,%d,%s,%g" $MODE $N $K $RATIO $seed $tcpcfg $DUR]
    set lines {}
    foreach r $records { lappend lines "$key,$r" }
    foreach c {short long} {
        for {set i 0} {$i < $N} {incr i} {
            if {$t0($c,$i) != ""} {
                set t $tcp($c,$i)
                lappend lines [format "%s,%s,%d,%d,%d,%.6f,,0,%d,%d,%d" $key $c $i $nconn($c,$i) \
                    $SIZE($c) $t0($c,$i) [$t set ndatapack_] [$t set nrexmitpack_] [$t set nrexmit_]]
            }
        }
    }
    set hdr "mode,n,k,buffer_ratio,seed,tcpcfg,dur_s,cls,session,conn,size_pkts,start_s,end_s,completed,pkts_sent,retransmits,timeouts"
    set st {}
    foreach c {short long} {
        set arr 0; set dep 0; set drp 0
        foreach fl [$fmon($c) flows] {
            if {[$fl set flowid_] == $FID($c)} {
                set arr [$fl set parrivals_]; set dep [$fl set pdepartures_]; set drp [$fl set pdrops_]
            }
        }
        lappend st $BUF($c) $RATE($c) $arr $dep $drp
    }
    set tel 0
    for {set j 0} {$j < $NTEL} {incr j} { set tel [expr {$tel + [$tsink($j) set bytes_]}] }
    set rhdr "mode,n,k,buffer_ratio,seed,tcpcfg,dur_s,short_buf,short_rate_bps,short_bn_arrivals,short_bn_departures,short_bn_drops,long_buf,long_rate_bps,long_bn_arrivals,long_bn_departures,long_bn_drops,telnet_bytes"
    set rline "$key,[join $st ,],$tel"
    if {$opfx != ""} {
        set f [open $opfx.conn w]; foreach l $lines { puts $f $l }; close $f
        set f [open $opfx.run w]; puts $f $rline; close $f
        set f [open $opfx.hdr w]; puts $f $hdr; puts $f $rhdr; close $f
    } else {
        puts $hdr; foreach l $lines { puts $l }; puts $rhdr; puts $rline
    }
    exit 0
}
$ns at $DUR "finish"

set tt [new Agent/TCP/Reno]
set dl {}
foreach v {packetSize_ window_ windowInit_ syn_ delay_growth_ tcpTick_ minrto_ maxrto_ rtxcur_init_ srtt_init_ rttvar_init_ bugFix_ singledup_ maxburst_ numdupacks_ tcpip_base_hdr_size_ rfc2988_ timerfix_ restart_bugfix_ overhead_ ssthresh_} {
    lappend dl "$v=[$tt set $v]"
}
set mi ""
if {$MODE == "iso"} { set mi " cbq_maxidle_s=$MAXIDLE(short)/$MAXIDLE(long)" }
puts stderr "ns-[ns-version] matta_guo mode=$MODE n=$N k=$K buffer_ratio=$RATIO seed=$seed dur=$DUR tcpcfg=$tcpcfg buf=$BUF(short)/$BUF(long)$mi :: [join $dl { }]"
$ns run
