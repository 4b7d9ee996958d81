"""Issue 43's decision, computed from recorded measurements: what a phase-major slot could give
the full Kaur & Vin family on an H100 at most, in each regime a GPU can run it in.

    python benchmarks/gpu/phase_decision.py [--results benchmarks/gpu/results] [--call OUT] [--out DIR]

Nothing here runs an engine. Every input is a file under benchmarks/gpu/results/ (read and
parsed, not copied by hand); each lever is taken at its ideal (the most it could give), and
levers are multiplied as if independent, so each "bound" is an upper bound on the gain:

* the GPU runs at e2233ab (H100, 2026-11-26; `gpu-h100-2026-11-26/`): the full family's
  engine call at the engine's choice (the device full, ~3 replicas a warp), and at 32
  replicas a warp with one lane each (lone warps: the regime where one issued instruction
  could serve 32 replicas), cut by its step's 75-s timeout (engine time > the timeout less
  the same call's host overhead, measured on its 8-a-warp run);
* the fetch share of a warp's cycles (H200 Nsight Compute, `gpu-h200-2026-11-26/call2/`);
* SASS per replica-slot at e2233ab's kernel (the nearest measured, a94fe73) and at HEAD's
  (`hot_sass.py`), per phase;
* the union factors per phase at 32 a warp, today and ideally repacked over a block of 128
  (`coalesce.py` `by_phase`, `packed_union`), and sectors per replica-slot at 32 a warp for
  the block layout against the best word interleave;
* the 64-flow throughput at 32,768 replicas (H100 2026-11-25, `lanes64.log`).

With ``--call OUT`` (what `gpu.sh` step `phases` left in its $OUT: `phases_auto.log`,
`phases_32.log`; `ncu.log` and `icache_64_7.log` for the fetch shares with the device full
and of lone replicas when steps `ncu` and `icache` ran too), the GPU's numbers are that
call's, on one kernel (so no instruction scaling between kernels); a 32-a-warp run cut by its
step's timeout counts as at least its wall time less the auto run's host overhead. The CPU's
measures stay the recorded ones.

A "central" estimate takes half of each lever's room (a factor x counts as 1 + (x - 1) / 2;
half of the fetch stall removed), as gpu.md's prediction of the tenth session did. The
issue's rule: a design predicted to gain less than 2x over HEAD for the full family is not
built. Writes <out>/phase-decision.json (default: --results) and prints the table recorded in
benchmarks/gpu/gpu.md.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from targets import ENGINE_S as TARGET_FULL_S  # the full family's engine call, 15 s
from targets import SLOTS_PER_S as TARGET_64_RATE  # 64 flows at >= 32,768 replicas
from targets import step_wall

RESULTS = Path(__file__).resolve().parent / "results"


def engine_s(log: Path, pattern: str) -> float:
    """The engine time of the spread.py line of `log` that matches `pattern`."""
    for line in log.read_text().splitlines():
        if re.search(pattern, line):
            return float(re.search(r"engine\s+([\d.]+) s", line).group(1))
    raise SystemExit(f"{log}: no line matching {pattern!r}")


def step_wall_s(summary: Path, step: str) -> tuple[float, float]:
    """(start, end) in seconds since the call's start of `step` in a call's summary.txt."""
    prev = 0.0
    for line in summary.read_text().splitlines():
        m = re.match(r"== \+(\d+) s (\S+) rc=", line)
        if m:
            if m.group(2) == step:
                return prev, float(m.group(1))
            prev = float(m.group(1))
    raise SystemExit(f"{summary}: no step {step}")


def ncu_fetch_share(log: Path) -> float | None:
    """Cycles a warp waits to fetch an instruction, over its cycles per issued instruction
    (Nsight Compute's WarpStateStats: its rule text names the fetch stall only when it is
    large; None when the log has no such text)."""
    text = log.read_text()
    cpi = re.search(r"Warp Cycles Per Issued Instruction\s+cycle\s+([\d.]+)", text)
    fetch = re.search(r"spends ([\d.]+) cycles being stalled waiting to be selected to fetch", text)
    if not (cpi and fetch):
        return None
    return float(fetch.group(1)) / float(cpi.group(1))


def call_inputs(inp: dict, call: Path) -> dict:
    """`inp` with the GPU numbers of one gpu.sh call's step `phases` (and `icache`) in `call`."""
    out = dict(inp, cases={n: dict(c, instr_scale=1.0) for n, c in inp["cases"].items()},
               source=str(call))

    def step(name: str) -> tuple[int, float]:
        got = step_wall([call], name)
        if got is None:
            raise SystemExit(f"{call}/gpu-summary.txt: step {name} did not run (gpu.sh STEPS=phases)")
        return got

    rc_auto, wall_auto = step("phases_auto")
    if rc_auto != 0:
        raise SystemExit(f"{call}: step phases_auto ended with rc={rc_auto}: no baseline")
    t_auto = engine_s(call / "phases_auto.log", r"per warp auto ")
    overhead = max(0.0, wall_auto - t_auto)
    rc32, wall32 = step("phases_32")
    if rc32 == 0:
        t32 = engine_s(call / "phases_32.log", r"per warp\s+32 lanes\s+1 ")
    elif rc32 in (124, 137):
        t32 = wall32 - overhead  # cut: it ran at least this long
    else:
        raise SystemExit(f"{call}: step phases_32 ended with rc={rc32}")
    out.update(full_auto_engine_s_e2233ab=t_auto, host_overhead_s=overhead, cut_s=wall32,
               full_32_a_warp_engine_s_at_least=t32, full_8_a_warp_engine_s=float("nan"))
    # step ncu profiles 32,768 64-flow replicas (the device full), step icache lone replicas
    for name, key in (("ncu.log", "fetch_share_device_full"), ("icache_64_7.log", "fetch_share_lone")):
        share = ncu_fetch_share(call / name) if (call / name).exists() else None
        if share is not None:
            out[key] = share
            out.setdefault("fetch_from_call", []).append(key)
    return out


