"""diffsweep.papers.kaur_vin.figures: every figure function returns a matplotlib Figure laid out like the
paper's (axes labels, log T_on axis, panels), from hand-made tables; missing columns give a
ValueError naming the column; save() writes PNG and PDF.

The synthetic-table builders live in tests/test_report.py and are loaded from there by path.
"""
import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from diffsweep.report.figures import combine, save
from diffsweep.papers.kaur_vin import figures as kv
from diffsweep.papers.kaur_vin import tables as kvt
from diffsweep.papers.kaur_vin.tables import network_label
from diffsweep.core.results import Results

_spec = importlib.util.spec_from_file_location("_kv_synthetic",
                                               Path(__file__).with_name("test_report.py"))
S = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(S)


def labels(ax):
    return ax.get_xlabel(), ax.get_ylabel()


def panels(fig):
    """The data axes of a figure (no colorbars etc.)."""
    return [a for a in fig.axes if a.get_label() != "<colorbar>"]


def texts(ax):
    return " ".join(t.get_text() for t in ax.texts)


@pytest.fixture(scope="module")
def k2():
    return S.R(S.k2_data(lambda t: S.hump(t, 0.4)))


@pytest.fixture(scope="module")
def k5():
    return S.R(S.fair_data(S.m_k5(), ns=(8, 16), tons=(0.4, 1.0, 4.0, 40.0)))


# ------------------------------------------------------------------------------------------
# network_label and the tables
# ------------------------------------------------------------------------------------------

def test_network_label():
    assert network_label({"ef": None, "udp": False}) == "TCP-only"
    assert network_label({"ef": float("nan"), "udp": True}) == "TCP+UDP"
    assert network_label({"ef": "onoff", "udp": False}) == "TCP+EF"
    assert network_label(pd.Series({"ef": "onoff", "udp": np.bool_(True)})) == "TCP+UDP+EF"
    assert network_label({"ef": "cbr", "udp": False}) == "TCP+CBR"
    assert network_label({"ef": "cbr", "udp": True}) == "TCP+UDP+CBR"
    # fixed (non-axis) parameters are not columns: infer from the params columns
    assert network_label({"ef_rate_bps": 0.0, "udp_rate_bps": 2e6}) == "TCP+UDP"
    assert network_label({"ef": "onoff", "udp_rate_bps": 0.0}) == "TCP+EF"
    with pytest.raises(ValueError, match="ef"):
        network_label({"ef_rate_bps": 12e6, "udp": False})
    with pytest.raises(ValueError, match="udp"):
        network_label({"ef": "onoff"})
    with pytest.raises(ValueError, match="ef"):
        network_label({"ef": "red", "udp": False})


def test_prepare_canonical_columns(k5):
    rep, fl = kvt.prepare(k5)
    assert set(rep["network"]) == {"TCP-only", "TCP+UDP", "TCP+EF", "TCP+UDP+EF"}
    assert set(rep["rtp_setting"]) == {"equal", "unequal"}
    assert set(rep["N"]) == {8, 16}
    assert rep.loc[rep["rtp_setting"] == "equal", "rtp"].eq(8.0).all()
    assert rep.loc[rep["rtp_setting"] == "unequal", "rtp"].isna().all()
    assert rep.loc[rep["network"] == "TCP+EF", "f"].eq(0.3).all()
    assert rep.loc[rep["network"] == "TCP-only", "f"].isna().all()
    assert {"network", "N", "available_bps"} <= set(fl.columns)


def test_loss_pairs_cbr_by_seed_even_at_one_t_on():
    reps = [r for r in S.k2_data(lambda t: S.hump(t, 0.4))
            if r["ef"] == "onoff" or r["t_on_ms"] == 4.0]
    loss = kvt.loss_per_seed(S.R(reps))
    assert len(loss) == len(S.TONS) * S.SEEDS          # every EF replica has its CBR pair
    c = loss.groupby("t_on")["loss"].mean()
    assert c.idxmax() == 4.0 and c.max() == pytest.approx(0.4, abs=0.02)


def test_duplicate_replica_keys_need_combine(k2):
    twice = Results(**{n: pd.concat([t, t]) for n, t in k2.tables().items()}, meta={})
    with pytest.raises(ValueError, match="combine"):
        kvt.prepare(twice)
    both = combine([k2, k2], labels=["a", "b"])
    assert len(both.replicas) == 2 * len(k2.replicas)
    assert not both.replicas.duplicated(["point", "seed"]).any()
    assert set(both.flows["part"]) == {"a", "b"}


