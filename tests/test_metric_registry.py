"""Metrics as named things (issue 53): the registry's built-ins against hand-computed tables,
the expression form, bounded intervals, a metric and a claim of one's own, and every command
that takes a metric by name (show, plot, export, sensitivity, run --target-metric, atlas)."""
import json
import math
import textwrap

import numpy as np
import pandas as pd
import pytest

import diffsweep
from diffsweep.analysis import expressions, registry
from diffsweep.analysis.own_claims import claim, load_claim
from diffsweep.analysis.stats import summarize
from diffsweep.cli import app as cli
from diffsweep.core.errors import ConfigError
from diffsweep.core.results import Results


def hand_results():
    """Two replicas: flows of goodput 3 and 1 Mb/s (replica 0), 2 and 2 (replica 1); one
    10 Mb/s bottleneck (link 0) and an access link (link 1)."""
    rep = pd.DataFrame({"point": [0, 0], "seed": [0, 1], "measured_s": [10.0, 10.0],
                        "tcp_goodput_bps": [4e6, 4e6], "aqm": ["red", "red"]})
    flows = pd.DataFrame({"point": [0] * 4, "seed": [0, 0, 1, 1], "flow": [0, 1, 0, 1],
                          "goodput_bps": [3e6, 1e6, 2e6, 2e6], "drops": [3, 1, 0, 2],
                          "pkts_sent": [100, 100, 50, 150], "retransmits": [3, 1, 0, 2],
                          "timeouts": [1, 0, 0, 0], "variant": ["sack", "reno"] * 2})
    queues = pd.DataFrame({"point": [0] * 4, "seed": [0, 0, 1, 1], "link": [0, 1, 0, 1],
                           "cls": ["be"] * 4, "rate_bps": [10e6, 100e6, 10e6, 100e6],
                           "bytes_departed": [10e6, 2e6, 5e6, 1e6],
                           "mean_queue_pkts": [4.0, 0.5, 2.0, 0.1],
                           "mean_queue_bytes": [5000.0, 50.0, 2500.0, 10.0],
                           "max_delay_s": [0.02, 0.001, 0.01, 0.001]})
    e = pd.DataFrame()
    return Results(rep, flows, queues, e, e, meta={"axes": ["aqm"]})


def test_builtins_equal_hand_computed_values():
    r = hand_results()
    val = lambda n: registry.values(r, n)[n].tolist()  # noqa: E731
    assert val("jain_index") == pytest.approx([16 / (2 * 10), 1.0])  # (3+1)^2 / (2 (9+1))
    assert val("min_max_ratio") == pytest.approx([1 / 3, 1.0])
    assert val("loss_rate") == pytest.approx([4 / 200, 2 / 200])
    assert val("goodput_per_flow_bps") == pytest.approx([2e6, 2e6])
    assert val("timeouts_per_flow") == pytest.approx([0.5, 0.0])
    # the bottleneck is link 0 (10e6 B x 8 / (10 Mb/s x 10 s) = 0.8; the access link 0.016)
    assert val("utilization") == pytest.approx([0.8, 0.4])
    assert val("queue_delay_ms") == pytest.approx([5000 * 8e3 / 10e6, 2500 * 8e3 / 10e6])
    assert val("max_queue_delay_ms") == pytest.approx([20.0, 10.0])
    assert val("tcp_goodput_bps") == [4e6, 4e6]


def test_expressions_aggregate_select_and_combine():
    r = hand_results()
    val = lambda n: registry.values(r, n)[n].tolist()  # noqa: E731
    assert val("sum(flows.drops) / sum(flows.pkts_sent)") == pytest.approx(val("loss_rate"))
    assert val("flows.goodput_bps:jain") == pytest.approx(val("jain_index"))
    assert val('sum(flows.goodput_bps[variant == "sack"]) / tcp_goodput_bps') == \
        pytest.approx([0.75, 0.5])
    assert val("max(queues.mean_queue_pkts[link == 0 and rate_bps > 1e6])") == [4.0, 2.0]
    assert val("p50(flows.pkts_sent)") == [100.0, 100.0]
    assert val("count(flows.flow[drops > 1])") == [1.0, 1.0]
    # a ratio with a zero denominator is undefined for that replica, not inf
    assert math.isnan(val("sum(flows.drops[flow == 0]) / sum(flows.drops[flow == 0])")[1])
    assert registry.resolve("flows.goodput_bps:minmax").bounds == (0.0, 1.0)