def half(x: float) -> float:
    """Half of a factor's room: 1 + (x - 1) / 2."""
    return 1.0 + (x - 1.0) / 2.0


def read_inputs(res: Path) -> dict:
    """Every measured number the decision uses, parsed from the recorded files under `res`."""
    H100 = res / "gpu-h100-2026-11-26"
    # --- the GPU's recorded runs (e2233ab, H100) ---
    call2 = H100 / "call2"
    t_auto = engine_s(H100 / "spread_warp_full.log", r"per warp auto .*warp rounds")
    t_8 = engine_s(call2 / "full8.log", r"per warp\s+8 lanes\s+1 ")
    s8, e8 = step_wall_s(call2 / "summary.txt", "full8")
    overhead = (e8 - s8) - t_8  # the call's host side around the engine (build, pack, tables)
    # (the recorded call2.sh ran benchmarks/spread.py: the path before benchmarks/gpu/)
    cut = float(re.search(r"timeout (\d+) python3 benchmarks/(?:gpu/)?spread.py --per-warp 32",
                          (call2 / "call2.sh").read_text()).group(1))
    t_32_min = cut - overhead  # the 32-a-warp run did not finish within its step
    m = re.search(r"64 flows R=32768 lanes=16: [\d.]+ s, ([\d.]+) M",
                  (res / "gpu-h100-2026-11-25" / "lanes64.log").read_text())
    rate64 = float(m.group(1)) * 1e6
    h200 = res / "gpu-h200-2026-11-26" / "call2"
    fetch_full = ncu_fetch_share(h200 / "ncu64-full.log")
    fetch_lone = ncu_fetch_share(h200 / "ncu64-k1.log")
    if fetch_full is None or fetch_lone is None:
        raise SystemExit(f"{h200}: no fetch stall in the recorded profiles")

    # --- the CPU's measures ---
    def sass(name: str) -> dict:
        return json.loads((res / name).read_text())["cases"]

    then = sass("hot-sass-a94fe73-lossline-sm_90.json")  # the slim kernel nearest e2233ab
    now = sass("hot-sass-phases-cb41d6b-sm_90.json")  # HEAD's slim kernel (unchanged since)
    co = json.loads((res / "coalesce-phases-128-cb41d6b.json").read_text())["cases"]
    cases = {}
    for n in ("1", "64"):
        ph = now[n]["by_phase"]
        un = co[n]["by_phase"]
        today = packed = lone = 0.0
        for name, row in ph.items():
            ex = row["est_executed_per_slot"]
            u = un.get(name, {"union": 1.0, "packed_union": 1.0})  # the round: shared
            lone += ex
            today += ex * u["union"]
            packed += ex * u["packed_union"]
        w32 = co[n]["32"]
        best_il = min(w32[k]["sectors_per_replica_slot"] for k in ("il4", "il8", "il16"))
        cases[n] = {
            "sass_then": then[n]["est_executed_per_slot"],
            "sass_now": now[n]["est_executed_per_slot"],
            "instr_scale": now[n]["est_executed_per_slot"] / then[n]["est_executed_per_slot"],
            "i_warp_lone": lone, "i_warp_today": today, "i_warp_packed": packed,
            "repack": today / packed,
            "sectors_block": w32["block"]["sectors_per_replica_slot"], "sectors_il": best_il,
            "interleave": w32["block"]["sectors_per_replica_slot"] / best_il,
        }
    return {"full_auto_engine_s_e2233ab": t_auto, "full_8_a_warp_engine_s": t_8,
            "host_overhead_s": overhead, "cut_s": cut, "full_32_a_warp_engine_s_at_least": t_32_min,
            "fetch_share_device_full": fetch_full, "fetch_share_lone": fetch_lone,
            "rate64_32768_replicas": rate64, "cases": cases}


