"""The `diffsweep` command line."""
from __future__ import annotations

import argparse
import sys

from . import engine
from .errors import BackendError, ConfigError, EngineError


def _cmd_info(args) -> int:
    i = engine.info()
    print(f"diffsweep {i['version']} (Python {i['python']})")
    print(f"backends built : {', '.join(i['backends_built']) or 'none'}")
    print(f"OpenMP threads : {i['openmp_threads']}")
    if i["cuda_built"]:
        dev = i["cuda_device"] or "none visible"
        print(f"CUDA devices   : {i['cuda_devices']} ({dev})")
    else:
        print("CUDA devices   : CUDA engine not built (no nvcc at build time)")
    print(f"backend='auto' : {i['auto_backend']}")
    return 0


def _cmd_demo(args) -> int:
    """A small built-in Kaur & Vin sweep: one Reno flow, EF on-off vs CBR over T_on."""
    from .grid import Grid
    from .runner import run
    from .scenarios import kaur_vin

    grid = Grid(kaur_vin, seeds=args.seeds, n_flows=1, rtp_ms=8.0, ef=["cbr", "onoff"],
                t_on_ms=[0.4, 4.0, 40.0, 400.0], duration_s=args.duration_s, warmup_s=5.0)
    res = run(grid, backend=args.backend)
    f = res.flows
    table = (f.groupby(["ef", "t_on_ms"])[["goodput_bps", "timeouts", "fast_retransmits", "drops"]]
             .mean().reset_index())
    table["goodput_mbps"] = table.pop("goodput_bps") / 1e6
    print(f"{len(res)} replicas on {res.meta['backend']} in {res.meta['wall_s']:.2f} s")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="diffsweep", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("info", help="version, backends built, threads, CUDA device")
    s.set_defaults(fn=_cmd_info)
    s = sub.add_parser("demo", help="a small built-in Kaur & Vin sweep (EF vs CBR over T_on)")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS)
    s.add_argument("--seeds", type=int, default=3)
    s.add_argument("--duration-s", type=float, default=60.0)
    s.set_defaults(fn=_cmd_demo)
    args = p.parse_args(argv)
    try:
        return args.fn(args)
    except (ConfigError, BackendError, EngineError) as e:
        print(f"diffsweep: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