@pytest.mark.parametrize("text, match", [
    ("__import__('os').system('true')", "not allowed"),
    ("open(flows.goodput_bps)", "unknown aggregate 'open'"),
    ("mean(flow.goodput_bps)", "unknown table 'flow'"),
    ("mean(flows.goodput)", "did you mean 'goodput_bps'"),
    ("jain_idx", "did you mean 'jain_index'"),
    ("flows.goodput_bps ** 2", "not allowed"),
    ("mean(flows.goodput_bps[flow in (0, 1)])", "condition"),
    ("user_metrics:not_marked", "not marked as a diffsweep metric"),
    ("no_such_module_x:f", "no module named 'no_such_module_x'"),
])
def test_bad_metrics_are_one_line(text, match):
    with pytest.raises(ConfigError, match=match) as e:
        registry.values(hand_results(), text)
    assert "\n" not in str(e.value)


def test_summaries_of_bounded_metrics_stay_in_range():
    """Issue 53: summarize on jain_index gave ci_high 1.002; now inside [0, 1], the mean the
    same, and an unbounded column keeps its Student-t interval."""
    df = pd.DataFrame({"point": [0] * 4, "jain_index": [0.999, 0.990, 1.0, 0.98],
                       "x": [0.999, 0.990, 1.0, 0.98]})
    s = summarize(df, by=["point"], metrics=["jain_index", "x"]).set_index("metric")
    assert s.loc["x", "ci_high"] > 1.0  # the plain t interval leaves the range
    assert s.loc["jain_index", "ci_high"] < 1.0 and s.loc["jain_index", "ci_low"] > 0.9
    assert s.loc["jain_index", "mean"] == s.loc["x", "mean"]


SWEEP = textwrap.dedent("""\
    name = "db"
    builder = "dumbbell"
    seeds = 3
    [axes]
    n_flows = [2, 4]
    aqm = ["droptail", "red"]
    [fixed]
    duration_s = 8.0
    warmup_s = 2.0
    max_window_pkts = 200
    """)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("metrics")
    (d / "db.toml").write_text(SWEEP)
    assert cli.main(["run", str(d / "db.toml"), "--out", str(d / "out"), "--backend", "cpu",
                     "--quiet"]) == 0
    return d


def test_show_prints_several_metrics_with_bounded_intervals(folder, capsys):
    assert cli.main(["show", str(folder / "out"), "--metric", "jain_index", "--metric",
                     "loss_rate", "--metric", "queue_delay_ms", "--metric",
                     "user_metrics:first_flow_share"]) == 0
    out = capsys.readouterr().out
    for name in ("jain_index: mean over seeds and 95% CI (kept inside [0, 1])",
                 "loss_rate: mean", "queue_delay_ms (ms): mean",
                 "user_metrics:first_flow_share: mean"):
        assert name in out, out
    res = diffsweep.load(folder / "out")
    from diffsweep.sweep.folder import summary_table
    t = summary_table(res, ["n_flows", "aqm"], "jain_index")
    assert len(t) == 4 and (t["ci_high"] <= 1.0).all() and (t["ci_low"] >= 0).all()
    want = registry.values(res, "jain_index").groupby(["n_flows", "aqm"])["jain_index"].mean()
    got = t.set_index(["n_flows", "aqm"])["mean"]
    assert np.allclose(got.sort_index().to_numpy(), want.sort_index().to_numpy())