def decide(inp: dict) -> dict:
    """The bounds and central estimates of each regime, and the issue's rule applied."""
    cases = inp["cases"]
    t_auto, t_32_min = inp["full_auto_engine_s_e2233ab"], inp["full_32_a_warp_engine_s_at_least"]
    fetch_full, rate64 = inp["fetch_share_device_full"], inp["rate64_32768_replicas"]
    c64, c1 = cases["64"], cases["1"]
    # HEAD's own default, if time follows instructions (generous to HEAD: the larger scale)
    head_auto = t_auto * max(c64["instr_scale"], c1["instr_scale"])
    # Regime A, the device full (the engine's choice, ~3 replicas a warp): a phase-major block
    # keeps its warps in one phase, so they could share instruction fetches; a warp of ~3
    # replicas has little union to repack. Ideal: no fetch stall at all.
    a_gain = 1.0 / (1.0 - fetch_full)
    a_s = head_auto / a_gain
    a_central = head_auto * (1.0 - fetch_full / 2.0)
    # Regime B, 32 a warp in lone warps (the only way the full family's 7,880-10,950 distinct
    # replicas fill warps of 32: ~15-21 a scheduler): a lone warp runs its phases in slot order
    # already, so phase order leaves its fetches as they are; ideal repacking and ideal
    # interleave, on the longest warps' shape (64 flows), with HEAD's fewer instructions
    # (generous to B: the smaller scale).
    b_scaled = t_32_min * min(c64["instr_scale"], c1["instr_scale"])
    b_s = b_scaled / (c64["repack"] * c64["interleave"])
    b_central = b_scaled / (half(c64["repack"]) * half(c64["interleave"]))
    # Both at once would need 32 replicas a warp AND several warps a scheduler: 64 flows at
    # 32,768 replicas is the one measured job of that size. It ran an older kernel (757a8a7,
    # before any SASS count), so the instructions' scale since then is not known: the levers
    # but instructions, and the cut in instructions they would leave to reach 1e9.
    levers64 = c64["repack"] * c64["interleave"] / (1.0 - fetch_full)
    r64 = rate64 / c64["instr_scale"] * levers64
    instr_cut_needed = rate64 * levers64 / TARGET_64_RATE  # HEAD's instructions / then's
    central_gain = max(head_auto / a_central, head_auto / b_central)
    return {
        "inputs": inp,
        "head_auto_estimate_s": head_auto,
        "regime_a": {"bound_s": a_s, "gain_at_most": head_auto / a_s,
                     "central_s": a_central, "central_gain": head_auto / a_central},
        "regime_b": {"bound_s": b_s, "gain_at_most": head_auto / b_s,
                     "central_s": b_central, "central_gain": head_auto / b_central},
        "rate64_bound": r64, "rate64_levers_but_instructions": levers64,
        "rate64_instructions_must_fall_to": instr_cut_needed,
        "bound_meets_15_s": min(a_s, b_s) <= TARGET_FULL_S,
        "bound_meets_1e9": r64 >= TARGET_64_RATE,
        "central_gain": central_gain,
        "build": central_gain >= 2.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", default=str(RESULTS), help="the recorded results folder")
    ap.add_argument("--call", default=None,
                    help="a gpu.sh call's $OUT with step phases: its GPU numbers instead")
    ap.add_argument("--out", default=None, help="where phase-decision.json goes (default: --results)")
    args = ap.parse_args()
    inp = read_inputs(Path(args.results))
    if args.call:
        inp = call_inputs(inp, Path(args.call))
    res = decide(inp)
    out = Path(args.out or args.results)
    out.mkdir(parents=True, exist_ok=True)
    (out / "phase-decision.json").write_text(json.dumps(res, indent=1) + "\n")
    inp, cases = res["inputs"], res["inputs"]["cases"]
    t_auto, t_8, t_32_min = (inp["full_auto_engine_s_e2233ab"], inp["full_8_a_warp_engine_s"],
                             inp["full_32_a_warp_engine_s_at_least"])
    cut, overhead = inp["cut_s"], inp["host_overhead_s"]
    fetch_full, fetch_lone = inp["fetch_share_device_full"], inp["fetch_share_lone"]
    head_auto, c64, c1 = res["head_auto_estimate_s"], cases["64"], cases["1"]
    a, b = res["regime_a"], res["regime_b"]
    a_gain, a_s, b_s, r64, rate64 = a["gain_at_most"], a["bound_s"], b["bound_s"], res["rate64_bound"], inp["rate64_32768_replicas"]

    where = f"call {inp['source']}" if "source" in inp else "e2233ab H100"
    print(f"{where}: full family engine {t_auto:.2f} s at the engine's choice; "
          f"{t_8:.2f} s at 8 a warp; >= {t_32_min:.1f} s at 32 a warp (step {cut:.0f} s, "
          f"host {overhead:.1f} s)")
    print(f"fetch share of a warp's cycles: device full {fetch_full:.1%}, lone {fetch_lone:.1%} "
          f"({'this call: ' + ', '.join(inp['fetch_from_call']) if inp.get('fetch_from_call') else 'H200 profiles'})")
    print("| flows | SASS/replica-slot e2233ab -> HEAD | I_warp at 32: today -> repacked (x) "
          "| sectors at 32: block -> best interleave (x) |")
    print("|---|---|---|---|")
    for n, c in cases.items():
        print(f"| {n} | {c['sass_then']:.0f} -> {c['sass_now']:.0f} ({c['instr_scale']:.3f}) "
              f"| {c['i_warp_today']:.0f} -> {c['i_warp_packed']:.0f} ({c['repack']:.2f}x) "
              f"| {c['sectors_block']:.1f} -> {c['sectors_il']:.1f} ({c['interleave']:.2f}x) |")
    print(f"HEAD's engine choice, if time follows instructions: ~{head_auto:.1f} s")
    print("| regime | levers at their ideal | bound on the phase design (gain over HEAD) "
          "| central: half of each lever's room | bound <= 15 s? |")
    print("|---|---|---|---|---|")
    print(f"| A: device full (~3 a warp) | no fetch stall (x{a_gain:.2f}) | {a_s:.1f} s "
          f"({head_auto / a_s:.2f}x) | {a['central_s']:.1f} s ({a['central_gain']:.2f}x) "
          f"| {'yes' if a_s <= TARGET_FULL_S else 'no'} |")
    print(f"| B: 32 a warp, lone warps | repack x{c64['repack']:.2f}, interleave "
          f"x{c64['interleave']:.2f}, HEAD's instructions x{min(c64['instr_scale'], c1['instr_scale']):.3f} "
          f"| {b_s:.1f} s ({head_auto / b_s:.2f}x) | {b['central_s']:.1f} s ({b['central_gain']:.2f}x) "
          f"| {'yes' if b_s <= TARGET_FULL_S else 'no'} |")
    print(f"64 flows at 32,768 replicas: {rate64 / 1e6:.0f} M measured (757a8a7); repack, "
          f"interleave and no fetch stall give at most x{res['rate64_levers_but_instructions']:.2f}; "
          f"1e9 then needs a slot's instructions at <= {res['rate64_instructions_must_fall_to']:.0%} "
          f"of that kernel's (with e2233ab -> HEAD's x{c64['instr_scale']:.3f} for the whole "
          f"way: {r64 / 1e6:.0f} M)")
    print(f"decision: central gain {res['central_gain']:.2f}x "
          f"{'>= 2x: build it' if res['build'] else '< 2x: not built (issue 43: keep the faster engine)'}")


if __name__ == "__main__":
    main()
