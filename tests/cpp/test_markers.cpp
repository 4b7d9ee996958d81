// The edge conditioners (cuda/model/marker*.h) on hand-computed packet trains: ns-2's token
// bucket, srTCM (RFC 2697) and trTCM (RFC 2698) colour-blind and colour-aware, the TSW
// estimator and TSW2CM/TSW3CM shares (RFC 2859, ns-2 dsPolicy.cc), and the Balancing Marker
// (Lee & Jeong, section 3), and the TCP-aware conditioners (Habib et al.: small-window
// protection, basic RTT-aware, RTT-RTO and its minimum-RTT rule). Units as in the engine:
// bytes, slots, bytes per slot.
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_markers.cpp -o test_markers
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "check.h"
#include "model/marker.h"

namespace {

ds::MarkerParams params(uint8_t kind) {
  ds::MarkerParams m{};
  m.kind = kind;
  return m;
}

ds::MarkerState fresh() {
  ds::MarkerState s;
  ds::marker_init(s);
  return s;
}

char letter(uint8_t c) { return c == ds::kGreen ? 'G' : c == ds::kYellow ? 'Y' : c == ds::kRed ? 'R' : '?'; }

struct Pkt {
  double t;
  int bytes;
  uint8_t in;  // incoming colour
};

// Runs a train through one meter and returns its colours as a string ("GYR...").
std::string run(const ds::MarkerParams& m, ds::MarkerState& s, const Pkt* p, int n) {
  std::string got;
  for (int i = 0; i < n; ++i) got += letter(ds::mark_packet(m, s, nullptr, 1, p[i].bytes, p[i].t, p[i].in, 0.5));
  return got;
}

bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol; }

// Deterministic uniform draws in [0, 1) (Knuth's MMIX LCG, top 53 bits).
struct Lcg {
  uint64_t x = 12345;
  double next() {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(x >> 11) * (1.0 / 9007199254740992.0);
  }
};

void test_token_bucket() {
  // CIR 100 B/slot, CBS 1000 B, full at the first packet.
  ds::MarkerParams m = params(ds::kMarkTokenBucket);
  m.cir = 100.0;
  m.cbs = 1000.0;
  ds::MarkerState s = fresh();
  const Pkt p[] = {
      {0.0, 500, 0},   // 1000 >= 500: G, 500 left
      {0.0, 500, 0},   // 500 >= 500: G, 0 left
      {0.0, 500, 0},   // 0: R
      {2.0, 500, 0},   // +2*100 = 200 < 500: R (the bucket keeps its 200)
      {5.0, 500, 0},   // +3*100 = 500: G, 0
      {20.0, 500, 0},  // +1500, capped at 1000: G, 500
      {20.0, 500, 0},  // 500: G, 0
      {20.5, 500, 0},  // +0.5*100 = 50: R
  };
  check(run(m, s, p, 8) == "GGRRGGGR", "token bucket: train GGRRGGGR");
  check(s.tc == 50.0, "token bucket: 50 tokens left");
  // Colour-blind: a red packet that conforms leaves green (ns-2 polices the initial code point).
  ds::MarkerState s2 = fresh();
  check(ds::mark_packet(m, s2, nullptr, 1, 100, 0.0, ds::kRed, 0.5) == ds::kGreen, "token bucket: colour-blind");
}

