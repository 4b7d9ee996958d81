"""diffsweep.studies.sensitivity (issue 46): known answers through the study's own code path (a pure
function in place of the engine: Ishigami and Sobol' G against their analytical indices,
Jain's 2^2 3 example, a 2^(3-1) fraction), the engine path (a small Kaur & Vin study, its page
and figure, the CLI and --dry-run), adaptive seeds, resume after an interruption, and the
errors."""
import math
import shlex

import numpy as np
import pandas as pd
import pytest

import diffsweep as ds
from diffsweep.cli import app as cli
from diffsweep.engine import execution as engine
from diffsweep.sweep import runner
from diffsweep.core.errors import ConfigError, SweepInterrupted
from diffsweep.studies.sensitivity import factorial_design, parse_factors, parse_metric, sensitivity

QUIET = dict(log=lambda *a, **k: None)
FAST = {"duration_s": 4.0, "warmup_s": 1.0, "n_flows": 2}


# --------------------------------------------------------------------------------------------
# known answers
# --------------------------------------------------------------------------------------------

def ishigami(x1, x2, x3, a=7.0, b=0.1):
    return math.sin(x1) + a * math.sin(x2) ** 2 + b * x3 ** 4 * math.sin(x1)


def ishigami_indices(a=7.0, b=0.1):
    """Analytical first-order and total indices (Ishigami & Homma 1990; Sobol' & Levitan)."""
    v1 = 0.5 * (1 + b * math.pi ** 4 / 5) ** 2
    v2 = a ** 2 / 8
    v13 = b ** 2 * math.pi ** 8 * (1 / 18 - 1 / 50)
    v = v1 + v2 + v13
    return {"x1": (v1 / v, (v1 + v13) / v), "x2": (v2 / v, v2 / v), "x3": (0.0, v13 / v)}


G_A = (0.0, 1.0, 4.5, 9.0, 99.0, 99.0)


def sobol_g(**x):
    return math.prod((abs(4 * x[f"x{i}"] - 2) + a) / (1 + a) for i, a in enumerate(G_A))


def sobol_g_indices():
    vi = [1 / (3 * (1 + a) ** 2) for a in G_A]
    total = math.prod(1 + v for v in vi) - 1
    return {f"x{i}": (v / total, v * math.prod(1 + w for j, w in enumerate(vi) if j != i) / total)
            for i, v in enumerate(vi)}


@pytest.mark.parametrize("fn, factors, exact", [
    (ishigami, {f"x{i}": (-math.pi, math.pi) for i in (1, 2, 3)}, ishigami_indices()),
    (sobol_g, {f"x{i}": (0.0, 1.0) for i in range(len(G_A))}, sobol_g_indices()),
], ids=["ishigami", "sobol-g"])
def test_sobol_indices_hold_the_analytical_values(fn, factors, exact):
    res = sensitivity(None, factors, method="sobol", n=1024, seeds=1, function=fn, **QUIET)
    t = res.table.set_index("factor")
    for name, (s1, st) in exact.items():
        r = t.loc[name]
        assert r["S1_low"] <= s1 <= r["S1_high"], (name, "S1", s1, r["S1_low"], r["S1_high"])
        assert r["ST_low"] <= st <= r["ST_high"], (name, "ST", st, r["ST_low"], r["ST_high"])
        assert r["ST_conf"] < 0.1   # an interval that says something
    # sorted by total index, most important first
    assert list(t.index[:2]) == sorted(exact, key=lambda k: -exact[k][1])[:2]
    assert res.meta["design_points"] == 1024 * (len(factors) + 2)


@pytest.mark.parametrize("method, n", [("sobol", 64), ("morris", 8)])
def test_the_same_study_gives_the_same_table(method, n):
    # the design and the bootstrap are seeded (sample_seed): a rerun, or a resumed study,
    # gets the same intervals (SALib's sobol.analyze ignores a bootstrap seed of 0)
    def f(x1, x2, x3, seed):
        return ishigami(x1, x2, x3) + 0.5 * np.random.default_rng(seed).standard_normal()

    kw = dict(method=method, n=n, seeds=2, function=f, **QUIET)
    factors = {f"x{i}": (-math.pi, math.pi) for i in (1, 2, 3)}
    a = sensitivity(None, factors, **kw).table
    pd.testing.assert_frame_equal(a, sensitivity(None, factors, **kw).table)
    other = sensitivity(None, factors, sample_seed=1, **kw).table
    assert not other.equals(a)