# ------------------------------------------------------------------------------------------
# The figures
# ------------------------------------------------------------------------------------------

def test_fig2(k2):
    fig = kv.fig2(k2)
    assert isinstance(fig, Figure)
    assert type(fig.canvas).__name__ == "FigureCanvasAgg"
    a, b = panels(fig)
    for ax in (a, b):
        assert ax.get_xscale() == "log"
        assert "T_on (ms)" in ax.get_xlabel()
    assert "U_CBR - U_EF" in a.get_ylabel()
    assert "timeouts" in b.get_ylabel().lower()
    assert a.get_title().startswith("(a)") and b.get_title().startswith("(b)")
    # the loss curve's data are the per-T_on means
    line = a.lines[0]
    assert np.asarray(line.get_xdata()) == pytest.approx(S.TONS)
    assert max(line.get_ydata()) == pytest.approx(0.4, abs=0.02)


def test_fig3():
    res = S.R(S.k3_data(lambda t, r: S.hump(t, 0.4 * (6.0 / r) ** 2)))
    fig = kv.fig3(res)
    (a,) = panels(fig)
    assert a.get_xscale() == "log" and "U_CBR - U_EF" in a.get_ylabel()
    legend = [t.get_text() for t in a.get_legend().get_texts()]
    assert legend == ["RTP = 6 ms", "RTP = 8 ms", "RTP = 10 ms", "RTP = 12 ms"]


def test_fig4():
    res = S.R(S.k4_data(lambda n, t: 0.2 if n < 20 else 0.01, lambda n, t: n / 8))
    a, b = panels(kv.fig4(res))
    assert a.get_xscale() == b.get_xscale() == "log"
    assert "aggregate" in a.get_ylabel().lower()
    assert "per flow" in b.get_ylabel()
    assert [t.get_text() for t in a.get_legend().get_texts()] == ["N = 8", "N = 32", "N = 64"]


def test_fig5(k5):
    a, b = panels(kv.fig5(k5))
    for ax in (a, b):
        assert ax.get_xscale() == "log" and ax.get_ylabel() == "Min-max ratio M"
        leg = [t.get_text() for t in ax.get_legend().get_texts()]
        assert any(l.startswith("TCP-only") and "no T_on" in l for l in leg)
        assert "TCP+EF" in leg and "TCP+UDP+EF" in leg
    assert a.get_title() == "(a) Equal RTPs" and b.get_title() == "(b) Unequal RTPs"
    # the no-EF networks are horizontal lines with a CI band
    assert len(a.patches) >= 2


def test_fig5_one_setting_only():
    res = S.R(S.fair_data(S.m_k5(), settings=("equal",)))
    a, b = panels(kv.fig5(res))
    assert "not measured" in texts(b)
    assert "not measured" not in texts(a)


def test_fig6(k5):
    a, b = panels(kv.fig6(k5))
    for ax in (a, b):
        assert "x_i / (C/n)" in ax.get_xlabel() and ax.get_ylabel() == "% of flows"
        assert {t.get_text() for t in ax.get_legend().get_texts()} == set(S.NETS)


def test_fig7():
    res = S.R(S.fair_data(S.m_k7(), ns=S.NS, tons=(1.0,)))
    a, b = panels(kv.fig7(res))
    for ax in (a, b):
        assert ax.get_xscale() == "log" and ax.get_xlabel() == "Number of TCP flows N"
        assert ax.get_ylabel() == "Min-max ratio M"
        assert list(ax.get_xticks()) == [8, 16, 32, 64]


@pytest.mark.parametrize("fn,setting", [(kv.fig8, "equal"), (kv.fig9, "unequal")])
def test_fig8_fig9(fn, setting):
    res = S.k89(lambda net, s, n: 0.5, lambda net, s, n: 1.0)
    a, b = panels(fn(res))
    assert a.get_title() == "(a) TCP+UDP" and b.get_title() == "(b) TCP+UDP+EF"
    for ax in (a, b):
        assert ax.get_ylabel() == "% of flows"
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [f"N = {n}" for n in S.NS]
    other = S.k89(lambda net, s, n: 0.5, lambda net, s, n: 1.0,
                  settings=("unequal" if setting == "equal" else "equal",))
    a, b = panels(fn(other))
    assert "not measured" in texts(a) and "not measured" in texts(b)


def test_fig10():
    res = S.padhye_data([0.3, -0.4, 0.05, 0.2])
    (a,) = panels(kv.fig10(res))
    assert "(predicted - observed) / observed" in a.get_xlabel()
    assert a.get_ylabel() == "Cumulative fraction of flows"
    assert "75%" in texts(a)