def test_plot_export_and_errors(folder, capsys):
    out = folder / "out"
    assert cli.main(["plot", str(out), "--x", "n_flows", "--y", "jain_index", "--hue",
                     "aqm"]) == 0
    assert (out / "plot_jain_index_vs_n_flows.png").stat().st_size > 1000
    assert cli.main(["plot", str(out), "--x", "n_flows", "--y",
                     "sum(flows.drops) / sum(flows.pkts_sent)", "--hue", "aqm"]) == 0
    assert (out / "plot_sum_flows.drops_sum_flows.pkts_sent_vs_n_flows.png").exists()
    assert cli.main(["export", str(out), "--format", "csv", "--metric", "jain_index",
                     "--metric", "loss_rate"]) == 0
    m = pd.read_csv(out / "export-csv" / "metrics.csv")
    assert len(m) == 12 and {"jain_index", "loss_rate", "n_flows", "aqm"} <= set(m.columns)
    capsys.readouterr()
    assert cli.main(["show", str(out), "--metric", "jain_idx"]) == 2
    err = capsys.readouterr()
    assert "did you mean 'jain_index'" in err.err and "mean over seeds" not in err.out


def test_target_ci_on_jain_index(folder, capsys):
    out = folder / "ci"
    assert cli.main(["run", str(folder / "db.toml"), "--out", str(out), "--backend", "cpu",
                     "--target-ci", "0.001", "--target-metric", "jain_index", "--max-seeds", "6",
                     "--quiet"]) == 0
    m = json.loads((out / "manifest.json").read_text())["runs"][-1]["meta"]
    assert m["ci_metric"] == "jain_index" and max(m["ci_seeds_per_point"].values()) > 3