# R. Jain, The Art of Computer Systems Performance Analysis (1991), ch. 18: a 2^2 3 design
# (memory size A, cache size B), y per run and replication:
JAIN_Y = {(-1, -1): [15, 18, 12], (1, -1): [45, 48, 51], (-1, 1): [25, 28, 19],
          (1, 1): [75, 75, 81]}


def jain(A, B, seed):
    return JAIN_Y[(A, B)][seed]


def test_jains_two_squared_three_design_gives_the_textbook_effects():
    res = sensitivity(None, {"A": [-1, 1], "B": [-1, 1]}, method="factorial", seeds=3,
                      level=0.90, function=jain, **QUIET)
    t = res.table.set_index("term")
    # by hand: run means 15, 48, 24, 77; q0 = 164/4, qA = (-15+48-24+77)/4, qB =
    # (-15-48+24+77)/4, qAB = (15-48-24+77)/4
    assert t.loc[["mean", "A", "B", "AB"], "effect"].tolist() == pytest.approx([41, 21.5, 9.5, 5])
    # SSE = 18 + 18 + 42 + 24 = 102; SS_j = 12 q_j^2: 5547, 1083, 300; SST = 7032
    assert t.loc[["A", "B", "AB", "error"], "sum_of_squares"].tolist() == pytest.approx(
        [5547, 1083, 300, 102])
    assert t.loc[["A", "B", "AB", "error"], "variation_pct"].tolist() == pytest.approx(
        [78.88, 15.40, 4.27, 1.45], abs=0.01)
    # s_e = sqrt(102 / 8), s_q = s_e / sqrt(12), t[0.95; 8] = 1.860: the 90% intervals
    half = 1.860 * math.sqrt(102 / 8) / math.sqrt(12)
    assert t.loc["A", "ci_low"] == pytest.approx(21.5 - half, abs=2e-3)
    assert t.loc["AB", "ci_high"] == pytest.approx(5 + half, abs=2e-3)
    assert t.loc[["A", "B", "AB"], "significant"].all()
    assert t.loc["AB", "factors"] == "A x B"


def test_a_function_study_writes_its_page(tmp_path):
    res = sensitivity(None, {"A": [-1, 1], "B": [-1, 1]}, method="factorial", seeds=3,
                      function=jain, out=tmp_path / "j", **QUIET)
    md = res.paths["md"].read_text()
    assert "| A | A | 21.5 |" in md and "| 78.9 |" in md and "runs/" not in md
    assert sorted(p.name for p in (tmp_path / "j").iterdir()) == [
        "design.csv", "sensitivity.csv", "sensitivity.html", "sensitivity.json", "sensitivity.md",
        "sensitivity.pdf", "sensitivity.png"]
    d = pd.read_csv(tmp_path / "j/design.csv")
    assert d["metric_mean"].tolist() == pytest.approx([15, 48, 24, 77])


def test_a_half_fraction_recovers_main_effects_and_names_the_aliases():
    signs, names, chains = factorial_design(3, 1)
    assert signs.shape == (4, 3) and (signs[:, 2] == signs[:, 0] * signs[:, 1]).all()
    assert chains == ["A = BC", "B = AC", "C = AB"]
    assert factorial_design(4, 1)[2][-1] == "D = ABC"

    def lin(a, b, c, seed):
        return 10 + 3 * a + 2 * b - c + 0.01 * (seed - 1)   # replications differ a little

    res = sensitivity(None, {"a": [-1, 1], "b": [-1, 1], "c": [-1, 1]}, method="factorial",
                      fraction=1, seeds=3, function=lin, **QUIET)
    t = res.table.set_index("term")
    assert list(t.index) == ["mean", "A", "B", "C", "error"]
    assert t.loc[["A", "B", "C"], "effect"].tolist() == pytest.approx([3, 2, -1])
    assert t.loc["C", "aliases"] == "C = AB"
    assert res.meta["design_points"] == 4


