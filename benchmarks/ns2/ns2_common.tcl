# ns2_common.tcl -- the set-up that dumbbell/dumbbell.tcl and parking_lot/parking_lot.tcl
# share (sourced by both; nothing here runs on its own).

# Seeds ns-2's $defaultRNG (RED's drops; base seed 12345) and a start-time RNG (base seed
# 24680), each at substream <seed>; returns the start-time RNG.
proc seed_rngs {seed} {
    global defaultRNG
    $defaultRNG seed 12345
    for {set i 1} {$i < $seed} {incr i} { $defaultRNG next-substream }
    set startrng [new RNG]
    $startrng seed 24680
    for {set i 1} {$i < $seed} {incr i} { $startrng next-substream }
    return $startrng
}

# One backlogged flow from node s to node d: Agent/TCP/<tcp> (fid_ <fid>) -> Agent/TCPSink
# with ns-2.35's defaults, an FTP starting at U(0, 1) s drawn from startrng. <overhead_var>:
# the environment variable that, when set, gives every agent's overhead_ (a send delayed
# U(0, s), ns-2's own timing noise: the gap checks of the READMEs). Returns {agent sink}.
proc backlogged_flow {ns s d tcp fid startrng overhead_var} {
    set t [new Agent/TCP/$tcp]
    if {[info exists ::env($overhead_var)]} { $t set overhead_ $::env($overhead_var) }
    $t set fid_ $fid
    set k [new Agent/TCPSink]
    $ns attach-agent $s $t
    $ns attach-agent $d $k
    $ns connect $t $k
    set f [new Application/FTP]
    $f attach-agent $t
    $ns at [$startrng uniform 0 1] "$f start"
    return [list $t $k]
}

# A flow monitor on link lk (early drops told apart on a RED queue only: DropTail has no
# early-drop target) with a packet integrator: the flow monitor is the link's queue monitor
# (a second one, monitor-queue, would not see the drops, which go to the flow monitor, and its
# queue would only grow). The integrator integrates the packets waiting in the queue object
# over time (the one being transmitted has left it). Returns {fmon integrator}.
proc link_monitor {ns lk aqm} {
    set fm [$ns makeflowmon Fid]
    $ns attach-fmon $lk $fm [expr {$aqm == "RED"}]
    set qi [new Integrator]
    $fm set-pkts-integrator $qi
    return [list $fm $qi]
}

# The integral of integrator qi up to now: its sum_ runs to its last change (lastx_, at value
# lasty_), the rest is added here.
proc integral_now {qi now} {
    return [expr {[$qi set sum_] + [$qi set lasty_] * ($now - [$qi set lastx_])}]
}

# The TCP values in force on agent t and the queue q's (RED's as red.cc configured them, read
# after the links are made), for the *_version_defaults files.
proc defaults_text {t q aqm} {
    set dl {}
    foreach v {tcpTick_ minrto_ maxrto_ windowInit_ maxburst_ window_ packetSize_ tcpip_base_hdr_size_ bugFix_ singledup_ syn_ delay_growth_ rtxcur_init_ overhead_} {
        if {[catch {lappend dl "$v=[$t set $v]"}]} { lappend dl "$v=n/a" }
    }
    set ql "limit_=[$q set limit_]"
    if {$aqm == "RED"} {
        foreach v {thresh_ maxthresh_ q_weight_ linterm_ mean_pktsize_ bytes_ queue_in_bytes_ gentle_ wait_ targetdelay_} {
            lappend ql "$v=[$q set $v]"
        }
    }
    return [list [join $dl { }] [join $ql { }]]
}

# One run's CSV: <prefix>.hdr and <prefix>.run, or both on stdout without a prefix.
proc write_run {opfx hdr line} {
    if {$opfx != ""} {
        set f [open $opfx.hdr w]; puts $f $hdr; close $f
        set f [open $opfx.run w]; puts $f $line; close $f
    } else {
        puts $hdr; puts $line
    }
}