def test_figkf():
    reps = S.k2_data(lambda t: S.hump(t, 0.3), f=0.1) + S.k2_data(lambda t: S.hump(t, 0.2), f=0.2)
    a, b, c = panels(kv.figkf(S.R(reps)))
    assert [t.get_text() for t in a.get_legend().get_texts()] == ["f = 10%", "f = 20%"]
    assert "not measured" in texts(b) and "not measured" in texts(c)
    for ax in (a, b, c):
        assert ax.get_xscale() == "log"


def test_figure_registry():
    assert set(kv.FIGURES) == {"K2", "K3", "K4", "K5", "K6", "K7", "K8", "K9", "K10", "Kf", "Kr",
                               "Kt", "Ks"}


# ------------------------------------------------------------------------------------------
# Missing columns
# ------------------------------------------------------------------------------------------

def test_missing_t_on_column(k2):
    res = S.R(S.k2_data(lambda t: S.hump(t)), drop_columns=["t_on_ms"])
    with pytest.raises(ValueError, match="t_on_ms"):
        kv.fig2(res)
    with pytest.raises(ValueError, match="t_on_ms"):
        kv.fig5(res)


def test_missing_ef_column():
    res = S.R(S.k2_data(lambda t: S.hump(t)), drop_columns=["ef"])
    with pytest.raises(ValueError, match="ef"):
        kv.fig2(res)


def test_missing_udp_column_is_read_from_udp_rate():
    res = S.R(S.fair_data(S.m_k5(), settings=("equal",), nets=("TCP-only", "TCP+EF")),
              drop_columns=["udp"])
    a, _ = panels(kv.fig5(res))
    assert {"TCP+EF"} <= {t.get_text() for t in a.get_legend().get_texts()}


def test_missing_flow_column():
    res = S.R(S.k2_data(lambda t: S.hump(t)), drop_columns=["goodput_bps"])
    with pytest.raises(ValueError, match="goodput_bps"):
        kv.fig2(res)


# ------------------------------------------------------------------------------------------
# save
# ------------------------------------------------------------------------------------------

def test_save_writes_png_and_pdf(tmp_path, k2):
    png, pdf = save(kv.fig2(k2), tmp_path / "sub" / "fig2")
    assert png == tmp_path / "sub" / "fig2.png" and pdf == tmp_path / "sub" / "fig2.pdf"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pdf.read_bytes()[:5] == b"%PDF-"
    # dpi 120: a 10.8 x 4.2 inch figure is 1296 x 504 pixels
    w, h = int.from_bytes(png.read_bytes()[16:20], "big"), int.from_bytes(png.read_bytes()[20:24], "big")
    assert (w, h) == (1296, 504)


# ------------------------------------------------------------------------------------------
# Real engine output (tiny)
# ------------------------------------------------------------------------------------------

def test_real_engine_output_feeds_fig2_and_k2(tmp_path):
    import diffsweep as ds
    from diffsweep.analysis.claims import STATUSES
    from diffsweep.papers.kaur_vin.claims import kaur_vin_claims
    g = ds.Grid(ds.scenarios.kaur_vin, seeds=2, n_flows=1, rtp_ms=8.0, ef=["cbr", "onoff"],
                t_on_ms=[0.4, 4.0, 40.0], duration_s=5.0, warmup_s=1.0)
    res = ds.run(g, backend="cpu", progress=False)
    fig = kv.fig2(res)
    assert len(panels(fig)) == 2
    save(fig, tmp_path / "fig2")
    for c in kaur_vin_claims():
        if c.family == "K2":
            assert c.evaluate({"K2": res}).status in STATUSES


def test_fig2_explains_u_and_labels_panel_a():
    fig = kv.fig2(S.R(S.k2_data(lambda t: S.hump(t))))
    a = panels(fig)[0]
    assert a.get_legend() is not None
    assert any("bandwidth left by EF" in t.get_text() for t in a.texts)


def test_fig5_error_bars_stay_inside_0_1():
    """Spread-out M values near 0: a t-interval would reach below 0; the bars must not."""
    def values(net, setting, n, t, seed):   # M = 0.01 for half the seeds, 0.4 for the rest
        return S.spread_values(n, 0.01 if seed % 2 else 0.4)
    reps = S.fair_data(None, values_fn=values, seeds=4)
    fig = kv.fig5(S.R(reps))
    for ax in panels(fig):
        for coll in ax.collections:
            for seg in getattr(coll, "get_segments", lambda: [])():
                ys = [y for _, y in seg]
                assert min(ys) >= 0 and max(ys) <= 1, ys