def test_morris_ranks_an_inert_factor_last():
    def f(a, b, c):
        return 5 * a + b * b

    res = sensitivity(None, {"a": (0.0, 1.0), "b": (0.0, 1.0), "c": (0.0, 1.0)},
                      method="morris", n=8, seeds=1, function=f, **QUIET)
    t = res.table
    assert list(t["factor"]) == ["a", "b", "c"]
    assert t.iloc[0]["mu_star"] == pytest.approx(5.0)   # linear: every effect is 5 per range
    assert t.iloc[0]["sigma"] == pytest.approx(0.0, abs=1e-9)
    assert t.iloc[2]["mu_star"] == 0.0


def test_levels_and_log_ranges_are_sampled_inside_the_factor_space():
    seen = []

    def f(n, t, seed):
        seen.append((n, t))
        return n * math.log(t)

    sensitivity(None, ["n=1,8,64", "t=0.4:400:log"], method="sobol", n=16, seeds=1,
                function=f, **QUIET)
    ns, ts = {n for n, _ in seen}, [t for _, t in seen]
    assert ns == {1, 8, 64}
    assert min(ts) >= 0.4 and max(ts) <= 400
    # log-uniform: about half the draws below the geometric middle (12.6)
    assert 0.3 < np.mean(np.array(ts) < math.sqrt(0.4 * 400)) < 0.7


def test_target_ci_adds_seeds_until_the_intervals_are_narrow():
    rng_scale = 3.0

    def noisy(A, B, seed):
        rng = np.random.default_rng(seed * 1000 + (A + 1) * 10 + (B + 1))
        return 10 * A + B + rng_scale * rng.standard_normal()

    kw = dict(method="factorial", seeds=2, function=noisy, **QUIET)
    wide = sensitivity(None, {"A": [-1, 1], "B": [-1, 1]}, **kw)
    assert wide.meta["widest_half_width"] > 0.05 * 10
    res = sensitivity(None, {"A": [-1, 1], "B": [-1, 1]}, target_ci=0.05, max_seeds=64, **kw)
    assert res.meta["target_met"] and res.meta["rounds"] > 1
    assert res.meta["widest_half_width"] <= 0.05 * res.meta["scale"]
    assert res.meta["seeds"] in (4, 8, 16, 32, 64)
    capped = sensitivity(None, {"A": [-1, 1], "B": [-1, 1]}, target_ci=0.001, max_seeds=4, **kw)
    assert not capped.meta["target_met"] and capped.meta["seeds"] == 4


# --------------------------------------------------------------------------------------------
# the engine path
# --------------------------------------------------------------------------------------------

def kv_study(tmp_path, out="s", **kw):
    args = dict(method="factorial", seeds=2, fixed=dict(FAST), backend="cpu", progress=False,
                out=tmp_path / out, **QUIET)
    args.update(kw)
    return sensitivity("kaur_vin", ["t_on_ms=0.4:400:log", "rtp_ms=8:80"],
                       "flows.goodput_bps:mean", **args)


def test_an_engine_study_measures_the_runs_and_writes_its_page(tmp_path):
    res = kv_study(tmp_path)
    # the table is the factorial analysis of the stored runs' metric
    runs = ds.load(tmp_path / "s/runs")
    per = runs.flows.groupby(["t_on_ms", "rtp_ms", "seed"])["goodput_bps"].mean()
    y = per.groupby(level=["t_on_ms", "rtp_ms"]).mean()
    q_rtp = (y.xs(80.0, level="rtp_ms").mean() - y.xs(8.0, level="rtp_ms").mean()) / 2
    t = res.table.set_index("term")
    assert t.loc["B", "factors"] == "rtp_ms"
    assert t.loc["B", "effect"] == pytest.approx(q_rtp, rel=1e-9)
    assert t.loc["B", "effect"] < 0          # a longer RTP: less goodput
    assert sorted(runs.replicas["seed"].unique()) == [0, 1]
    assert len(runs.replicas) == 4 * 2
    for k in ("csv", "design", "png", "pdf", "md", "html"):
        assert res.paths[k].is_file()
    md = res.paths["md"].read_text()
    assert "allocation of variation" in md and "| rtp_ms | B |" in md
    back = pd.read_csv(res.paths["csv"])
    assert back["effect"].tolist() == pytest.approx(res.table["effect"].tolist(), nan_ok=True)


def test_the_same_seeds_run_at_every_design_point(tmp_path):
    kv_study(tmp_path, seeds=3)
    rep = ds.load(tmp_path / "s/runs").replicas
    assert rep.groupby("point")["seed"].apply(sorted).map(tuple).nunique() == 1


