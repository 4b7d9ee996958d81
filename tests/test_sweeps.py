"""Every sweep file under sweeps/ loads, validates and runs (as ns-3 keeps its examples
runnable): the file as written and its [quick] variant are validated and their grids built; a
run uses the [quick] overrides further reduced to 1 seed, at most 2 points and duration_s <= 2."""
import dataclasses
import inspect
from pathlib import Path

import pytest

import diffsweep
from diffsweep.sweep.config import load_sweep
from diffsweep.core.identity import digest
from diffsweep.core.results import TABLES

ROOT = Path(__file__).resolve().parents[1]
SWEEP_FILES = sorted((ROOT / "sweeps").glob("**/*.toml"))
IDS = [str(p.relative_to(ROOT / "sweeps")) for p in SWEEP_FILES]

MAX_DURATION_S = 2.0
MAX_POINTS = 2


def has_quick(path: Path) -> bool:
    try:
        load_sweep(path, quick=True)
    except diffsweep.ConfigError as e:
        if "has no [quick] section" in str(e):
            return False
        raise
    return True


def reduced(cfg):
    """``cfg`` with 1 seed, at most MAX_POINTS points and duration_s <= MAX_DURATION_S (when
    the builder takes duration_s; warmup_s is kept below it)."""
    fixed, axes = dict(cfg.fixed), {k: list(v) for k, v in cfg.axes.items()}
    zips = [dataclasses.replace(g, values=g.values[:1]) for g in cfg.zips]
    budget = MAX_POINTS
    for k in axes:  # the first axis keeps up to 2 values, the others 1
        axes[k] = axes[k][:max(1, budget)]
        budget = 1
    params = inspect.signature(cfg.builder).parameters
    if "duration_s" in params:
        d = _value(fixed, axes, zips, "duration_s", params)
        d = min(float(d), MAX_DURATION_S) if d is not None else MAX_DURATION_S
        _set(fixed, axes, zips, "duration_s", d)
        if "warmup_s" in params:
            w = _value(fixed, axes, zips, "warmup_s", params)
            w = 0.0 if w is None else float(w)
            _set(fixed, axes, zips, "warmup_s", min(w, d / 4))
    cfg = dataclasses.replace(cfg, fixed=fixed, axes=axes, zips=zips, seeds=cfg.seeds[:1],
                              _builder=cfg._builder)
    cfg.points_sha256 = digest(cfg._points_dict())
    return cfg


def _value(fixed, axes, zips, name, params):
    if name in fixed:
        return fixed[name]
    if name in axes:
        return min(axes[name])
    for g in zips:
        if name in g.names:
            return g.values[0][g.names.index(name)]
    default = params[name].default
    return None if default is inspect.Parameter.empty else default


def _set(fixed, axes, zips, name, value):
    """Make ``name`` a fixed parameter with ``value`` (out of axes and zip groups)."""
    axes.pop(name, None)
    for i, g in enumerate(zips):
        if name in g.names:
            j = g.names.index(name)
            names = g.names[:j] + g.names[j + 1:]
            values = tuple(r[:j] + r[j + 1:] for r in g.values)
            zips[i] = dataclasses.replace(g, names=names, values=values)
    zips[:] = [g for g in zips if g.names]
    fixed[name] = value


def test_sweep_files_found():
    # sweeps/examples/kaur_k2_small.toml ships with the package, so there is normally something
    # to run; an empty folder is not an error (the tests below then have no cases)
    if not SWEEP_FILES:
        pytest.skip("no sweep files under sweeps/")
    assert all(p.suffix == ".toml" for p in SWEEP_FILES)


@pytest.mark.parametrize("path", SWEEP_FILES, ids=IDS)
def test_sweep_file_validates(path):
    cfg = load_sweep(path)
    assert cfg.name and cfg.n_replicas >= 1
    g = cfg.make_grid()  # builder parameters are checked when the grid is built
    assert g.n_points == cfg.n_points
    if has_quick(path):
        q = load_sweep(path, quick=True)
        assert q.make_grid().n_points == q.n_points


@pytest.mark.parametrize("path", SWEEP_FILES, ids=IDS)
def test_sweep_file_runs_small(path, tmp_path):
    cfg = reduced(load_sweep(path, quick=has_quick(path)))
    grid = cfg.make_grid()
    assert grid.n_points <= MAX_POINTS and len(grid.seeds) == 1
    res = diffsweep.run(cfg, backend="cpu", store=tmp_path / "out")
    assert len(res) == grid.n_points and res.meta["replicas_run"] == grid.n_points
    assert sorted(zip(res.replicas["point"], res.replicas["seed"])) == \
        [(p, cfg.seeds[0]) for p in range(grid.n_points)]
    if "duration_s" in res.replicas.columns and "duration_s" in cfg.fixed:
        # the run is rounded to whole slots (8.5 ms at 1 Mb/s and 1064 B)
        assert (res.replicas["duration_s"] <= MAX_DURATION_S + res.replicas["slot_s"] / 2 + 1e-9).all()
    kept = cfg.outputs["tables"]
    for name in TABLES:
        if name not in kept and name != "replicas":
            assert getattr(res, name).empty
    again = diffsweep.run(cfg, backend="cpu", store=tmp_path / "out")
    assert again.meta["replicas_run"] == 0
