"""The header-only core (Philox4x32-10 known answers, portable log/exp) tested in C++:
compiled with the same floating-point flags as the engine and run from pytest."""
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_core_cpp(tmp_path):
    exe = tmp_path / "test_core"
    subprocess.run(["g++", "-std=c++17", "-O2", "-ffp-contract=off", "-Wall", "-Wextra",
                    f"-I{ROOT / 'cuda'}", str(ROOT / "tests/cpp/test_core.cpp"), "-o", str(exe)],
                   check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert " 0 failed" in out.stdout
