"""The registry of papers: what it feeds (CLI choices, builders, reproduce), the package data it
ships, and that the generic modules never name a paper."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import diffsweep
from diffsweep.cli import app as cli
from diffsweep.sweep import config
from diffsweep import papers
from diffsweep.core.errors import ConfigError

PKG = Path(diffsweep.__file__).resolve().parent
# every generic module: the layers below the papers (and the papers' own registry)
GENERIC = ["studies/reproduce.py", "studies/reproduce_folder.py", "studies/reproduce_report.py",
           "studies/family_call.py", "studies/reproduce_plan.py", "studies/atlas.py",
           "cli/app.py", "cli/reproduce.py", "cli/atlas.py",
           "report/paper_report.py", "analysis/claims.py",
           "scenario/builders.py", "core/identity.py", "core/registry.py", "report/figures.py",
           "papers/__init__.py"]


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
            assert getattr(diffsweep.scenario.builders, builder) is papers.resolve(target)


def test_unknown_paper_and_builder_name_the_allowed_ones():
    with pytest.raises(ConfigError, match=r"paper: 'nope' is not allowed \(expected one of .*kaur-vin"):
        papers.get("nope")
    with pytest.raises(AttributeError, match="registered: .*kaur_vin"):
        diffsweep.scenario.builders.nope  # noqa: B018


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


def test_kaur_vin_fairness_figures_run_in_index_order_with_noisy_variants():
    """Issue 10: the primary K5-K9 (Figs. 5-9) run as the paper's ns-2 did, same-slot arrivals
    in flow-index order without send jitter; K5v holds the random-order and jitter variants."""
    from diffsweep.studies.reproduce_folder import _sweep_path
    paper = papers.get("kaur-vin")

    def fixed(name):
        return config.load_sweep(_sweep_path(paper.package, name)).fixed

    for fid in ("K5", "K6", "K7", "K8", "K9"):
        sweeps = paper.family(fid).sweeps
        assert sweeps and all(fixed(n).get("tie_break") == "index" for n in sweeps), fid
        assert all("send_jitter_s" not in fixed(n) for n in sweeps), fid
    variants = paper.family("K5v").sweeps
    assert {"k5_equal", "k5_unequal", "k7_equal", "k7_unequal"} <= set(variants)
    assert all(fixed(n).get("tie_break", "random") == "random"
               for n in ("k5_equal", "k5_unequal", "k7_equal", "k7_unequal"))
    assert any(n.endswith("_jitter") for n in variants)
