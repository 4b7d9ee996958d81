"""Every code block of README.md is checked: the two install commands for their form (running
them takes minutes), the first experiment's sweep file, its command line and its Python twin
really run, and the tables they print must hold the lines the README shows."""
from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from diffsweep.cli import app as cli

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)


def blocks() -> list[tuple[str, str]]:
    """(language, text) of every fenced block of README.md, in order."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer((ROOT / "README.md").read_text())]


def lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.strip("\n").splitlines()]


def test_readme_blocks_are_the_expected_ones():
    langs = [lang for lang, _ in blocks()]
    assert langs == ["bash", "bash", "toml", "bash", "text", "python", "text"], langs


def test_install_commands():
    (_, first), (_, second) = blocks()[:2]
    assert first.strip() == ("python3 -m venv .venv && .venv/bin/pip install . && "
                             ".venv/bin/diffsweep reproduce kaur-vin --quick")
    ci = [ln for ln in (ROOT / ".ci" / "run").read_text().splitlines()
          if ln and not ln.startswith("#") and "venv" in ln]
    assert ci == [second.strip()], "the README's test command is what .ci/run runs verbatim"


@pytest.fixture
def experiment(tmp_path, monkeypatch):
    """The first experiment's blocks, with the sweep file written where the command reads it."""
    _, _, (_, toml), (_, command), (_, shown), (_, python), (_, printed) = blocks()
    names = re.findall(r"\b[\w-]+\.toml\b", command)
    assert names, command
    (tmp_path / names[0]).write_text(toml)
    monkeypatch.chdir(tmp_path)
    return command, shown, python, printed


def assert_shown(shown: str, out: str) -> None:
    got = lines(out)
    missing = [ln for ln in lines(shown) if ln not in got]
    assert not missing, f"lines the README shows that the run did not print: {missing}\n{out}"


def test_first_experiment_command_line(experiment, capsys):
    command, shown, _, _ = experiment
    for part in command.split("&&"):
        argv = shlex.split(part)
        assert argv[0] == "diffsweep", part
        assert cli.main(argv[1:] + (["--backend", "cpu"] if argv[1] == "run" else [])) == 0
    assert_shown(shown, capsys.readouterr().out)


def test_first_experiment_python_twin(experiment):
    _, _, python, printed = experiment
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(python, "README.md (Python twin)", "exec"), {"__name__": "__readme__"})
    assert_shown(printed, buf.getvalue())
