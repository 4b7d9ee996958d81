// ns-3.44 beside diffsweep's standard dumbbell (python/diffsweep/scenario/dumbbell.py,
// docs/builders.md "dumbbell"): N backlogged TCP flows, each from its own sender over its own
// access link to one router, one bottleneck link with a queue disc, and its own egress link
// to its receiver.
//
//   s_i --access_bps, A_i-- r1 ==bottleneck_bps, bottleneck_delay_ms, <queue disc>==> r2
//       --access_bps, A_i-- d_i        A_i = (rtt_i / 2 - bottleneck_delay_ms) / 2
//
// as the builder splits each flow's round-trip propagation delay rtt_i (its access and egress
// delays equal, the bottleneck's delay each way). Built with g++ against the PyPI wheel's
// headers and libraries (setup.sh). One CSV row per run on stdout (--header prints the
// header); --defaults=FILE writes every attribute value in force (ns3_defaults.txt).
//
// The settings that make ns-3 comparable to a packet-level slotted simulator, and why
// (README.md has the table):
//  * SegmentSize 1000 B of payload (the builder's segment_bytes) and no TCP timestamps, so
//    that the IP + TCP headers are 40 B (header_bytes 40); the point-to-point device adds 2 B
//    (PPP), which the engine does not model: 1042 B on the wire against 1040.
//  * SACK off and TcpClassicRecovery (RFC 6582 NewReno recovery: ns-3.44's default is PRR,
//    RFC 6937) for the builder's tcp="newreno"; --sack=1 turns SACK on for a SACK comparison.
//  * DelAckCount 1 (an ACK per segment; the builder's delayed_ack=false), InitialCwnd as given
//    (the builder's init_window_pkts), RcvBufSize = window x segment (max_window_pkts: the
//    receiver's window caps the flight as ns-2's window_ does), SndBufSize large enough never
//    to bind, MinRto 200 ms (min_rto_s), ClockGranularity 10 ms (tcp_tick_s).
//  * The bottleneck's device queue (PointToPointNetDevice TxQueue) holds 1 packet, so that
//    the queue disc is the bottleneck queue; the device still holds one packet besides the one
//    on the wire (ns-3's flow control stops the disc only when the device queue is full):
//    one packet, 0.83 ms at 10 Mb/s, of buffer the engine does not have.
//  * Traffic control on the bottleneck only: every other device's default fq_codel, which
//    Ipv4AddressHelper installs, is removed; those devices keep a drop-tail device queue of
//    access_buffer_pkts (the builder's access_buffer_pkts).
//  * ACKs return over the same links (ns-3 has no uncongested reverse path): 42-B ACKs on a
//    10 Mb/s link take 34 us each and never queue behind data.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

struct Measure
{
    double warm_s;                  // counting starts here
    std::vector<uint64_t> rxBytes;  // payload bytes at each sink, after warm_s
    std::vector<uint64_t> sent;     // data segments sent (first sends and retransmissions)
    std::vector<uint64_t> rexmit;   // retransmitted data segments
    std::vector<uint32_t> timeouts; // RTOs: entries into CA_LOSS
    uint64_t arrivals = 0, drops = 0, marks = 0;
    uint64_t deviceBytes = 0;       // bytes put on the bottleneck's wire (with the PPP header)
    std::vector<double> sojournMs;  // one per packet leaving the queue disc
    // packets waiting, integrated over time: in the queue disc, and in the bottleneck's
    // device queue (the one packet behind the one on the wire)
    struct Area
    {
        double area = 0, lastT = 0;
        uint32_t last = 0;
    } disc, device;
};

Measure g;

bool
Counting()
{
    return Simulator::Now().GetSeconds() >= g.warm_s;
}

void
SinkRx(uint32_t i, Ptr<const Packet> p, const Address&)
{
    if (Counting())
    {
        g.rxBytes[i] += p->GetSize();
    }
}

void
SocketTx(uint32_t i, Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() > 0 && Counting())
    {
        g.sent[i]++;
    }
}

void
SocketRexmit(uint32_t i,
             Ptr<const Packet> p,
             const TcpHeader&,
             const Address&,
             const Address&,
             Ptr<const TcpSocketBase>)
{
    if (p->GetSize() > 0 && Counting())
    {
        g.rexmit[i]++;
    }
}

