"""The generated pages docs/builders.md and docs/columns.md are what the code generates
(``python -m diffsweep.report.docs_pages``), every column the engine's tables have is described (and
nothing else), the facts the columns page states hold in the engine, and ``diffsweep builders
[NAME]`` reads the builders themselves (issue 45)."""
import inspect
from pathlib import Path

import pytest

import diffsweep as ds
import user_builders
from diffsweep import Grid
from diffsweep.report import builders_page as builders_doc
from diffsweep.cli import app as cli
from diffsweep.analysis import columns
from diffsweep.sweep import config
from diffsweep.report import docs_pages
from diffsweep.scenario import builders as S
from diffsweep.core.errors import check
from diffsweep.core.results import TABLES

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_pages_are_what_the_code_generates():
    assert docs_pages.stale(DOCS) == [], "regenerate them: python -m diffsweep.report.docs_pages"


def test_the_page_test_sees_a_change_in_a_builder(monkeypatch):
    """A builder's parameter gaining a unit (or any change the page shows) makes the committed
    page stale: the page is generated from the builders, not kept by hand."""
    kv = config.resolve_builder("kaur_vin")
    monkeypatch.setattr(kv, "units", {**getattr(kv, "units", {}), "ef": "a new unit"},
                        raising=False)
    assert docs_pages.stale(DOCS) == ["builders.md"]
    assert "| `ef` | a new unit |" in builders_doc.builders_markdown()


@pytest.fixture(scope="module")
def produced():
    """Every engine column of every table (grid columns left out), from runs that fill every
    table and every optional column: EF and UDP sources (kaur_vin), traffic generators,
    telnet flows and intervals (matta_guo), markers and a cwnd trace (habib_2a)."""
    grids = [Grid(S.kaur_vin, seeds=1, n_flows=2, duration_s=1.0, warmup_s=0.2, udp=True),
             Grid(S.matta_guo, seeds=1, n_flows=2, duration_s=2.0),
             Grid(S.habib_2a, seeds=1, n_micro=2, duration_s=1.0, warmup_s=0.2, trace=True)]
    cols = {t: set() for t in TABLES}
    for g in grids:
        res = ds.run(g, backend="cpu", threads=1)
        for t in TABLES:
            cols[t] |= {c for c in getattr(res, t).columns
                        if c not in g.columns and c.removesuffix("_grid") not in g.columns}
    return cols


@pytest.mark.parametrize("table", TABLES)
def test_every_column_has_a_description_and_every_description_a_column(table, produced):
    assert table in columns.COLUMNS, f"{table}: no entry in diffsweep.analysis.columns.COLUMNS"
    described = set(columns.expanded(table)) | set(columns.KEYS)
    undescribed = produced[table] - described
    assert not undescribed, (f"{table}: columns without a description in "
                             f"diffsweep.analysis.columns.COLUMNS: {sorted(undescribed)}")
    assert not described - produced[table], f"{table}: described but not produced"
    for c in produced[table]:
        unit, meaning = columns.describe(table, c)
        assert meaning, (table, c)


def test_a_new_engine_column_without_description_is_caught(produced):
    """The check above compares the engine's columns with the descriptions: a column the
    engine gains is one the descriptions lack."""
    assert columns.describe("queues", "a_new_counter") is None
    assert columns.describe("queues", "early_drops_yellow")[0] == "packets"


def test_the_drop_counters_are_what_the_columns_page_says():
    """flows.drops counts RED's early drops; queues.drops does not (buffer overflows only);
    RED's early drops are queues.early_drops_<colour>, its forced drops and the buffer's
    forced_drops_<colour> (no random loss, no access-link buffer here)."""
    res = ds.run(Grid(user_builders.two_rtt_dumbbell, seeds=2, n_flows=16, buffer_pkts=20,
                      aqm="red", duration_s=3.0, warmup_s=0.5), backend="cpu", threads=1)
    q, f = res.queues, res.flows
    early = sum(q[f"early_drops_{c}"].sum() for c in ("green", "yellow", "red"))
    forced = sum(q[f"forced_drops_{c}"].sum() for c in ("green", "yellow", "red"))
    assert early > 0 and q["random_drops"].sum() == 0
    assert f["drops"].sum() == early + forced
    assert f["drops"].sum() > q["drops"].sum()
    assert q["drops"].sum() <= forced
    assert f["early_drops_green"].sum() == q["early_drops_green"].sum() == early
    page = columns.columns_markdown()
    assert "`flows.drops` counts every loss of a flow's packets (RED's early" in page
    assert "`queues.drops` counts buffer overflows only" in page


