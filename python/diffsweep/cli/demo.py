"""``diffsweep demo``: a small built-in Kaur & Vin sweep (EF vs CBR over T_on)."""
from __future__ import annotations

from diffsweep.cli.common import BACKEND_HELP
from diffsweep.core.errors import ConfigError
from diffsweep import engine


def _cmd_demo(args) -> int:
    """A small built-in Kaur & Vin sweep: one Reno flow, EF on-off vs CBR over T_on."""
    from diffsweep.engine import sizing  # noqa: PLC0415
    from diffsweep.scenario.builders import kaur_vin  # noqa: PLC0415
    from diffsweep.sweep.grid import Grid  # noqa: PLC0415
    from diffsweep.sweep.runner import run  # noqa: PLC0415

    if not args.duration_s > 0:
        raise ConfigError(f"--duration-s: {args.duration_s!r} is not allowed (expected a number "
                          "of seconds > 0)")
    top = sizing.MAX_REPLICAS // 8  # the demo's 8 points (its --duration-s prefix said
    if not 1 <= args.seeds <= top:   # nothing of a --seeds 10^12, and --force is not its own)
        raise ConfigError(f"--seeds: {args.seeds!r} is not allowed (expected an integer from 1 "
                          f"to {top:,}: 8 points x seeds within {sizing.MAX_REPLICAS:,} "
                          "replicas)")
    warmup = min(5.0, args.duration_s / 4)  # demo sets the warm-up, so it must fit
    try:
        grid = Grid(kaur_vin, seeds=args.seeds, n_flows=1, rtp_ms=8.0, ef=["cbr", "onoff"],
                    t_on_ms=[0.4, 4.0, 40.0, 400.0], duration_s=args.duration_s,
                    warmup_s=warmup)
    except ConfigError as e:
        raise ConfigError(f"--duration-s {args.duration_s:g}: {e}") from None
    res = run(grid, backend=args.backend)
    f = res.flows
    table = (f.groupby(["ef", "t_on_ms"])[["goodput_bps", "timeouts", "fast_retransmits", "drops"]]
             .mean().reset_index())
    table["goodput_mbps"] = table.pop("goodput_bps") / 1e6
    print(f"{len(res)} replicas on {res.meta['backend']} in {res.meta['wall_s']:.2f} s")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return 0


def add_subcommand(sub) -> None:
    """The ``diffsweep demo`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("demo", help="a small built-in Kaur & Vin sweep (EF vs CBR over T_on)")
    s.add_argument("--backend", default="auto", choices=engine.BACKENDS, help=BACKEND_HELP)
    s.add_argument("--seeds", type=int, default=3)
    s.add_argument("--duration-s", type=float, default=60.0)
    s.set_defaults(fn=_cmd_demo)
