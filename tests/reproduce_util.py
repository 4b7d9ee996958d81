"""`diffsweep reproduce <paper> --figure F --quick` through the CLI on shrunk sweep files: the
papers' end-to-end tests share it."""
from __future__ import annotations

import json
import re
from pathlib import Path

from diffsweep.cli import app as cli

ROOT = Path(__file__).resolve().parents[1]


def reproduce_shrunk(tmp_path: Path, monkeypatch, paper: str, package: str, sweeps, figure: str,
                     subs=()) -> tuple[Path, dict]:
    """Copies sweeps/<package>/<name>.toml for each name with its [quick] section edited by
    ``subs`` ((pattern, replacement) pairs, first match each) into ``tmp_path/sweeps``, runs the
    quick reproduction of one figure from them (``--sweeps``) into ``tmp_path/out``, and
    returns the folder and each claim's status. The command must succeed."""
    (tmp_path / f"sweeps/{package}").mkdir(parents=True)
    for name in sweeps:
        text = (ROOT / f"sweeps/{package}/{name}.toml").read_text()
        head, quick = text.split("[quick]", 1)
        for pattern, repl in subs:
            quick = re.sub(pattern, repl, quick, count=1)
        (tmp_path / f"sweeps/{package}/{name}.toml").write_text(head + "[quick]" + quick)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    rc = cli.main(["reproduce", paper, "--figure", figure, "--quick", "--out", str(out),
                   "--backend", "cpu", "--quiet", "--sweeps", str(tmp_path / "sweeps")])
    assert rc == 0
    verdicts = json.loads((out / "verdicts.json").read_text())
    status = {k: (v["status"] if isinstance(v, dict) else v) for k, v in verdicts.items()}
    return out, status
