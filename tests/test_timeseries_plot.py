"""Issue 53's time-series figure: ``diffsweep plot DIR --table queue_trace --x t_s --y
queue_pkts`` (and ``cwnd_trace``) from a sweep file with the dumbbell's trace parameters, and
``diffsweep.report.timeseries.trace_figure`` from Python."""
from __future__ import annotations

import pathlib
import shutil

import numpy as np
import pytest

from diffsweep.cli import app as cli
from diffsweep.core.errors import ConfigError
from diffsweep.report.timeseries import trace_figure
from diffsweep.sweep.folder import describe

SWEEP = pathlib.Path(__file__).parents[1] / "sweeps" / "dumbbell" / "queue_trace.toml"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("qtrace")
    shutil.copy(SWEEP, d / "s.toml")
    assert cli.main(["run", str(d / "s.toml"), "--out", str(d / "out"), "--quiet"]) == 0
    return d / "out"


def test_the_sweep_file_records_both_traces(folder):
    res = describe(str(folder))[1]
    qt, ct = res.queue_trace, res.cwnd_trace
    assert len(qt) == 2 * 3 * 501 and set(qt.link) == {0}  # 2 points x 3 seeds x 501 samples
    assert sorted(set(ct.flow)) == list(range(8)) and len(ct) == 2 * 3 * 8 * 101
    red = qt[qt.aqm == "red"]
    assert red.red_avg.notna().all() and qt[qt.aqm == "droptail"].red_avg.isna().all()
    assert qt.queue_pkts.max() > 0


def test_plot_draws_the_queue_time_series(folder, capsys):
    out = folder.parent / "q.png"
    assert cli.main(["plot", str(folder), "--table", "queue_trace", "--x", "t_s", "--y",
                     "queue_pkts", "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    res = describe(str(folder))[1]
    fig = trace_figure(res, "queue_trace", "queue_pkts")
    (ax,) = fig.axes
    # per point: 3 faint replica lines and one bold mean
    lines = ax.get_lines()
    assert len(lines) == 2 * (3 + 1)
    bold = [ln for ln in lines if ln.get_linewidth() == 2.0]
    assert len(bold) == 2
    qt = res.queue_trace
    want = qt[qt.point == sorted(qt.point.unique())[0]].groupby("t_s").queue_pkts.mean()
    np.testing.assert_allclose(bold[0].get_ydata(), want.to_numpy())


def test_plot_draws_one_panel_per_traced_flow(folder):
    out = folder.parent / "c.svg"
    assert cli.main(["plot", str(folder), "--table", "cwnd_trace", "--x", "t_s", "--y",
                     "cwnd_pkts", "--where", "aqm=red", "--out", str(out)]) == 0
    assert out.read_text().lstrip().startswith("<?xml")
    fig = trace_figure(describe(str(folder))[1].where(aqm="red"), "cwnd_trace", "cwnd_pkts")
    assert len(fig.axes) == 8 and all(len(a.get_lines()) == 3 + 1 for a in fig.axes)


def test_bad_columns_are_named(folder, capsys):
    assert cli.main(["plot", str(folder), "--table", "queue_trace", "--x", "t_s", "--y",
                     "cwnd_pkts", "--out", str(folder.parent / "x.png")]) == 2
    assert "--y: 'cwnd_pkts' is not allowed (expected a column of queue_trace:" in capsys.readouterr().err
    res = describe(str(folder))[1]
    with pytest.raises(ConfigError, match=r"^--table: 'transfers' is not allowed"):
        trace_figure(res, "transfers", "size_pkts")