def test_a_paper_metric_reduces_the_inner_axis(tmp_path):
    res = sensitivity("sweeps/examples/kaur_k2_small.toml", ["t_on_ms=0.4:400:log",
                      "ef_fraction=0.1:0.4"], "kaur-vin:loss", "factorial", quick=True,
                      seeds=2, backend="cpu", progress=False, out=tmp_path / "l", **QUIET)
    assert res.meta["inner_points"] == 2          # ef = cbr, onoff
    from diffsweep.papers.kaur_vin.tables import loss_per_seed
    runs = ds.load(tmp_path / "l/runs")
    d0 = runs.where(t_on_ms=0.4, ef_fraction=0.1)
    want = loss_per_seed(d0).groupby("seed")["loss"].mean()
    got = res.values[res.values["design"] == 0].set_index("seed")["value"]
    assert got.to_numpy() == pytest.approx(want.to_numpy())


def test_an_interrupted_study_resumes_to_the_same_table(tmp_path, monkeypatch):
    whole = kv_study(tmp_path, out="whole", chunk_size=2)
    calls, orig = [], engine.execute

    def stop_on_third(grid, rows=None, *a, **k):   # the probe, one chunk, then Ctrl-C
        calls.append(len(rows))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return orig(grid, rows, *a, **k)

    monkeypatch.setattr(engine, "execute", stop_on_third)
    with pytest.raises(SweepInterrupted, match=r"2 of 8 replicas are saved"):
        kv_study(tmp_path, out="cut", chunk_size=2, resume="diffsweep sensitivity ...")
    assert not (tmp_path / "cut/sensitivity.csv").exists()
    monkeypatch.setattr(engine, "execute", orig)
    again = kv_study(tmp_path, out="cut", chunk_size=2)
    assert again.meta["replicas_run"] == 6
    pd.testing.assert_frame_equal(again.table, whole.table)
    assert (tmp_path / "cut/sensitivity.csv").read_text() == \
        (tmp_path / "whole/sensitivity.csv").read_text()
    # a finished study reruns nothing
    assert kv_study(tmp_path, out="cut", chunk_size=2).meta["replicas_run"] == 0


def test_target_ci_seeds_grow_in_the_store_and_a_rerun_keeps_them(tmp_path, monkeypatch):
    first = kv_study(tmp_path, seeds=2, target_ci=1e-6, max_seeds=8)
    assert first.meta["seeds"] == 8 and first.meta["rounds"] == 3 and not first.meta["target_met"]
    assert sorted(ds.load(tmp_path / "s/runs").replicas["seed"].unique()) == list(range(8))
    # the rerun starts from the 8 stored seeds: nothing runs, one round, the same table
    again = kv_study(tmp_path, seeds=2, target_ci=1e-6, max_seeds=8)
    assert again.meta["replicas_run"] == 0 and again.meta["rounds"] == 1
    pd.testing.assert_frame_equal(again.table, first.table)


def test_a_folder_holds_one_study(tmp_path):
    kv_study(tmp_path)
    with pytest.raises(ConfigError, match=r"^--out: .* holds the sensitivity study of "
                                          r"factorial design of kaur_vin over t_on_ms, rtp_ms "
                                          r"with other factors"):
        kv_study(tmp_path, method="morris", n=2)
    # another metric over the same design reuses the runs
    other = sensitivity("kaur_vin", ["t_on_ms=0.4:400:log", "rtp_ms=8:80"],
                        "replicas.tcp_goodput_bps", method="factorial", seeds=2,
                        fixed=dict(FAST), backend="cpu", progress=False, out=tmp_path / "s",
                        **QUIET)
    assert other.meta["replicas_run"] == 0 and other.meta["metric"] == "replicas.tcp_goodput_bps"