# --------------------------------------------------------------------------------------------
# builders: parameters read from the builder
# --------------------------------------------------------------------------------------------
@ds.builder
def probe_me(n_links=2, rate_mbps=10.0, mode="fast", careful=False, depth_pkts=5,
             loose=1.5, spread=2.0, seed=0):
    check(isinstance(n_links, int) and 1 <= n_links <= 9, "n_links", n_links,
          "an integer in 1..9")
    check(mode in ("fast", "slow"), "mode", mode, "one of 'fast', 'slow'")
    if careful:
        check(isinstance(depth_pkts, int) and depth_pkts >= 1, "depth_pkts", depth_pkts,
              "an integer >= 1 (a queue of (depth) packets)")
    if mode == "slow":
        check(isinstance(spread, float), "spread", spread, "a float")
    float(rate_mbps) + loose  # a TypeError for a bad value: not a check
    return user_builders.two_rtt_dumbbell()


probe_me.units = {"spread": "ms per hop"}


def test_parameters_come_from_signature_names_and_validation():
    ps = {p.name: p for p in builders_doc.parameters(probe_me)}
    assert list(ps) == [n for n in inspect.signature(probe_me).parameters if n != "seed"]
    assert ps["n_links"].default == "2" and ps["n_links"].unit == "count"
    assert ps["n_links"].allowed_text() == "an integer in 1..9"
    assert ps["rate_mbps"].unit == "Mb/s" and ps["rate_mbps"].default == "10"
    assert ps["rate_mbps"].allowed_text() == "not checked by the builder"
    assert ps["mode"].default == '"fast"' and ps["mode"].allowed == "one of 'fast', 'slow'"
    assert ps["careful"].default == "false"
    # checked only under another setting: found, with the setting
    assert ps["depth_pkts"].unit == "packets"
    assert ps["depth_pkts"].allowed_text() == ("an integer >= 1 (a queue of (depth) packets) "
                                               "(checked when careful = true)")
    assert ps["spread"].unit == "ms per hop"
    assert ps["spread"].allowed_text() == 'a float (checked when mode = "slow")'
    assert ps["loose"].unit == "" and not ps["loose"].allowed


def test_cli_builders_list_name_markdown_and_bad_name(monkeypatch, capsys):
    monkeypatch.setitem(config.BUILDERS, "probe-me", probe_me)
    assert cli.main(["builders"]) == 0
    out = capsys.readouterr().out
    for name in config.BUILDERS:
        assert any(line.split()[:1] == [name] for line in out.splitlines()), name
    assert "probe-me" in out and "registered" in out
    assert builders_doc.packaged() == [n for n in config.BUILDERS if n != "probe-me"]

    assert cli.main(["builders", "kaur_vin"]) == 0
    out = capsys.readouterr().out
    params = [n for n in inspect.signature(S.kaur_vin).parameters if n != "seed"]
    rows = [ln.split()[0] for ln in out.splitlines()[3:] if ln.strip()]
    assert rows[0] == "parameter" and rows[1:] == params
    assert "udp_fraction" in out and "(checked when udp = true)" in out

    assert cli.main(["builders", "probe-me"]) == 0
    assert "depth_pkts" in capsys.readouterr().out
    assert cli.main(["builders", "user_builders:two_rtt_dumbbell"]) == 0
    assert "rtp_ratio" in capsys.readouterr().out

    assert cli.main(["builders", "--markdown"]) == 0
    assert capsys.readouterr().out == builders_doc.builders_markdown()

    assert cli.main(["builders", "kaur_vn"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "diffsweep: error: builders: unknown builder 'kaur_vn' (did you mean 'kaur_vin'?)"
    assert cli.main(["builders", "user_builders:two_rtt_dumbell"]) == 2
    assert "did you mean 'two_rtt_dumbbell'?" in capsys.readouterr().err


def test_a_builder_with_required_parameters_is_not_probed():
    @ds.builder
    def needs(n_flows, rtp_ms=10.0, seed=0):
        raise AssertionError("not called: it has no defaults to be asked at")
    ps = builders_doc.parameters(needs)
    assert [p.default for p in ps] == ["required", "10"]
    assert all(p.allowed_text().startswith("unknown: the builder has parameters without "
                                           "defaults") for p in ps)
