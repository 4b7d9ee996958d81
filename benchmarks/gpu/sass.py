"""Static SASS of the CUDA engine kernel (issue 21: "SASS of the slot loop via cuobjdump -sass").

    python benchmarks/gpu/sass.py [--src DIR] [--arch sm_90] [-D NAME[=V] ...] [--out benchmarks/gpu/results]

Compiles cuda/backend_cuda.cu of DIR (default: this checkout) to a cubin with the module's
flags, disassembles it (cuobjdump -sass; with no CUDA toolkit binaries on PATH it uses the
`nvidia-cuda-cuobjdump` and `nvidia-cuda-nvdisasm` wheels) and counts the kernel's
instructions and its memory instructions by kind: LDL/STL are local memory (a per-thread
stack: the old 920-byte replica view lived there), LDG/STG global, LD/ST generic, LDC
constant. Needs nvcc, not a GPU. Static counts (code size), not instructions executed per
slot: compare builds by them, not with the CPU's callgrind counts.
"""
from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tool(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for d in sys.path:
        hits = glob.glob(os.path.join(d, "nvidia", "cu*", "bin", name))
        if hits:
            return hits[0]
    sys.exit(f"{name} not found: install the CUDA toolkit or `pip install nvidia-cuda-cuobjdump "
             "nvidia-cuda-nvdisasm`")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=str(ROOT), help="a diffsweep checkout")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--name", default=None, help="what the checkout is (default: its commit)")
    ap.add_argument("-D", dest="defines", action="append", default=[],
                    help="a build variant's macro (e.g. DS_CUDA_MIN_BLOCKS=6)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args()
    src = Path(args.src)
    cccl = "/usr/local/cuda/include/cccl"
    # the kernel's source: kernel_full.cu and kernel_slim.cu (since the slim kernel), else the
    # backend itself (older checkouts)
    sources = [src / "cuda" / f for f in ("kernel_full.cu", "kernel_slim.cu")
               if (src / "cuda" / f).is_file()] or [src / "cuda" / "backend_cuda.cu"]
    sass = ""
    with tempfile.TemporaryDirectory() as d:
        for source in sources:
            cubin = Path(d) / "engine.cubin"
            subprocess.run(["nvcc", "-std=c++17", f"-arch={args.arch}", "-fmad=false",
                            "--expt-relaxed-constexpr", "-DDS_BACKEND_CUDA", "-O3", "-I",
                            str(src / "cuda"), "-I", cccl, *(f"-D{d}" for d in args.defines),
                            "-cubin", "-o", str(cubin), str(source)],
                           check=True, capture_output=True)
            disasm = tool("nvdisasm")
            env = dict(os.environ, NVDISASM_PATH=disasm)
            out = subprocess.run([tool("cuobjdump"), "-sass", str(cubin)], env=env, check=True,
                                 capture_output=True, text=True).stdout
            sass += out.replace("Function : ", f"Function : {source.stem}:")
    kernels = {}
    name = None
    for line in sass.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            name = m.group(1)
            kernels[name] = collections.Counter()
            continue
        m = re.match(r"\s+/\*[0-9a-f]+\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9]*)", line)
        if name and m:
            kernels[name]["instructions"] += 1
            op = m.group(2)
            if op in ("LDL", "STL", "LDG", "STG", "LD", "ST", "LDC", "LDS", "STS", "BRA", "CALL"):
                kernels[name][op] += 1
    rev = args.name or subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=src,
                                      capture_output=True, text=True).stdout.strip()
    rev += "".join(f"-{d.lower().replace('=', '')}" for d in args.defines)
    for k, c in kernels.items():
        short = re.sub(r"^(\w+:)?.*?(run_\w+?)E.*", r"\1\2", k)
        print(f"{rev} {short}: " + ", ".join(f"{op} {n}" for op, n in sorted(c.items())))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"sass-{rev}-{args.arch}.json"
    path.write_text(json.dumps({"commit": rev, "arch": args.arch, "host": platform.node(),
                                "nvcc": subprocess.run(["nvcc", "--version"], capture_output=True,
                                                       text=True).stdout.strip().splitlines()[-1],
                                "kernels": {k: dict(c) for k, c in kernels.items()}}, indent=2) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