def test_cli_runs_a_study_and_dry_run_writes_nothing(tmp_path, capsys):
    argv = ["sensitivity", "kaur_vin", "--factors", "t_on_ms=0.4:400:log", "rtp_ms=8:80",
            "--metric", "replicas.tcp_goodput_bps", "--method", "morris", "--n", "2",
            "--set", "duration_s=4", "warmup_s=1", "n_flows=1", "--backend", "cpu",
            "--out", str(tmp_path / "c")]
    assert cli.main(argv + ["--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "6 samples" in out and "time (rough)" in out and "nothing was run" in out
    assert not (tmp_path / "c").exists()
    assert cli.main(argv + ["--quiet"]) == 0
    assert (tmp_path / "c/sensitivity.md").is_file()
    assert cli.main(argv) == 0   # resumed: the same table printed
    assert "mu*" in capsys.readouterr().out


# --------------------------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, pattern", [
    ("--factors t_onn_ms=1:2", r"factors: 't_onn_ms' is not a parameter of builder kaur_vin "
                               r"\(did you mean 't_on_ms'\?\)"),
    ("--factors t_on_ms=400:0.4:log", r"factors\.t_on_ms: '400:0\.4:log' is not allowed "
                                      r"\(expected LO < HI"),
    ("--factors t_on_ms=4:4", r"expected LO < HI"),
    ("--factors t_on_ms=0:4:log", r"expected 0 < LO < HI for a log range"),
    ("--factors t_on_ms=4", r"factors\.t_on_ms: '4' is not allowed \(expected a range LO:HI or "
                            r"at least two levels"),
    ("--factors n_flows=1,8,64 --method factorial", r"factors\.n_flows: '1,8,64' is not allowed "
                                                    r"with --method factorial"),
    ("--factors t_on_ms=1:2 --metric flows.goodput", r"metric: 'flows.goodput': flows has no column "
                                                     r"'goodput' measured by the engine \(did "
                                                     r"you mean 'goodput_bps'\?\)"),
    ("--factors t_on_ms=1:2 --metric flow.goodput_bps", r"metric: unknown table 'flow' .*did you "
                                                        r"mean 'flows'"),
    ("--factors t_on_ms=1:2 --metric kaur-vin:los", r"metric: unknown metric 'kaur-vin:los' "
                                                    r"\(did you mean 'kaur-vin:loss'\?\)"),
    ("--factors t_on_ms=1:2 --metric flows.goodput_bps:avg", r"unknown aggregate .avg. .*\(allowed: mean, median"),
    ("--factors t_on_ms=1:2 --metric kaur-vin:loss", r"metric: kaur-vin:loss needs the inner "
                                                     r"axis ef"),
    ("--factors t_on_ms=1:2 --metric kaur-vin:jain_index", r"metric: kaur-vin:jain_index reads "
                                                           r"ef from the tables"),
    ("--factors t_on_ms=1:2 --metric rossi:af_completion_s", r"metric: rossi:af_completion_s is "
                                                             r"a number of rossi's scenarios"),
    ("--factors t_on_ms=1:2 rtp_ms=8:80 --n 4096 --max-replicas 1000",
     r"design: 16,384 design points x 1 inner point\(s\) x 2 seeds = 32,768 replicas is above "
     r"--max-replicas 1,000"),
    ("--factors t_on_ms=1:2 --n 48", r"n: 48 is not allowed \(expected a power of 2 for sobol"),
    ("--factors t_on_ms=1:2 --fraction 1", r"fraction: 1 is not allowed with --method sobol"),
    ("--factors t_on_ms=1:2 --method factorial --n 8", r"n: 8 is not allowed with --method "
                                                       r"factorial"),
    ("--factors t_on_ms=1:2 --set duraton_s=3", r"--set: 'duraton_s' is not a parameter of "
                                                r"builder kaur_vin \(did you mean 'duration_s'"),
])
def test_bad_input_is_one_line_naming_it(tmp_path, capsys, argv, pattern):
    line = (f"sensitivity kaur_vin --set duration_s=4 warmup_s=1 --metric flows.goodput_bps "
            f"--backend cpu --out {tmp_path / 'o'} ")
    code = cli.main(shlex.split(line + argv))
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("diffsweep: error: ") and err.count("\n") == 1, err
    assert re_search(pattern, err)
    assert not (tmp_path / "o").exists()


def re_search(pattern, text):
    import re
    return re.search(pattern, text) is not None


def test_a_constant_metric_is_refused(tmp_path):
    # one flow: the min-max ratio of one goodput is 1 at every design point
    with pytest.raises(ConfigError, match=r"metric: kaur-vin:min_max_ratio is constant \(1 at "
                                          r"every design point and seed\): .* the runs are kept in "):
        sensitivity("kaur_vin", ["t_on_ms=0.4:400:log", "rtp_ms=8:80"], "kaur-vin:min_max_ratio",
                    "factorial", seeds=2, fixed={**FAST, "n_flows": 1, "ef": "onoff"}, backend="cpu",
                    progress=False, out=tmp_path / "k", **QUIET)
    assert not (tmp_path / "k/sensitivity.csv").exists()