void test_srtcm() {
  // CIR 100 B/slot, CBS 1000 B (Tc), EBS 500 B (Te); both full at the first packet.
  ds::MarkerParams m = params(ds::kMarkSrtcm);
  m.cir = 100.0;
  m.cbs = 1000.0;
  m.pbs = 500.0;
  {
    ds::MarkerState s = fresh();
    const Pkt p[] = {
        {0.0, 800, 0},   // Tc 1000 >= 800: G; Tc 200, Te 500
        {0.0, 400, 0},   // Tc 200 < 400, Te 500 >= 400: Y; Te 100
        {0.0, 200, 0},   // Tc 200 >= 200: G; Tc 0
        {1.0, 300, 0},   // +100: Tc 100 < 300, Te 100 < 300: R
        {12.0, 1000, 0}, // +1100: Tc 100 -> 1000 (full), the 200 over goes to Te: 300. G; Tc 0
        {12.0, 300, 0},  // Tc 0, Te 300 >= 300: Y; Te 0
        {12.0, 100, 0},  // Tc 0, Te 0: R (Te got only the overflow, not CIR * 11 slots)
        {30.0, 600, 0},  // +1800: Tc 0 -> 1000, 800 over -> Te min(800, 500) = 500. G; Tc 400
    };
    check(run(m, s, p, 8) == "GYGRGYRG", "srTCM blind: train GYGRGYRG");
    check(s.tc == 400.0 && s.tp == 500.0, "srTCM blind: Tc 400, Te 500 after the train");
    ds::MarkerState s2 = fresh();
    check(ds::mark_packet(m, s2, nullptr, 1, 100, 0.0, ds::kRed, 0.5) == ds::kGreen,
          "srTCM blind: a red packet can leave green");
  }
  {
    m.colour_aware = 1;
    ds::MarkerState s = fresh();
    const Pkt p[] = {
        {0.0, 100, ds::kYellow},  // yellow never green: Te 500 >= 100: Y; Te 400, Tc still 1000
        {0.0, 100, ds::kRed},     // red stays red, no tokens taken
        {0.0, 800, ds::kGreen},   // Tc 1000 >= 800: G; Tc 200
        {0.0, 300, ds::kGreen},   // Tc 200 < 300, Te 400 >= 300: Y; Te 100
        {0.0, 50, ds::kYellow},   // Te 100 >= 50: Y; Te 50
        {0.0, 200, ds::kGreen},   // Tc 200 >= 200: G; Tc 0
        {0.0, 100, ds::kYellow},  // Te 50 < 100: R
    };
    check(run(m, s, p, 7) == "YRGYYGR", "srTCM aware: train YRGYYGR");
    check(s.tc == 0.0 && s.tp == 50.0, "srTCM aware: Tc 0, Te 50 after the train");
  }
}

void test_trtcm() {
  // CIR 100 B/slot, CBS 1000 B (Tc); PIR 200 B/slot, PBS 1500 B (Tp); both full at first.
  ds::MarkerParams m = params(ds::kMarkTrtcm);
  m.cir = 100.0;
  m.cbs = 1000.0;
  m.pir = 200.0;
  m.pbs = 1500.0;
  {
    ds::MarkerState s = fresh();
    const Pkt p[] = {
        {0.0, 1000, 0},  // Tp 1500, Tc 1000 >= 1000: G; Tc 0, Tp 500
        {0.0, 400, 0},   // Tp 500 >= 400, Tc 0 < 400: Y; Tp 100
        {0.0, 200, 0},   // Tp 100 < 200: R
        {2.0, 200, 0},   // Tc 0+200 = 200, Tp 100+400 = 500: G; Tc 0, Tp 300
        {3.0, 300, 0},   // Tc 100, Tp 500: Y; Tp 200
        {20.0, 1500, 0}, // Tc min(100+1700, 1000) = 1000, Tp min(200+3400, 1500) = 1500: Y; Tp 0
    };
    check(run(m, s, p, 6) == "GYRGYY", "trTCM blind: train GYRGYY");
    check(s.tc == 1000.0 && s.tp == 0.0, "trTCM blind: Tc 1000, Tp 0 after the train");
  }
  {
    m.colour_aware = 1;
    ds::MarkerState s = fresh();
    const Pkt p[] = {
        {0.0, 100, ds::kRed},     // red stays red; no tokens taken
        {0.0, 500, ds::kYellow},  // Tp 1500 >= 500 but yellow: Y; Tp 1000, Tc 1000
        {0.0, 600, ds::kGreen},   // G; Tc 400, Tp 400
        {0.0, 500, ds::kGreen},   // Tp 400 < 500: R
        {0.0, 400, ds::kGreen},   // Tp 400, Tc 400: G; both 0
        {5.0, 100, ds::kYellow},  // Tc 500, Tp 1000 -- yellow never green: Y; Tp 900
    };
    check(run(m, s, p, 6) == "RYGRGY", "trTCM aware: train RYGRGY");
    check(s.tc == 500.0 && s.tp == 900.0, "trTCM aware: Tc 500, Tp 900 after the train");
  }
}