def test_sensitivity_on_a_named_metric_and_the_dry_run_checks_it(folder, capsys):
    assert cli.main(["sensitivity", "dumbbell", "--factors", "n_flows=2:6",
                     "--metric", "replicas.jain", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "did you mean the metric 'jain_index'" in err and err.count("\n") == 1, err
    assert cli.main(["sensitivity", "dumbbell", "--factors", "n_flows=2:6",
                     "--metric", "flows.rtt_ms", "--dry-run"]) == 2
    assert "did you mean 'rtp_ms'" in capsys.readouterr().err
    out = folder / "sens"
    assert cli.main(["sensitivity", "dumbbell", "--factors", "n_flows=2:6", "buffer_pkts=10:80",
                     "--metric", "jain_index", "--method", "morris", "--n", "2", "--seeds", "2",
                     "--set", "duration_s=4", "warmup_s=1", "--out", str(out), "--quiet"]) == 0
    s = json.loads((out / "sensitivity.json").read_text())
    assert "Jain" in json.dumps(s)


def test_own_claim_checks_and_atlas_over_two_axes(folder, tmp_path):
    (tmp_path / "claim.toml").write_text(textwrap.dedent(f"""\
        [claim]
        id = "red-shorter-queue"
        text = "RED keeps the mean queueing delay at least 2 ms below drop-tail's"
        metric = "queue_delay_ms"
        kind = "compare"
        axis = "aqm"
        a = "red"
        b = "droptail"
        direction = "lower"
        margin = 2.0
        sweep = "{(folder / 'db.toml').as_posix()}"
        """))
    c = load_claim(str(tmp_path / "claim.toml"))
    v = c.check(diffsweep.load(folder / "out"))
    assert v.status in ("holds", "partly holds", "does not hold") and "n_flows=2" in v.reason
    out = tmp_path / "atlas"
    assert cli.main(["atlas", str(tmp_path / "claim.toml"), "--axes", "buffer_pkts=20,80",
                     "bottleneck_bps=5e6,20e6", "--max-seeds", "3", "--out", str(out),
                     "--quiet"]) == 0
    t = pd.read_csv(out / "verdicts.csv")
    assert len(t) == 4 and set(t.columns) >= {"buffer_pkts", "bottleneck_bps", "status"}
    assert (out / "atlas.png").exists() and "the claim's own check" in \
        (out / "atlas.md").read_text()
    # its verdict in a cell is the claim's check on that cell's results
    cell0 = diffsweep.load(out / "cells" / "0" / "db")
    assert t.loc[0, "verdict"] == c.check(cell0).status


def test_show_rates_a_claim_of_ones_own_on_a_folder(folder, tmp_path, capsys):
    (tmp_path / "fair.toml").write_text(textwrap.dedent("""\
        [claim]
        id = "fair-enough"
        text = "Jain's index stays at or above 0.5 at every point"
        metric = "jain_index"
        kind = "level"
        hold_at = 0.5
        """))
    assert cli.main(["show", str(folder / "out"), "--metric", "jain_index",
                     "--claim", str(tmp_path / "fair.toml")]) == 0
    out = capsys.readouterr().out
    v = load_claim(str(tmp_path / "fair.toml")).check(diffsweep.load(folder / "out"))
    assert f"claim fair-enough: {v.status}: Jain's index stays" in out
    assert "test: jain_index at every point: holds if its 95% CI is >= 0.5" in out
    assert v.reason.split("; ")[0] in out
    # a bad claim is refused before anything is printed
    assert cli.main(["show", str(folder / "out"), "--claim", str(tmp_path / "no.toml")]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and "no such file" in cap.err


@pytest.mark.parametrize("kw, match", [
    (dict(kind="compre"), "did you mean 'compare'"),
    (dict(kind="compare", axis="aqm", a="red", b="red"), "two different values"),
    (dict(kind="level"), "hold_at is missing"),
    (dict(kind="trend", axis="n_flows", directon="higher"), "unknown key 'directon'"),
    (dict(kind="trend", axis="n_flows", metric="jain_idx"), "did you mean 'jain_index'"),
])
def test_bad_claims_are_one_line(kw, match):
    kw = {"id": "x", "text": "t", "metric": "jain_index", **kw}
    with pytest.raises(ConfigError, match=match):
        claim(**kw)


def test_a_claim_of_ones_own_trend_and_level_against_hand_tables():
    r = hand_results()
    r.replicas["n"] = [1, 2]
    r.meta["axes"] = ["n"]
    # jain falls... with one seed per n no slope per seed: not measured, never a guess
    v = claim(id="x", text="t", metric="jain_index", kind="trend", axis="n").check(r)
    assert v.status == "not measured"
    # two seeds' losses 0.02 and 0.01: t_{0.975,1} = 12.7 makes the interval wide, inside
    # [0, 1] on the logit scale; below 0.9 as a whole, reaching past 0.05
    lvl = dict(id="x", text="t", metric="loss_rate", kind="level", direction="lower")
    assert claim(**lvl, hold_at=0.9).check(hand_results()).status == "holds"
    assert claim(**lvl, hold_at=0.05).check(hand_results()).status == "partly holds"
    assert claim(**lvl, hold_at=0.00005).check(hand_results()).status == "does not hold"


def test_metrics_lists_them_and_the_users(capsys):
    assert cli.main(["metrics", "--module", "user_metrics"]) == 0
    out = capsys.readouterr().out
    assert "jain_index" in out and "queue_delay_ms" in out and "first_flow_share" in out
    assert cli.main(["metrics", "--module", "no_such_mod_q"]) == 2
    assert "--module: 'no_such_mod_q' cannot be imported" in capsys.readouterr().err


def test_user_metric_and_claim_on_a_dask_cluster(folder, tmp_path, dask_client, capsys):
    """The metric of one's own module aims --target-ci of a run on a Dask cluster, and the
    claim rates the folder the cluster wrote."""
    out = tmp_path / "dask"
    assert cli.main(["run", str(folder / "db.toml"), "--out", str(out), "--backend", "cpu",
                     "--threads", "1", "--quiet", "--scheduler", dask_client.scheduler.address,
                     "--target-ci", "0.05", "--target-metric", "user_metrics:first_flow_share",
                     "--max-seeds", "5"]) == 0
    meta = json.loads((out / "manifest.json").read_text())["runs"][-1]["meta"]
    assert meta["distributed"] and meta["ci_metric"] == "user_metrics:first_flow_share"
    res = diffsweep.load(out)
    import user_metrics
    v = load_claim("user_metrics:FAIRER").check(res)
    assert v is not None and v.status in ("holds", "partly holds", "does not hold")
    assert user_metrics.FAIRER.id == "red-fairer"
    got = registry.values(res, "user_metrics:first_flow_share")["user_metrics:first_flow_share"]
    assert ((got >= 0) & (got <= 1)).all()
