"""``diffsweep info``: the version, the backends built, the threads and the CUDA device."""
from __future__ import annotations

from diffsweep import engine


def _cmd_info(args) -> int:
    i = engine.info()
    print(f"diffsweep {i['version']} (Python {i['python']})")
    print(f"backends built : {', '.join(i['backends_built']) or 'none'}")
    print(f"OpenMP threads : {i['openmp_threads']}")
    if i["cuda_built"]:
        dev = i["cuda_device"] or "none visible"
        print(f"CUDA devices   : {i['cuda_devices']} ({dev})")
    else:
        print("CUDA devices   : CUDA engine not built (no nvcc or no CUDA device at build time;"
              " pip install . -C cmake.define.DIFFSWEEP_CUDA=ON builds it)")
    print(f"backend='auto' : {i['auto_backend']}")
    m = i["auto_model"]
    print(f"auto's model   : a CPU thread {m['cpu_us_per_slot']:g} us a replica-slot, a GPU slot "
          f"{m['cuda_slot_us']:g} us, {m['cuda_slots_per_s']:.3g} replica-slots/s with the device "
          "full (DIFFSWEEP_AUTO_MODEL sets them)")
    return 0


def add_subcommand(sub) -> None:
    """The ``diffsweep info`` parser, added to the CLI's subparsers ``sub``."""
    s = sub.add_parser("info", help="version, backends built, threads, CUDA device")
    s.set_defaults(fn=_cmd_info)