void test_tsw() {
  // The estimator, by hand: avg starts at CIR = 50, t_front at 0 (ns-2), win 100 slots.
  ds::MarkerParams m = params(ds::kMarkTsw2cm);
  m.cir = 50.0;
  m.win = 100.0;
  ds::MarkerState s = fresh();
  ds::mark_packet(m, s, nullptr, 1, 1000, 10.0, 0, 0.99);
  // (50*100 + 1000) / (10 - 0 + 100) = 6000/110
  check(near(s.avg_rate, 6000.0 / 110.0, 1e-12) && s.t_front == 10.0, "TSW: first update from t_front = 0");
  ds::mark_packet(m, s, nullptr, 1, 1000, 20.0, 0, 0.99);
  check(near(s.avg_rate, (6000.0 / 110.0 * 100.0 + 1000.0) / 110.0, 1e-12), "TSW: second update");
  // Update before decision (ns-2's mark(): applyMeter then applyPolicer): a 1000 B packet at
  // t = 0 lifts avg from 50 to (5000 + 1000)/100 = 60 > CIR, so red w.p. 1 - 50/60 = 1/6.
  ds::MarkerState s2 = fresh();
  check(ds::mark_packet(m, s2, nullptr, 1, 1000, 0.0, 0, 0.1) == ds::kRed, "TSW2CM: decides on the updated rate (u 0.1 < 1/6)");
  ds::MarkerState s3 = fresh();
  check(ds::mark_packet(m, s3, nullptr, 1, 1000, 0.0, 0, 0.2) == ds::kGreen, "TSW2CM: u 0.2 > 1/6 stays green");

  // CBR at r = 100 B/slot (1000 B every 10 slots), window 1000 slots, from avg = CIR = 60:
  // each packet shrinks the error by win/(win + 10) = 0.990, so 0.4 * 0.99^2000 ~ 1e-9.
  m.cir = 60.0;
  m.win = 1000.0;
  ds::MarkerState c = fresh();
  Lcg g;
  double t = 0.0;
  for (int i = 0; i < 2000; ++i) ds::mark_packet(m, c, nullptr, 1, 1000, t += 10.0, 0, g.next());
  check(near(c.avg_rate, 100.0, 1.0), "TSW: CBR estimate within 1% of its rate");
  // TSW2CM at r = 100 > CIR = 60: red share (100 - 60)/100 = 0.4 (sd of the share over 20000
  // draws: sqrt(0.24/20000) = 0.0035; tolerance 0.015).
  int red = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) red += ds::mark_packet(m, c, nullptr, 1, 1000, t += 10.0, 0, g.next()) == ds::kRed;
  check(near((double)red / n, 0.4, 0.015), "TSW2CM: red share (r - CIR)/r");
  // Under the CIR: always green.
  ds::MarkerParams lo = m;
  lo.cir = 120.0;
  ds::MarkerState cl = fresh();
  int not_green = 0;
  for (int i = 0; i < 3000; ++i) not_green += ds::mark_packet(lo, cl, nullptr, 1, 1000, 10.0 * (i + 1), 0, g.next()) != ds::kGreen;
  check(not_green == 0, "TSW2CM: green under the CIR");

  // TSW3CM, rate r = 100 between CIR 40 and PIR 150: yellow (100 - 40)/100 = 0.6, green 0.4,
  // red 0. Then PIR 70 < r: red (100 - 70)/100 = 0.3, yellow (70 - 40)/100 = 0.3, green 0.4.
  for (int k = 0; k < 2; ++k) {
    ds::MarkerParams m3 = params(ds::kMarkTsw3cm);
    m3.cir = 40.0;
    m3.pir = k == 0 ? 150.0 : 70.0;
    m3.win = 1000.0;
    ds::MarkerState s3m = fresh();
    double t3 = 0.0;
    for (int i = 0; i < 3000; ++i) ds::mark_packet(m3, s3m, nullptr, 1, 1000, t3 += 10.0, 0, g.next());
    int cnt[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) cnt[ds::mark_packet(m3, s3m, nullptr, 1, 1000, t3 += 10.0, 0, g.next())] += 1;
    const double want_r = k == 0 ? 0.0 : 0.3, want_y = k == 0 ? 0.6 : 0.3;
    check(near((double)cnt[0] / n, 0.4, 0.015), k == 0 ? "TSW3CM CIR<r<PIR: green share CIR/r" : "TSW3CM r>PIR: green share CIR/r");
    check(near((double)cnt[1] / n, want_y, 0.015), k == 0 ? "TSW3CM CIR<r<PIR: yellow share (r-CIR)/r" : "TSW3CM r>PIR: yellow share (PIR-CIR)/r");
    check(k == 0 ? cnt[2] == 0 : near((double)cnt[2] / n, want_r, 0.015), k == 0 ? "TSW3CM CIR<r<PIR: no red" : "TSW3CM r>PIR: red share (r-PIR)/r");
  }
  // The ns-2 draw by hand: avg = 100 after a packet with t_int = 0 from avg 90 (win 100:
  // (9000 + 1000)/100); v = 100 * (1 - u): u 0.05 -> 95 > PIR 70: R; u 0.5 -> 50 > 40: Y;
  // u 0.7 -> 30: G.
  ds::MarkerParams m3 = params(ds::kMarkTsw3cm);
  m3.cir = 40.0;
  m3.pir = 70.0;
  m3.win = 100.0;
  const double us[3] = {0.05, 0.5, 0.7};
  const uint8_t want[3] = {ds::kRed, ds::kYellow, ds::kGreen};
  for (int i = 0; i < 3; ++i) {
    ds::MarkerState sx = fresh();
    sx.started = 1;
    sx.avg_rate = 90.0;
    sx.t_front = 7.0;
    check(ds::mark_packet(m3, sx, nullptr, 1, 1000, 7.0, 0, us[i]) == want[i] && sx.avg_rate == 100.0,
          "TSW3CM: colour from v = avg * (1 - u)");
  }
}