bool g_debug = false;
int g_traceCwnd = -1; // --trace_cwnd=i: flow i's cwnd, ssthresh and states on stderr

void
TraceCwnd(uint32_t i, uint32_t, uint32_t now)
{
    std::cerr << Simulator::Now().GetSeconds() << " flow " << i << " cwnd " << now << "\n";
}

void
TraceSsThresh(uint32_t i, uint32_t, uint32_t now)
{
    std::cerr << Simulator::Now().GetSeconds() << " flow " << i << " ssthresh " << now << "\n";
}

void
CongState(uint32_t i, TcpSocketState::TcpCongState_t old, TcpSocketState::TcpCongState_t now)
{
    if (g_debug || g_traceCwnd == static_cast<int>(i))
    {
        std::cerr << Simulator::Now().GetSeconds() << " flow " << i << " "
                  << TcpSocketState::TcpCongStateName[old] << " -> "
                  << TcpSocketState::TcpCongStateName[now] << "\n";
    }
    // ns-3 enters CA_LOSS only from the retransmission timer (TcpSocketBase::ReTxTimeout)
    if (now == TcpSocketState::CA_LOSS && Counting())
    {
        g.timeouts[i]++;
    }
}

void
DiscEnqueue(Ptr<const QueueDiscItem>)
{
    if (Counting())
    {
        g.arrivals++;
    }
}

void
DiscDropBeforeEnqueue(Ptr<const QueueDiscItem>, const char*)
{
    // a packet refused at the door never fires Enqueue: it is an arrival too
    if (Counting())
    {
        g.arrivals++;
        g.drops++;
    }
}

void
DiscDropAfterDequeue(Ptr<const QueueDiscItem>, const char*)
{
    if (Counting())
    {
        g.drops++;
    }
}

void
DiscMark(Ptr<const QueueDiscItem>, const char*)
{
    if (Counting())
    {
        g.marks++;
    }
}

void
Sojourn(Time t)
{
    if (Counting())
    {
        g.sojournMs.push_back(t.GetSeconds() * 1e3);
    }
}

void
Integrate(Measure::Area* a, uint32_t, uint32_t now)
{
    double t = Simulator::Now().GetSeconds();
    double from = std::max(a->lastT, g.warm_s);
    if (t > from)
    {
        a->area += a->last * (t - from);
    }
    a->lastT = t;
    a->last = now;
}

void
PhyTxBegin(Ptr<const Packet> p)
{
    if (Counting())
    {
        g.deviceBytes += p->GetSize();
    }
}

void
HookSocket(Ptr<BulkSendApplication> app, uint32_t i)
{
    Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(app->GetSocket());
    NS_ABORT_MSG_UNLESS(s, "flow " << i << ": no TCP socket after the application started");
    s->TraceConnectWithoutContext("Tx", MakeBoundCallback(&SocketTx, i));
    s->TraceConnectWithoutContext("Retransmission", MakeBoundCallback(&SocketRexmit, i));
    s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&CongState, i));
    if (g_traceCwnd == static_cast<int>(i))
    {
        s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&TraceCwnd, i));
        s->TraceConnectWithoutContext("SlowStartThreshold", MakeBoundCallback(&TraceSsThresh, i));
    }
}

std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep))
    {
        out.push_back(item);
    }
    return out;
}

double
Percentile(std::vector<double> v, double q)
{
    // the nearest-rank percentile (numpy's "inverted_cdf"): a value some packet had
    if (v.empty())
    {
        return NAN;
    }
    std::sort(v.begin(), v.end());
    size_t k = static_cast<size_t>(std::ceil(q * v.size()));
    return v[std::max<size_t>(k, 1) - 1];
}

