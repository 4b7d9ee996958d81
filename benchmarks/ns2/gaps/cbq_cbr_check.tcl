# ns-2.35 CBQ with two bounded classes (okborrow 0), as ../matta_guo/matta_guo.tcl's `iso` mode
# sets them up, fed by a 20 Mb/s CBR stream (576-B packets) in class 1 only: does a bounded
# class get its allotment when it is always backlogged? 12.5 Mb/s link (k = 4's 5 C_u).
#   ns cbq_cbr_check.tcl <allot of class 1> <maxidle: auto or seconds>
# Prints class 1's delivered rate over 20 s.
set a [lindex $argv 0]; set mi [lindex $argv 1]
set ns [new Simulator]
set n0 [$ns node]; set n1 [$ns node]; set s [$ns node]; set r [$ns node]
$ns duplex-link $s $n0 100Mb 1ms DropTail
$ns simplex-link $n0 $n1 12.5Mb 40ms CBQ
$ns simplex-link $n1 $n0 12.5Mb 40ms DropTail
$ns duplex-link $n1 $r 1Gb 5ms DropTail
set L [$ns link $n0 $n1]
set top [new CBQClass]; $top setparams none 0 1.0 auto 8 2 0
set c1 [new CBQClass]; set q1 [new Queue/DropTail]; $q1 set limit_ 200; $c1 install-queue $q1
$c1 setparams $top 0 $a $mi 1 1 0
set c2 [new CBQClass]; set q2 [new Queue/DropTail]; $q2 set limit_ 50; $c2 install-queue $q2
$c2 setparams $top 0 [expr 1-$a] $mi 1 1 0
$L insert $top; $L insert $c1; $L insert $c2; $L bind $c1 1; $L bind $c2 2
set u [new Agent/UDP]; $u set fid_ 1; $u set packetSize_ 576; $ns attach-agent $s $u
set nl [new Agent/LossMonitor]; $ns attach-agent $r $nl; $ns connect $u $nl
set cbr [new Application/Traffic/CBR]; $cbr set packetSize_ 576; $cbr set rate_ 20Mb; $cbr attach-agent $u
$ns at 0 "$cbr start"
proc fin {} { global nl; puts "[expr [$nl set bytes_]*8/20.0/1e6] Mb/s"; exit 0 }
$ns at 20 fin
$ns run