ds::MarkerParams bm_params() {
  // Aggregate CIR 100 B/slot, 2nd bucket 2000 B, 1st buckets 1000 B, AR window 100 slots,
  // P = 0.8 up to W = 1, 0 from W = 3; active if heard within 1000 slots.
  ds::MarkerParams m = params(ds::kMarkBalancing);
  m.cir = 100.0;
  m.cbs = 2000.0;
  m.b1 = 1000.0;
  m.win = 100.0;
  m.w_lo = 1.0;
  m.w_hi = 3.0;
  m.p_max = 0.8;
  m.active_slots = 1000.0;
  return m;
}

void test_balancing() {
  const ds::MarkerParams m = bm_params();
  // P(W): 0.8 at and below w_lo, linear to 0 at w_hi: P(2) = 0.8 * (3 - 2)/(3 - 1) = 0.4.
  check(ds::balancing_p(m, 0.5) == 0.8 && ds::balancing_p(m, 1.0) == 0.8, "BM: P = p_max up to w_lo");
  check(near(ds::balancing_p(m, 2.0), 0.4, 1e-15), "BM: P linear, 0.4 at W = 2");
  check(ds::balancing_p(m, 3.0) == 0.0 && ds::balancing_p(m, 5.0) == 0.0, "BM: P = 0 from w_hi");

  // First packet of a connection (2 active: R_basic = 50): first bucket full (1000), AR starts
  // at 50 and takes its own TSW update with t_int = 0: 50 + 500/100 = 55.
  {
    ds::MarkerState s = fresh();
    ds::ConnMeter c;
    ds::conn_init(c);
    check(!ds::conn_active(c, 0.0, m.active_slots), "BM: an unseen connection is not active");
    check(ds::mark_packet(m, s, &c, 2, 500, 5.0, ds::kGreen, 0.5) == ds::kGreen, "BM: first packet green");
    check(c.tokens == 500.0 && c.avg_rate == 55.0 && c.t_pre == 5.0, "BM: first packet's table entry");
    check(s.tc == 1500.0, "BM: 2nd bucket starts full and pays for green");
    check(ds::conn_active(c, 1005.0, m.active_slots) && !ds::conn_active(c, 1005.5, m.active_slots),
          "BM: active while silent for at most active_slots");
  }
  // Under its basic rate: 500 B every 20 slots = 25 B/slot < R_basic 50 (the first bucket gains
  // 1000 per interval), aggregate 25 < CIR 100: always green.
  {
    ds::MarkerState s = fresh();
    ds::ConnMeter c;
    ds::conn_init(c);
    int green = 0;
    for (int i = 0; i < 200; ++i) green += ds::mark_packet(m, s, &c, 2, 500, 20.0 * i, ds::kGreen, 0.0) == ds::kGreen;
    check(green == 200, "BM: a connection under R_basic is green");
    check(near(c.avg_rate, 25.0, 0.25), "BM: AR_x tracks the connection's rate");
  }
  // Over its basic rate (first bucket empty, no time for refill), tokens in the 2nd bucket:
  // RED -> YELLOW w.p. P(W), W = AR/R_basic with R_basic = 50 (n = 2). AR before the packet
  // is set so that after its update (t_int = 0: AR + 500/100) W is 1, 2 or 3:
  // 45 -> 50 (W 1, P 0.8); 95 -> 100 (W 2, P 0.4); 145 -> 150 (W 3, P 0).
  {
    struct Case {
      double ar0, u;
      uint8_t want;
      const char* what;
    };
    const Case cases[] = {
        {45.0, 0.79, ds::kYellow, "BM: W = w_lo, u 0.79 < 0.8: yellow"},
        {45.0, 0.81, ds::kRed, "BM: W = w_lo, u 0.81: red"},
        {95.0, 0.39, ds::kYellow, "BM: W = 2 (mid), u 0.39 < 0.4: yellow"},
        {95.0, 0.41, ds::kRed, "BM: W = 2 (mid), u 0.41: red"},
        {145.0, 0.0, ds::kRed, "BM: W = w_hi, u 0: red"},
    };
    for (const Case& k : cases) {
      ds::MarkerState s = fresh();
      s.started = 1;
      s.tc = 2000.0;
      s.t_last = 100.0;
      ds::ConnMeter c{0.0, 100.0, k.ar0, 100.0};  // tokens, t_last, AR, t_pre
      const uint8_t got = ds::mark_packet(m, s, &c, 2, 500, 100.0, ds::kGreen, k.u);
      check(got == k.want, k.what);
      check(s.tc == (got == ds::kYellow ? 1500.0 : 2000.0), "BM: 2nd bucket pays only for a re-marked packet");
    }
  }
  // 2nd bucket short of tokens: GREEN from the first bucket becomes RED; the 2nd bucket keeps
  // its tokens (the first bucket has paid: 1000 -> 500).
  {
    ds::MarkerState s = fresh();
    s.started = 1;
    s.tc = 100.0;
    s.t_last = 0.0;
    ds::ConnMeter c;
    ds::conn_init(c);
    check(ds::mark_packet(m, s, &c, 2, 500, 0.0, ds::kGreen, 0.0) == ds::kRed, "BM: empty 2nd bucket: GREEN -> RED");
    check(s.tc == 100.0 && c.tokens == 500.0, "BM: tokens after GREEN -> RED");
    // A RED packet (first bucket short) stays RED even at u = 0.
    c.tokens = 0.0;
    check(ds::mark_packet(m, s, &c, 2, 500, 0.0, ds::kGreen, 0.0) == ds::kRed, "BM: empty 2nd bucket: RED stays RED");
  }
  // n_active sets R_basic = CIR / n: an empty first bucket refilled over 10 slots holds 1000
  // with n = 1 (R 100; the 500 B packet is green) but 250 with n = 4 (R 25; red). n < 1 is 1.
  {
    const int ns[3] = {1, 4, 0};
    const uint8_t want[3] = {ds::kGreen, ds::kRed, ds::kGreen};
    const double left[3] = {500.0, 250.0, 500.0};
    for (int i = 0; i < 3; ++i) {
      ds::MarkerState s = fresh();
      s.started = 1;
      s.tc = 2000.0;
      s.t_last = 10.0;
      ds::ConnMeter c{0.0, 0.0, 0.0, 0.0};
      const uint8_t got = ds::mark_packet(m, s, &c, ns[i], 500, 10.0, ds::kGreen, 0.99);
      check(got == want[i] && c.tokens == left[i], i == 0 ? "BM: n = 1, R_basic 100" : i == 1 ? "BM: n = 4, R_basic 25" : "BM: n = 0 taken as 1");
    }
    // ... and W: the same AR (t_int 0: 45 + 5 = 50) is W = 50/50 = 1 with n = 2 (P 0.8) but
    // W = 50/25 = 2 with n = 4 (P 0.4): u = 0.5 re-marks in the first case only.
    for (int n = 2; n <= 4; n += 2) {
      ds::MarkerState s = fresh();
      s.started = 1;
      s.tc = 2000.0;
      s.t_last = 0.0;
      ds::ConnMeter c{0.0, 0.0, 45.0, 0.0};
      const uint8_t got = ds::mark_packet(m, s, &c, n, 500, 0.0, ds::kGreen, 0.5);
      check(got == (n == 2 ? ds::kYellow : ds::kRed), n == 2 ? "BM: n = 2, W 1: yellow at u 0.5" : "BM: n = 4, W 2: red at u 0.5");
    }
  }
}