def test_factor_and_metric_parsing():
    f = parse_factors(["t_on_ms=0.4:400:log", "n_flows=1:64", "ef=cbr,onoff",
                       "size_set_pkts=[[1,2,90],[1,90]]"])
    assert [x.name for x in f] == ["t_on_ms", "n_flows", "ef", "size_set_pkts"]
    assert f[0].log and not f[0].integer and f[1].integer and f[1].at(0.5) == 32
    assert f[2].levels == ("cbr", "onoff") and f[3].levels == ((1, 2, 90), (1, 90))
    with pytest.raises(ConfigError, match=r"'t' is given twice"):
        parse_factors(["t=1:2", "t=3:4"])
    m = parse_metric("transfers.completion_s:median")
    assert (m.table, m.column, m.agg) == ("transfers", "completion_s", "median")
    assert parse_metric("kaur-vin:loss").paper.column == "loss"


# --------------------------------------------------------------------------------------------
# reliability (issue 53: a Sobol' page at --n 64 showed S1 above ST and a negative S1 with no
# word that n was too small)
# --------------------------------------------------------------------------------------------

ISHIGAMI = {f"x{i}": (-math.pi, math.pi) for i in (1, 2, 3)}


def test_a_sobol_study_at_too_small_n_says_so_and_names_the_n_that_would_do(tmp_path):
    lines = []
    res = sensitivity(None, ISHIGAMI, method="sobol", n=64, seeds=1, function=ishigami,
                      out=tmp_path / "s", log=lines.append)
    rel = res.meta["reliability"]
    t = res.table.set_index("factor")
    # at n = 64 the estimate of x3's S1 (truly 0) is negative: named as noise
    assert t.loc["x3", "S1"] < -0.02
    assert any(n.startswith("x3: S1") and "below 0" in n for n in rel["notes"])
    assert any("wider than +-0.1" in n for n in rel["notes"])
    m = rel["suggested_n"]
    assert m > 64 and m & (m - 1) == 0
    # on the page and in the command's output
    page = (tmp_path / "s" / "sensitivity.md").read_text()
    assert "Reliability: these estimates are not yet" in page and f"n = {m}" in page
    assert any("warning:" in ln and f"n = {m}" in ln for ln in lines)
    # the suggested n does what the note says: the widest half-width near the aim (0.05)
    big = sensitivity(None, ISHIGAMI, method="sobol", n=m, seeds=1, function=ishigami, log=None)
    half = float(big.table[["S1_conf", "ST_conf"]].to_numpy().max())
    assert half < 0.1 and big.meta["reliability"]["notes"] == []
    assert big.meta["reliability"]["checked"]


def test_sobol_noise_is_named_when_s1_exceeds_st_or_the_sum_exceeds_one():
    from diffsweep.studies.designs import reliability
    tab = pd.DataFrame({"factor": ["a", "b"], "S1": [0.7, 0.5], "S1_conf": [0.05, 0.05],
                        "ST": [0.6, 0.55], "ST_conf": [0.05, 0.05]})
    rel = reliability("sobol", tab, 256, 2)
    assert any(n.startswith("a: S1 0.7 above ST 0.6") for n in rel["notes"])
    assert any("sum to 1.2" in n for n in rel["notes"])
    assert rel["suggested_n"] >= 512
    ok = tab.assign(S1=[0.5, 0.3], ST=[0.6, 0.4])
    assert reliability("sobol", ok, 256, 2)["notes"] == []


def test_a_morris_ranking_with_wide_intervals_says_so():
    few = sensitivity(None, ISHIGAMI, method="morris", n=4, seeds=1, function=ishigami, log=None)
    rel = few.meta["reliability"]
    assert any("ranking is not resolved" in n for n in rel["notes"]), rel
    assert rel["suggested_n"] > 4
    many = sensitivity(None, ISHIGAMI, method="morris", n=rel["suggested_n"], seeds=1,
                       function=ishigami, log=None)
    assert many.meta["reliability"]["notes"] == [], many.meta["reliability"]