void
DumpDefaults(const std::string& file, const std::vector<std::string>& types)
{
    // the initial value of every attribute after the Config::SetDefault calls below: what
    // each object of these types is created with (all our settings go through SetDefault)
    std::ofstream f(file);
    f << "# ns-3 version 3.44 (PyPI ns3==3.44.post0); every attribute of the types used, as "
         "in force for this run (dumbbell.cc)\n";
    for (const auto& name : types)
    {
        TypeId tid = TypeId::LookupByName(name);
        for (uint32_t k = 0; k < tid.GetAttributeN(); k++)
        {
            TypeId::AttributeInformation a = tid.GetAttribute(k);
            f << name << "::" << a.name << " = "
              << a.initialValue->SerializeToString(a.checker) << "\n";
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t nFlows = 1;
    std::string tcp = "TcpNewReno"; // one name, or a +-list taken in turn by the flows
    std::string rtt = "40";         // ms: one value, "lo-hi" (the builder's even spread), or a
                                    // +-list, one per flow (+: the CSV keeps its commas)
    double bottleneckMbps = 10, bottleneckDelayMs = 10, accessMbps = 100;
    uint32_t bufferPkts = 50, accessBufferPkts = 50;
    std::string aqm = "FifoQueueDisc";
    bool ecn = false, sack = false, header = false;
    double durS = 35, warmS = 5, startSpreadS = 1;
    uint32_t run = 1, segment = 1000, maxWindowPkts = 1000, initCwnd = 10, delAck = 1;
    double minRtoMs = 200, clockGranMs = 10;
    uint32_t stepKPkts = 0; // > 0: RED as a step marker at K packets (DCTCP, RFC 8257 s3.1)
    // RED (aqm = RedQueueDisc, stepKPkts = 0): the values diffsweep's builder gives, from
    // ns-2.35's automatic configuration (run.sh passes them)
    double redMinTh = 5, redMaxTh = 15, redQw = 0.002, redLInterm = 50;
    uint32_t redMeanPkt = 500;
    bool redBytes = false; // queue, thresholds and drop probability in bytes (ns-2's bytes_)
    std::string label = "", defaults = "";

    CommandLine cmd(__FILE__);
    cmd.AddValue("n", "number of flows", nFlows);
    cmd.AddValue("tcp", "TcpNewReno|TcpCubic|TcpDctcp, or a +-list cycled over the flows",
                 tcp);
    cmd.AddValue("rtt_ms", "round-trip propagation delay (ms): one value, lo-hi, or a +-list, one per flow",
                 rtt);
    cmd.AddValue("bottleneck_mbps", "bottleneck rate (Mb/s)", bottleneckMbps);
    cmd.AddValue("bottleneck_delay_ms", "bottleneck one-way delay (ms)", bottleneckDelayMs);
    cmd.AddValue("access_mbps", "access and egress link rate (Mb/s)", accessMbps);
    cmd.AddValue("buffer_pkts", "the queue disc's limit (packets; RED bytes mode: see red_bytes)",
                 bufferPkts);
    cmd.AddValue("access_buffer_pkts", "device queue of the other links (packets)",
                 accessBufferPkts);
    cmd.AddValue("aqm",
                 "FifoQueueDisc|RedQueueDisc|CoDelQueueDisc|PieQueueDisc|FqCoDelQueueDisc", aqm);
    cmd.AddValue("ecn", "ECN: TcpSocketBase::UseEcn On and the disc's UseEcn", ecn);
    cmd.AddValue("sack", "TCP SACK option", sack);
    cmd.AddValue("dur_s", "run length (s)", durS);
    cmd.AddValue("warm_s", "measuring starts here (s)", warmS);
    cmd.AddValue("start_spread_s", "flows start uniformly in [0, this) (s)", startSpreadS);
    cmd.AddValue("run", "seed: RngRun (RngSeed stays 1)", run);
    cmd.AddValue("segment", "TcpSocket::SegmentSize (payload bytes)", segment);
    cmd.AddValue("max_window_pkts", "receiver window (segments): RcvBufSize", maxWindowPkts);
    cmd.AddValue("init_cwnd", "TcpSocket::InitialCwnd (segments)", initCwnd);
    cmd.AddValue("delack", "TcpSocket::DelAckCount", delAck);
    cmd.AddValue("min_rto_ms", "TcpSocketBase::MinRto (ms)", minRtoMs);
    cmd.AddValue("clock_ms", "TcpSocketBase::ClockGranularity (ms)", clockGranMs);
    cmd.AddValue("step_k_pkts", "RED as a step marker at K packets (DCTCP)", stepKPkts);
    cmd.AddValue("red_min_th", "RED MinTh (packets, or bytes with red_bytes)", redMinTh);
    cmd.AddValue("red_max_th", "RED MaxTh (packets, or bytes with red_bytes)", redMaxTh);
    cmd.AddValue("red_qw", "RED QW", redQw);
    cmd.AddValue("red_linterm", "RED LInterm (1 / max_p)", redLInterm);
    cmd.AddValue("red_mean_pkt", "RED MeanPktSize (bytes)", redMeanPkt);
    cmd.AddValue("red_bytes", "RED in bytes: limit buffer_pkts x red_mean_pkt + segment + 39",
                 redBytes);
    cmd.AddValue("label", "the model's name in the CSV's first column", label);
    cmd.AddValue("defaults", "write every attribute in force to this file", defaults);
    cmd.AddValue("debug", "congestion-state changes on stderr", g_debug);
    cmd.AddValue("trace_cwnd",
                 "flow i's cwnd and ssthresh (bytes) at each change, and its states, on stderr",
                 g_traceCwnd);
    cmd.AddValue("header", "print the CSV header and exit", header);
    cmd.Parse(argc, argv);

    if (header)
    {
        std::cout << "model,tcp,aqm,ecn,n_flows,rtt_ms,seed,bottleneck_mbps,buffer_pkts,dur_s,"
                     "warm_s,total_mbps,flow_mbps,jain,min_max,sent_pkts,rexmit_pkts,timeouts,"
                     "bneck_arrivals,bneck_drops,bneck_marks,drop_pct,mark_pct,"
                     "mean_waiting_pkts,mean_disc_pkts,mean_sojourn_ms,p95_sojourn_ms,sojourn_samples,"
                     "bneck_util,wall_s\n";
        return 0;
    }
    NS_ABORT_MSG_UNLESS(nFlows >= 1, "n: an integer >= 1");
    NS_ABORT_MSG_UNLESS(warmS < durS, "warm_s: a number < dur_s");

    // --- per-flow round trips, as the builder's rtt_ms / rtt_min_ms..rtt_max_ms ---
    std::vector<double> rtts;
    if (rtt.find('-') != std::string::npos)
    {
        auto lh = Split(rtt, '-');
        double lo = std::stod(lh[0]), hi = std::stod(lh[1]);
        for (uint32_t i = 0; i < nFlows; i++)
        {
            rtts.push_back(nFlows == 1 ? lo : lo + i * (hi - lo) / (nFlows - 1));
        }
    }
    else
    {
        for (const auto& v : Split(rtt, '+'))
        {
            rtts.push_back(std::stod(v));
        }
        NS_ABORT_MSG_UNLESS(rtts.size() == 1 || rtts.size() == nFlows,
                            "rtt_ms: one value, lo-hi, or n values");
        rtts.resize(nFlows, rtts[0]);
    }
    for (double r : rtts)
    {
        NS_ABORT_MSG_UNLESS(r >= 2 * bottleneckDelayMs, "rtt_ms: each >= 2 x bottleneck_delay_ms");
    }
    auto tcps = Split(tcp, '+');
    for (const auto& t : tcps)
    {
        NS_ABORT_MSG_UNLESS(t == "TcpNewReno" || t == "TcpCubic" || t == "TcpDctcp",
                            "tcp: TcpNewReno, TcpCubic or TcpDctcp (or a +-list)");
    }

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);

    // --- TCP: every value through SetDefault, so that --defaults writes what is in force ---
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segment));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initCwnd));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAck));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(maxWindowPkts * segment));
    Config::SetDefault("ns3::TcpSocket::SndBufSize",
                       UintegerValue(std::max<uint32_t>(4 * maxWindowPkts * segment, 1 << 20)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(minRtoMs)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity",
                       TimeValue(MilliSeconds(clockGranMs)));
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue(ecn ? "On" : "Off"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));

    // --- the bottleneck's queue disc, its limit the buffer ---
    std::string qsize = std::to_string(bufferPkts) + "p";
    std::string discType = "ns3::" + aqm;
    if (aqm == "FifoQueueDisc")
    {
        NS_ABORT_MSG_IF(ecn, "aqm FifoQueueDisc: no ECN (it never marks); ecn=0");
        Config::SetDefault("ns3::FifoQueueDisc::MaxSize", QueueSizeValue(QueueSize(qsize)));
    }
    else if (aqm == "RedQueueDisc")
    {
        Config::SetDefault("ns3::RedQueueDisc::LinkBandwidth",
                           DataRateValue(DataRate(bottleneckMbps * 1e6)));
        Config::SetDefault("ns3::RedQueueDisc::LinkDelay",
                           TimeValue(MilliSeconds(bottleneckDelayMs)));
        Config::SetDefault("ns3::RedQueueDisc::UseEcn", BooleanValue(ecn));
        if (stepKPkts > 0)
        {
            // DCTCP's marking (RFC 8257 s3.1; ns-3's examples/tcp/dctcp-example.cc): the
            // instantaneous queue (QW 1) against one threshold K; not gentle, so an average
            // at or above MaxTh = MinTh is a forced "drop" which UseHardDrop false turns into
            // a CE mark; a packet is dropped only when the buffer is full
            NS_ABORT_MSG_UNLESS(ecn, "step_k_pkts: needs ecn=1 (marking)");
            Config::SetDefault("ns3::RedQueueDisc::MaxSize", QueueSizeValue(QueueSize(qsize)));
            Config::SetDefault("ns3::RedQueueDisc::MinTh", DoubleValue(stepKPkts));
            Config::SetDefault("ns3::RedQueueDisc::MaxTh", DoubleValue(stepKPkts));
            Config::SetDefault("ns3::RedQueueDisc::QW", DoubleValue(1));
            Config::SetDefault("ns3::RedQueueDisc::Gentle", BooleanValue(false));
            Config::SetDefault("ns3::RedQueueDisc::UseHardDrop", BooleanValue(false));
            Config::SetDefault("ns3::RedQueueDisc::MeanPktSize", UintegerValue(segment + 40));
        }
        else
        {
            // ns-2.35's RED as diffsweep's builder configures it (red_class): with bytes_
            // and queue_in_bytes_ the limit is buffer x mean_pktsize_ bytes, and a packet
            // still joins when it fits (the builder adds one packet less a byte)
            QueueSize lim = redBytes ? QueueSize(QueueSizeUnit::BYTES,
                                                 bufferPkts * redMeanPkt + segment + 40 - 1)
                                     : QueueSize(qsize);
            Config::SetDefault("ns3::RedQueueDisc::MaxSize", QueueSizeValue(lim));
            Config::SetDefault("ns3::RedQueueDisc::MinTh", DoubleValue(redMinTh));
            Config::SetDefault("ns3::RedQueueDisc::MaxTh", DoubleValue(redMaxTh));
            Config::SetDefault("ns3::RedQueueDisc::QW", DoubleValue(redQw));
            Config::SetDefault("ns3::RedQueueDisc::LInterm", DoubleValue(redLInterm));
            Config::SetDefault("ns3::RedQueueDisc::MeanPktSize", UintegerValue(redMeanPkt));
            Config::SetDefault("ns3::RedQueueDisc::Gentle", BooleanValue(true));
            Config::SetDefault("ns3::RedQueueDisc::Wait", BooleanValue(true));
        }
    }
    else if (aqm == "CoDelQueueDisc" || aqm == "PieQueueDisc" || aqm == "FqCoDelQueueDisc")
    {
        // ns-3.44's defaults (CoDel target 5 ms, interval 100 ms; PIE's 15 ms reference
        // delay, 15 ms update, 150 ms burst allowance; FQ-CoDel's 1024 flows, quantum of the
        // device MTU), with the buffer as the limit (FQ-CoDel: of all its queues together)
        Config::SetDefault(discType + "::MaxSize", QueueSizeValue(QueueSize(qsize)));
        Config::SetDefault(discType + "::UseEcn", BooleanValue(ecn));
    }
    else
    {
        NS_ABORT_MSG("aqm: FifoQueueDisc, RedQueueDisc, CoDelQueueDisc, PieQueueDisc or "
                     "FqCoDelQueueDisc");
    }
    if (!defaults.empty())
    {
        DumpDefaults(defaults,
                     {"ns3::TcpSocket", "ns3::TcpSocketBase", "ns3::TcpL4Protocol",
                      "ns3::TcpNewReno", "ns3::TcpCubic", "ns3::TcpDctcp",
                      "ns3::TcpClassicRecovery", "ns3::RttMeanDeviation", discType,
                      "ns3::PointToPointNetDevice", "ns3::BulkSendApplication",
                      "ns3::PacketSink"});
    }

    // --- topology ---
    NodeContainer routers, senders, receivers;
    routers.Create(2);
    senders.Create(nFlows);
    receivers.Create(nFlows);
    InternetStackHelper stack;
    stack.InstallAll();

    PointToPointHelper bneck;
    bneck.SetDeviceAttribute("DataRate", DataRateValue(DataRate(bottleneckMbps * 1e6)));
    bneck.SetChannelAttribute("Delay", TimeValue(MilliSeconds(bottleneckDelayMs)));
    bneck.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1p")));
    NetDeviceContainer bdev = bneck.Install(routers.Get(0), routers.Get(1));
    // the reverse direction carries the ACKs: a device queue the size of the access ones
    DynamicCast<PointToPointNetDevice>(bdev.Get(1))
        ->GetQueue()
        ->SetMaxSize(QueueSize(std::to_string(accessBufferPkts) + "p"));

    TrafficControlHelper tch;
    tch.SetRootQueueDisc(discType);
    QueueDiscContainer discs = tch.Install(bdev.Get(0));
    Ptr<QueueDisc> disc = discs.Get(0);

    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.252");
    addr.Assign(bdev);
    addr.NewNetwork();
    TrafficControlHelper none;
    none.Uninstall(bdev.Get(1));

    std::vector<Ipv4Address> dst(nFlows);
    for (uint32_t i = 0; i < nFlows; i++)
    {
        double sideMs = (rtts[i] / 2 - bottleneckDelayMs) / 2;
        PointToPointHelper acc;
        acc.SetDeviceAttribute("DataRate", DataRateValue(DataRate(accessMbps * 1e6)));
        acc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(std::llround(sideMs * 1e3))));
        acc.SetQueue("ns3::DropTailQueue",
                     "MaxSize",
                     QueueSizeValue(QueueSize(std::to_string(accessBufferPkts) + "p")));
        NetDeviceContainer a = acc.Install(senders.Get(i), routers.Get(0));
        NetDeviceContainer e = acc.Install(routers.Get(1), receivers.Get(i));
        addr.Assign(a);
        addr.NewNetwork();
        Ipv4InterfaceContainer ei = addr.Assign(e);
        addr.NewNetwork();
        none.Uninstall(a);
        none.Uninstall(e);
        dst[i] = ei.GetAddress(1);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // --- flows: backlogged BulkSend -> PacketSink, each starting U(0, start_spread_s) ---
    g.warm_s = warmS;
    g.rxBytes.assign(nFlows, 0);
    g.sent.assign(nFlows, 0);
    g.rexmit.assign(nFlows, 0);
    g.timeouts.assign(nFlows, 0);
    Ptr<UniformRandomVariable> startRv = CreateObject<UniformRandomVariable>();
    startRv->SetAttribute("Max", DoubleValue(startSpreadS));
    const uint16_t port = 5000;
    for (uint32_t i = 0; i < nFlows; i++)
    {
        std::string t = tcps[i % tcps.size()];
        // both ends run the flow's congestion control, as ns-3's examples/tcp/dctcp-example.cc
        // has it (TcpL4Protocol::SocketType set globally): TcpDctcp::Init puts the socket in
        // DctcpEcn mode, so a DCTCP receiver echoes each packet's CE (RFC 8257 section 3.2)
        // rather than ECE until CWR (RFC 3168). A receiver sends no data, so for the other
        // congestion controls the setting changes nothing (checked: identical rows)
        for (Ptr<Node> node : {senders.Get(i), receivers.Get(i)})
        {
            node->GetObject<TcpL4Protocol>()->SetAttribute(
                "SocketType", TypeIdValue(TypeId::LookupByName("ns3::" + t)));
        }
        BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(dst[i], port));
        src.SetAttribute("MaxBytes", UintegerValue(0));
        src.SetAttribute("SendSize", UintegerValue(segment));
        ApplicationContainer sa = src.Install(senders.Get(i));
        double start = startSpreadS > 0 ? startRv->GetValue() : 0.0;
        sa.Start(Seconds(start));
        sa.Stop(Seconds(durS));
        Simulator::Schedule(Seconds(start) + NanoSeconds(1),
                            &HookSocket,
                            DynamicCast<BulkSendApplication>(sa.Get(0)),
                            i);
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer ka = sink.Install(receivers.Get(i));
        ka.Start(Seconds(0));
        ka.Stop(Seconds(durS));
        ka.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&SinkRx, i));
    }

    // --- the bottleneck's measures ---
    disc->TraceConnectWithoutContext("Enqueue", MakeCallback(&DiscEnqueue));
    disc->TraceConnectWithoutContext("DropBeforeEnqueue", MakeCallback(&DiscDropBeforeEnqueue));
    disc->TraceConnectWithoutContext("DropAfterDequeue", MakeCallback(&DiscDropAfterDequeue));
    disc->TraceConnectWithoutContext("Mark", MakeCallback(&DiscMark));
    disc->TraceConnectWithoutContext("SojournTime", MakeCallback(&Sojourn));
    disc->TraceConnectWithoutContext("PacketsInQueue", MakeBoundCallback(&Integrate, &g.disc));
    DynamicCast<PointToPointNetDevice>(bdev.Get(0))
        ->GetQueue()
        ->TraceConnectWithoutContext("PacketsInQueue", MakeBoundCallback(&Integrate, &g.device));
    bdev.Get(0)->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&PhyTxBegin));

    Simulator::Stop(Seconds(durS));
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    Integrate(&g.disc, 0, g.disc.last); // close the integrals at the end of the run
    Integrate(&g.device, 0, g.device.last);
    if (g_debug)
    {
        std::cerr << disc->GetStats() << "\n";
    }

    // --- one row ---
    double measured = durS - warmS;
    std::vector<double> mbps(nFlows);
    for (uint32_t i = 0; i < nFlows; i++)
    {
        mbps[i] = g.rxBytes[i] * 8.0 / measured / 1e6;
    }
    double sum = std::accumulate(mbps.begin(), mbps.end(), 0.0);
    double sq = 0;
    for (double x : mbps)
    {
        sq += x * x;
    }
    double jain = sq > 0 ? sum * sum / (nFlows * sq) : NAN;
    double mx = *std::max_element(mbps.begin(), mbps.end());
    double mn = *std::min_element(mbps.begin(), mbps.end());
    uint64_t sent = std::accumulate(g.sent.begin(), g.sent.end(), uint64_t{0});
    uint64_t rexmit = std::accumulate(g.rexmit.begin(), g.rexmit.end(), uint64_t{0});
    uint64_t tos = std::accumulate(g.timeouts.begin(), g.timeouts.end(), uint64_t{0});
    double meanSoj = g.sojournMs.empty()
                         ? NAN
                         : std::accumulate(g.sojournMs.begin(), g.sojournMs.end(), 0.0) /
                               g.sojournMs.size();
    std::ostringstream flows;
    flows << std::setprecision(6);
    for (uint32_t i = 0; i < nFlows; i++)
    {
        flows << (i ? ";" : "") << mbps[i];
    }
    std::cout << std::setprecision(6) << (label.empty() ? tcp + "/" + aqm : label) << ","
              << tcp << "," << aqm << "," << (ecn ? 1 : 0) << "," << nFlows << "," << rtt
              << "," << run << "," << bottleneckMbps << "," << bufferPkts << "," << durS << ","
              << warmS << "," << sum << "," << flows.str() << "," << jain << ","
              << (mx > 0 ? mn / mx : NAN) << "," << sent << "," << rexmit << "," << tos << ","
              << g.arrivals << "," << g.drops << "," << g.marks << ","
              << (g.arrivals ? 100.0 * g.drops / g.arrivals : NAN) << ","
              << (g.arrivals ? 100.0 * g.marks / g.arrivals : NAN) << ","
              << (g.disc.area + g.device.area) / measured << "," << g.disc.area / measured
              << "," << meanSoj << "," << Percentile(g.sojournMs, 0.95)
              << "," << g.sojournMs.size() << ","
              << g.deviceBytes * 8.0 / (bottleneckMbps * 1e6) / measured << "," << wall
              << "\n";
    Simulator::Destroy();
    return 0;
}