void test_dispatch() {
  ds::MarkerParams m = bm_params();
  ds::MarkerState s = fresh();
  check(ds::mark_packet(m, s, nullptr, 1, 500, 0.0, ds::kYellow, 0.0) == ds::kYellow,
        "dispatch: Balancing Marker without a ConnMeter keeps the colour");
  m.kind = 99;
  check(ds::mark_packet(m, s, nullptr, 1, 500, 0.0, ds::kRed, 0.0) == ds::kRed, "dispatch: unknown kind keeps the colour");
}

// Small-window protection, the RTT-aware and RTT-RTO DP2 shares (Habib et al. sec. III, eq.
// 9) and the meter's DP1/DP2 split, on hand-computed values.
void test_tcp_aware() {
  using ds::tcp_aware_tag;
  const uint8_t sw = ds::kTagSmallWindow;
  // SW (k = 3): DP0 exactly when cwnd < k, for every kind that takes it.
  for (uint8_t kind : {(uint8_t)ds::kMarkTsw3cm, (uint8_t)ds::kMarkRttAware,
                       (uint8_t)ds::kMarkRttRto}) {
    check(tcp_aware_tag(kind, 3, 20, 200, 1.0, 40, 300, 20) == sw, "SW: cwnd 1 < 3");
    check(tcp_aware_tag(kind, 3, 20, 200, 2.999, 40, 300, 20) == sw, "SW: cwnd 2.999 < 3");
    check(tcp_aware_tag(kind, 3, 20, 200, 3.0, 40, 300, 20) != sw, "SW: cwnd 3 is not < 3");
    check(tcp_aware_tag(kind, 0, 20, 200, 1.0, 40, 300, 20) != sw, "SW off (k = 0)");
  }
  // Basic RTT-aware: share (RTT_ref / RTT)^2; RTT 40 vs ref 20: 1/4 -> tag round(3.5) = 4.
  check(tcp_aware_tag(ds::kMarkRttAware, 0, 20, 200, 10, 40, 300, 20) == 4, "RTT-aware 1/4");
  // RTT 140 vs 20: 1/49 -> tag round(0.2857) = 0; RTT 20 (the reference): 1 -> tag 14.
  check(tcp_aware_tag(ds::kMarkRttAware, 0, 20, 200, 10, 140, 300, 20) == 0, "RTT-aware 1/49");
  check(tcp_aware_tag(ds::kMarkRttAware, 0, 20, 200, 10, 20, 300, 20) == 14, "RTT-aware ref: 1");
  // No RTT sample yet (srtt 0): the propagation round trip stands in (40 -> 1/4).
  check(tcp_aware_tag(ds::kMarkRttAware, 0, 20, 200, 10, 0, 300, 40) == 4, "RTT-aware: base RTT");
  // RTT-RTO, eq. 9: share = (20/40) sqrt(200/800) = 0.25 -> tag 4 (3.5 rounds up).
  check(tcp_aware_tag(ds::kMarkRttRto, 0, 20, 200, 10, 40, 800, 20) == 4, "RTT-RTO 0.25");
  // (20/25) sqrt(200/200) = 0.8 -> round(11.2) = 11.
  check(tcp_aware_tag(ds::kMarkRttRto, 0, 20, 200, 10, 25, 200, 20) == 11, "RTT-RTO 0.8");
  // The minimum-RTT rule: a flow at the references (share would be 1) uses its own RTT / RTO:
  // 20 / 200 = 0.1 -> round(1.4) = 1; below them too (RTT 10, RTO 200: 0.05 -> round(0.7) = 1).
  check(tcp_aware_tag(ds::kMarkRttRto, 0, 20, 200, 10, 20, 200, 20) == 1, "min rule: RTT/RTO");
  check(tcp_aware_tag(ds::kMarkRttRto, 0, 20, 200, 10, 10, 200, 20) == 1, "min rule below");
  check(std::fabs(ds::tag_share(7) - 0.5) < 1e-15 && ds::tag_share(sw) == 0.0, "tag shares");

  // The meter: TSW at 2x the target -> out of profile w.p. 1/2; with share 0.5 (tag 7) red
  // w.p. 1/4, yellow w.p. 1/4. Draws u = 0.2 -> red, 0.3 -> yellow, 0.6 -> green.
  ds::MarkerParams m = params(ds::kMarkRttAware);
  m.cir = 500.0;
  m.win = 1e9;  // a window so long that one packet barely moves the estimate
  const uint8_t want[3] = {ds::kRed, ds::kYellow, ds::kGreen};
  const double us[3] = {0.2, 0.3, 0.6};
  for (int i = 0; i < 3; ++i) {
    ds::MarkerState s = fresh();
    ds::marker_start(m, s, 0.0);
    s.avg_rate = 1000.0;
    const uint8_t c = ds::mark_packet(m, s, nullptr, 1, 1000, 1.0, ds::kGreen, us[i], 7);
    check(c == want[i], "RTT-aware split: red / yellow / green by u");
  }
  {  // at or below the target: green whatever u; SW-tagged: green
    ds::MarkerState s = fresh();
    ds::marker_start(m, s, 0.0);
    s.avg_rate = 100.0;  // well below the target
    check(ds::mark_packet(m, s, nullptr, 1, 1000, 1.0, ds::kGreen, 0.0, 14) == ds::kGreen,
          "in profile: green");
    s.avg_rate = 1e6;
    check(ds::mark_packet(m, s, nullptr, 1, 1000, 1.0, ds::kGreen, 0.0, sw) == ds::kGreen,
          "small window: green even far out of profile");
  }
  {  // TSW3CM + SW: a tagged packet is metered (the estimate moves) but leaves green
    ds::MarkerParams t = params(ds::kMarkTsw3cm);
    t.cir = 500.0;
    t.pir = 600.0;
    t.win = 10.0;
    t.sw_k = 3;
    ds::MarkerState s = fresh();
    ds::marker_start(t, s, 0.0);
    s.avg_rate = 5000.0;
    const double before = s.avg_rate;
    check(ds::mark_packet(t, s, nullptr, 1, 1000, 1.0, ds::kGreen, 0.0, sw) == ds::kGreen,
          "TSW3CM+SW: protected");
    check(s.avg_rate != before, "TSW3CM+SW: still metered");
    check(ds::mark_packet(t, s, nullptr, 1, 1000, 1.0, ds::kGreen, 0.0, 0) == ds::kRed,
          "TSW3CM+SW: untagged packet marked as TSW3CM does");
  }
}

}  // namespace

int main() {
  test_tcp_aware();
  test_token_bucket();
  test_srtcm();
  test_trtcm();
  test_tsw();
  test_balancing();
  test_dispatch();
  return report();
}
