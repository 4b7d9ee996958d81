# One 10-packet Reno connection alone on Matta & Guo's path (10 Mb/s 5 ms access, 2.5 Mb/s 40 ms
# bottleneck, 1 Gb/s 5 ms to the sink), with the TCP settings of ../matta_guo/matta_guo.tcl
# (tcpcfg ds: windowInit_ 1, syn_ false, no bugFix_, no limited transmit, tick 0.5 s).
#   ns one_connection.tcl <delay_growth 0|1>
# Prints every data packet and ACK leaving the bottleneck queue (time, seqno) and the time the
# sender's `done` fires. With delay_growth_ 1 (ns-2.35's default) the ACK of seqno 0 resets
# cwnd to windowInit_ (tcp-reno.cc: `if (last_ack_ == 0 && delay_growth_) cwnd_ =
# initial_window();`), so the second round trip carries 1 packet instead of 2.
set dg [lindex $argv 0]
set ns [new Simulator]
Agent/TCP set packetSize_ 536
Agent/TCP set window_ 128
Agent/TCP set windowInit_ 1
Agent/TCP set syn_ false
Agent/TCP set tcpTick_ 0.5
Agent/TCP set bugFix_ false
Agent/TCP set singledup_ 0
Agent/TCP set delay_growth_ $dg
set s [$ns node]; set n0 [$ns node]; set n1 [$ns node]; set R [$ns node]
$ns duplex-link $s $n0 10Mb 5ms DropTail
$ns duplex-link $n0 $n1 2.5Mb 40ms DropTail
$ns duplex-link $n1 $R 1Gb 5ms DropTail
set tmp [exec mktemp]
set tf [open $tmp w]
$ns trace-queue $n0 $n1 $tf
$ns trace-queue $n1 $n0 $tf
set tcp [new Agent/TCP/Reno]; set sink [new Agent/TCPSink]
$ns attach-agent $s $tcp; $ns attach-agent $R $sink; $ns connect $tcp $sink
$tcp proc done {} { global ns; puts "done (last ACK at the sender) [format %.6f [$ns now]] s; started 0.1 s" }
proc fin {} {
    global tf tmp dg
    close $tf
    set f [open $tmp r]
    puts "delay_growth_ $dg: departures from the bottleneck queues (time s, packet, seqno)"
    while {[gets $f line] >= 0} {
        if {[lindex $line 0] == "-"} { puts "  [lindex $line 1] [lindex $line 4] [lindex $line 10]" }
    }
    close $f
    file delete $tmp
    exit 0
}
$ns at 0.1 "$tcp advanceby 10"
$ns at 2 "fin"
$ns run
