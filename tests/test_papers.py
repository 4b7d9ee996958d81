"""The registry of papers: what it feeds (CLI choices, builders, reproduce), the package data it
ships, and that the generic modules never name a paper."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import diffsweep
from diffsweep import cli, config, papers
from diffsweep.errors import ConfigError

PKG = Path(diffsweep.__file__).resolve().parent
GENERIC = ["reproduce.py", "report.py", "claims.py", "scenarios.py", "identity.py",
           "figures/__init__.py", "papers/__init__.py"]


def test_registry_feeds_cli_builders_and_scenarios(capsys):
    assert "kaur-vin" in papers.names()
    with pytest.raises(SystemExit):
        cli.main(["reproduce", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for name in papers.names():
        paper = papers.get(name)
        assert name in help_text
        assert " ".join(paper.figure_choices()) in help_text
        for builder, target in paper.builders.items():
            assert config.BUILDERS[builder] == target
            assert getattr(diffsweep.scenarios, builder) is papers.resolve(target)


def test_unknown_paper_and_builder_name_the_allowed_ones():
    with pytest.raises(ConfigError, match=r"paper: 'nope' is not allowed \(expected one of .*kaur-vin"):
        papers.get("nope")
    with pytest.raises(AttributeError, match="registered: kaur_vin"):
        diffsweep.scenarios.nope  # noqa: B018


def test_reference_data_is_package_data():
    from diffsweep.papers.kaur_vin.explain import NS2_K2_CSV, ns2_k2_loss
    paper = papers.get("kaur-vin")
    path = paper.data_file(NS2_K2_CSV)
    assert path.is_file() and PKG in path.parents
    loss = ns2_k2_loss(path)
    assert list(loss.columns) == ["t_on_ms", "loss", "loss_ci"] and len(loss) >= 4


@pytest.mark.parametrize("module", GENERIC)
def test_generic_modules_never_name_a_paper(module):
    text = (PKG / module).read_text()
    for paper in papers.names():
        pkg = papers.get(paper).package
        for word in (paper, pkg, pkg.split("_")[0].capitalize() + " &"):
            # the one allowed mention: an example in a docstring of how the registry is used
            hits = [line for line in text.splitlines() if word in line
                    and not re.search(r"``[^`]*" + re.escape(word) + r"[^`]*``|e\.g\.", line)]
            assert not hits, f"{module} names the paper {paper}: {hits[:3]}"
