"""Sweep-file parsing and validation (diffsweep.sweep.config)."""
import math
import textwrap

import pytest

from diffsweep.sweep.config import BUILDERS, SweepConfig, load_sweep, loads_sweep
from diffsweep.core.errors import ConfigError

VALID = textwrap.dedent("""\
    name = "k2"
    description = "Kaur & Vin fig. 2"
    builder = "kaur_vin"
    seeds = 3
    duration_s = 100.0
    warmup_s = 10.0

    [fixed]
    n_flows = 1
    route = [0, 1]

    [axes]
    t_on_ms = {logspace = [0.4, 400, 13]}
    ef = ["onoff", "cbr"]

    [[zip]]
    names = ["rtp_ms", "buffer_bytes"]
    values = [[6, 8], [30000, 40000]]

    [outputs]
    figures = ["fig2"]
    tables = ["replicas", "flows"]

    [quick]
    seeds = 2
    duration_s = 20.0
    [quick.axes]
    t_on_ms = [4, 40]
    [quick.fixed]
    ef = "cbr"
    """)


def write(tmp_path, text, name="sweep.toml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def test_valid_round_trip(tmp_path):
    p = write(tmp_path, VALID)
    cfg = load_sweep(p)
    assert isinstance(cfg, SweepConfig)
    assert cfg.name == "k2" and cfg.builder_name == "kaur_vin"
    assert cfg.description.startswith("Kaur")
    assert cfg.seeds == [0, 1, 2]
    assert cfg.fixed == {"n_flows": 1, "route": (0, 1), "duration_s": 100.0, "warmup_s": 10.0}
    assert list(cfg.axes) == ["t_on_ms", "ef"]
    assert cfg.axes["ef"] == ["onoff", "cbr"]
    assert len(cfg.axes["t_on_ms"]) == 13
    assert cfg.zips[0].names == ("rtp_ms", "buffer_bytes")
    assert cfg.zips[0].values == ((6, 30000), (8, 40000))
    assert cfg.outputs == {"figures": ["fig2"], "tables": ["replicas", "flows"]}
    assert cfg.text == p.read_text()
    assert cfg.path == p
    assert cfg.n_points == 13 * 2 * 2 and cfg.n_replicas == 52 * 3
    assert not cfg.quick
    assert len(cfg.sha256) == len(cfg.effective_sha256) == len(cfg.points_sha256) == 64
    m = cfg.manifest_fields()
    assert m["sweep_text"] == cfg.text and m["sweep_sha256"] == cfg.sha256


def test_defaults_and_seed_list(tmp_path):
    cfg = load_sweep(write(tmp_path, """\
        name = "a"
        builder = "kaur_vin"
        [axes]
        x = [1, 2]
        """))
    assert cfg.seeds == list(range(10))
    assert cfg.fixed == {} and cfg.zips == []
    assert cfg.outputs["figures"] == [] and "intervals" in cfg.outputs["tables"]
    cfg = load_sweep(write(tmp_path, """\
        name = "a"
        builder = "kaur_vin"
        seeds = [5, 1, 7]
        """))
    assert cfg.seeds == [5, 1, 7] and cfg.n_points == 1
    assert cfg.expand_points() == [{}]


def test_seeds_override(tmp_path):
    p = write(tmp_path, VALID)
    assert load_sweep(p, seeds=4).seeds == [0, 1, 2, 3]
    assert load_sweep(p, seeds=[9, 3]).seeds == [9, 3]
    assert load_sweep(p, quick=True, seeds=5).seeds == list(range(5))
    with pytest.raises(ConfigError, match=r"^seeds \(override\)"):
        load_sweep(p, seeds=0)


def test_quick_overrides(tmp_path):
    p = write(tmp_path, VALID)
    q = load_sweep(p, quick=True)
    assert q.quick
    assert q.seeds == [0, 1]
    assert q.fixed["duration_s"] == 20.0
    assert q.axes == {"t_on_ms": [4, 40]}  # ef moved from axes to fixed
    assert q.fixed["ef"] == "cbr"
    assert q.zips == load_sweep(p).zips
    assert q.n_points == 2 * 2
    full = load_sweep(p)
    assert q.sha256 == full.sha256  # same file
    assert q.effective_sha256 != full.effective_sha256
    assert q.points_sha256 != full.points_sha256


def test_quick_zip_replaces_groups(tmp_path):
    p = write(tmp_path, """\
        name = "z"
        builder = "kaur_vin"
        [[zip]]
        names = ["a", "b"]
        values = [[1, 2, 3], [10, 20, 30]]
        [[quick.zip]]
        names = ["a", "b"]
        values = [[1], [10]]
        """)
    assert load_sweep(p, quick=True).expand_points() == [{"a": 1, "b": 10}]


def test_quick_missing_section(tmp_path):
    p = write(tmp_path, 'name = "a"\nbuilder = "kaur_vin"\n')
    with pytest.raises(ConfigError, match=r"^quick: the sweep file has no \[quick\] section"):
        load_sweep(p, quick=True)


def test_axis_expansions():
    cfg = loads_sweep("""
        name = "e"
        builder = "kaur_vin"
        [axes]
        lg = {logspace = [0.4, 400, 13]}
        ln = {linspace = [0.1, 0.9, 5]}
        ri = {range = [1, 10, 3]}
        rf = {range = [0, 0.3, 0.1]}
        rd = {range = [5, 0, -2]}
        """)
    lg = cfg.axes["lg"]
    assert lg[0] == 0.4 and lg[-1] == 400.0 and lg[4] == 4.0 and lg[8] == 40.0
    for a, b in zip(lg, lg[1:]):
        assert math.isclose(b / a, 10 ** 0.25, rel_tol=1e-9)
    assert cfg.axes["ln"] == [0.1, 0.3, 0.5, 0.7, 0.9]
    assert cfg.axes["ri"] == [1, 4, 7] and all(isinstance(v, int) for v in cfg.axes["ri"])
    assert cfg.axes["rf"] == [0.0, 0.1, 0.2]
    assert cfg.axes["rd"] == [5, 3, 1]


def test_zip_expand_points():
    cfg = loads_sweep("""
        name = "z"
        builder = "kaur_vin"
        [fixed]
        n = 1
        [axes]
        x = [1, 2]
        [[zip]]
        names = ["a", "b"]
        values = [[6, 8], [30000, 40000]]
        [[zip]]
        names = ["c", "d"]
        values = [{range = [0, 2, 1]}, ["p", "q"]]
        """)
    pts = cfg.expand_points()
    assert len(pts) == cfg.n_points == 2 * 2 * 2
    assert pts[0] == {"x": 1, "a": 6, "b": 30000, "c": 0, "d": "p"}
    assert pts[1] == {"x": 1, "a": 6, "b": 30000, "c": 1, "d": "q"}
    assert pts[2] == {"x": 1, "a": 8, "b": 40000, "c": 0, "d": "p"}
    assert pts[-1] == {"x": 2, "a": 8, "b": 40000, "c": 1, "d": "q"}
    assert cfg.expand_points(with_fixed=True)[0]["n"] == 1
    with pytest.raises(ConfigError, match=r"^n: not a parameter of kaur_vin"):
        cfg.make_grid()  # zip groups reach the Grid; these names are not kaur_vin's


def test_make_grid_with_zip_groups():
    cfg = loads_sweep("""
        name = "z"
        builder = "kaur_vin"
        seeds = 2
        duration_s = 1.0
        warmup_s = 0.1
        [fixed]
        n_flows = 1
        [axes]
        ef = ["cbr", "onoff"]
        [[zip]]
        names = ["rtp_ms", "buffer_bytes"]
        values = [[6, 8, 10], [30000, 40000, 50000]]
        """)
    g = cfg.make_grid()
    assert g.n_points == cfg.n_points == 6 and len(g) == 12
    assert not hasattr(g, "sweep_config")  # no back-reference: run(cfg) names the folder
    pts = cfg.expand_points()
    assert g.points[["ef", "rtp_ms", "buffer_bytes"]].to_dict("records") == pts
    for p, point in enumerate(pts):
        sc = g.scenario(p, 1)
        assert sc.links[0].classes[1].limit_bytes == point["buffer_bytes"]
        assert sc.flow_rtp_ms(0) == pytest.approx(point["rtp_ms"])


def test_grid_params_without_zip():
    cfg = loads_sweep("""
        name = "g"
        builder = "kaur_vin"
        seeds = 2
        [fixed]
        n_flows = 3
        route = [0, 1]
        [axes]
        x = [1, 2]
        """)
    assert cfg.grid_params() == {"n_flows": 3, "route": [(0, 1)], "x": [1, 2]}


def test_builder_is_lazy(tmp_path):
    # the module imports and validates without diffsweep.scenario.builders; a registered callable resolves
    def fake(**kw):
        return kw
    BUILDERS["fake_test"] = fake
    try:
        cfg = loads_sweep('name = "f"\nbuilder = "fake_test"\n')
        assert cfg.builder is fake
    finally:
        del BUILDERS["fake_test"]
    BUILDERS["broken_test"] = "diffsweep.no_such_module:x"
    try:
        cfg = loads_sweep('name = "f"\nbuilder = "broken_test"\n')
        with pytest.raises(ConfigError, match=r"^builder: 'broken_test' -> "
                                              r"\"diffsweep\.no_such_module:x\": no module named "
                                              r"'diffsweep\.no_such_module'"):
            cfg.builder
    finally:
        del BUILDERS["broken_test"]


def test_hash_changes_with_content(tmp_path):
    a = load_sweep(write(tmp_path, VALID, "a.toml"))
    b = load_sweep(write(tmp_path, VALID + "# a comment\n", "b.toml"))
    c = load_sweep(write(tmp_path, VALID.replace("n_flows = 1", "n_flows = 2"), "c.toml"))
    d = load_sweep(write(tmp_path, VALID.replace("seeds = 3", "seeds = 4"), "d.toml"))
    assert a.sha256 != b.sha256 and a.effective_sha256 == b.effective_sha256
    assert a.points_sha256 == b.points_sha256
    assert c.sha256 != a.sha256 and c.effective_sha256 != a.effective_sha256
    assert c.points_sha256 != a.points_sha256
    assert d.effective_sha256 != a.effective_sha256 and d.points_sha256 == a.points_sha256
    assert load_sweep(write(tmp_path, VALID, "e.toml")).sha256 == a.sha256


HEAD = 'name = "bad"\nbuilder = "kaur_vin"\n'

BAD = [
    # (file text, regex the message must match)
    (HEAD + "seedz = 3\n", r"^seedz: unknown key 'seedz' \(did you mean 'seeds'\?\)"),
    ('builder = "kaur_vin"\n', r"^name: missing required key"),
    ('name = "bad"\n', r"^builder: missing required key"),
    ('name = "Bad Name"\nbuilder = "kaur_vin"\n', r"^name: \"Bad Name\" is not allowed"),
    ('name = "bad"\nbuilder = "kaur_vn"\n', r"^builder: unknown builder 'kaur_vn' \(did you mean 'kaur_vin'\?\)"),
    (HEAD + "seeds = 0\n", r"^seeds: 0 is not allowed \(expected an integer >= 1"),
    (HEAD + "seeds = [1, 1]\n", r"^seeds: \[1, 1\] is not allowed .*seed 1 appears twice"),
    (HEAD + 'seeds = "ten"\n', r"^seeds: \"ten\" is not allowed"),
    (HEAD + "seeds = 2.5\n", r"^seeds: 2.5 is not allowed"),
    (HEAD + "[axes]\nt_on_ms = {logspace = [0.4, 400]}\n",
     r"^axes\.t_on_ms\.logspace: \[0\.4, 400\] is not allowed \(expected \[lo, hi, n\] with 0 < lo < hi, n >= 2"),
    (HEAD + "[axes]\nt = {logspace = [0, 400, 5]}\n", r"^axes\.t\.logspace: \[0, 400, 5\] is not allowed"),
    (HEAD + "[axes]\nt = {linspace = [1, 1, 5]}\n", r"^axes\.t\.linspace: \[1, 1, 5\] is not allowed"),
    (HEAD + "[axes]\nt = {range = [0, 10, 0]}\n", r"^axes\.t\.range: \[0, 10, 0\] is not allowed"),
    (HEAD + "[axes]\nt = {range = [0, 10, -1]}\n", r"^axes\.t\.range: .*stop is excluded"),
    (HEAD + "[axes]\nt = {rang = [0, 10, 1]}\n", r"^axes\.t\.rang: unknown key 'rang' \(did you mean 'range'\?\)"),
    (HEAD + "[axes]\nt = {range = [0, 10, 1], linspace = [0, 1, 2]}\n", r"^axes\.t: .*exactly one of"),
    (HEAD + "[axes]\nt = []\n", r"^axes\.t: empty axis"),
    (HEAD + "[axes]\nt = 5\n", r"^axes\.t: 5 is not allowed \(expected a list of values"),
    (HEAD + "[axes]\nt = [1, 2, 1]\n", r"^axes\.t\[2\]: duplicate value 1"),
    (HEAD + "[axes]\nt = [1, {a = 1}]\n", r"^axes\.t\[1\]: \{a = 1\} is not allowed"),
    (HEAD + "[fixed]\nn_flows = 1\n[axes]\nn_flows = [1, 2]\n",
     r"^axes\.n_flows: also set in \[fixed\]"),
    (HEAD + "duration_s = 10\n[fixed]\nduration_s = 10\n", r"^duration_s: set both here and as fixed\.duration_s"),
    (HEAD + "duration_s = -1\n", r"^duration_s: -1 is not allowed \(expected a finite number > 0\)"),
    (HEAD + "duration_s = 10\nwarmup_s = 10\n", r"^warmup_s: 10 is not allowed \(expected a warm-up shorter"),
    (HEAD + "[fixed]\nseed = 3\n", r"^fixed\.seed: \"seed\" is not allowed .*reserved"),
    (HEAD + "[fixed]\nwhen = 1979-05-27\n", r"^fixed\.when: .*dates and times are not supported"),
    (HEAD + "fixed = 3\n", r"^fixed: 3 is not allowed \(expected a table"),
    (HEAD + '[[zip]]\nnames = ["a", "b"]\nvalues = [[1, 2], [3, 4, 5]]\n',
     r"^zip\[0\]\.values: lists of unequal length \(a: 2, b: 3\)"),
    (HEAD + '[[zip]]\nnames = ["a"]\nvalues = [[1, 2]]\n', r"^zip\[0\]\.names: \[\"a\"\] is not allowed"),
    (HEAD + '[[zip]]\nnames = ["a", "b"]\nvalues = [[1, 2]]\n', r"^zip\[0\]\.values: .*one list of values per name"),
    (HEAD + '[[zip]]\nnames = ["a", "b"]\n', r"^zip\[0\]\.values: missing required key"),
    (HEAD + '[[zip]]\nnames = ["a", "b"]\nvalue = [[1], [2]]\n', r"^zip\[0\]\.value: unknown key 'value' \(did you mean 'values'\?\)"),
    (HEAD + '[axes]\na = [1, 2]\n[[zip]]\nnames = ["a", "b"]\nvalues = [[1, 2], [3, 4]]\n',
     r"^zip\[0\]\.names: 'a' is also set in \[axes\]"),
    (HEAD + '[outputs]\nfigurs = ["k2"]\n', r"^outputs\.figurs: unknown key 'figurs' \(did you mean 'figures'\?\)"),
    (HEAD + '[outputs]\ntables = ["replica"]\n', r"^outputs\.tables\[0\]: unknown table 'replica' \(did you mean 'replicas'\?\)"),
    (HEAD + "[fixed]\nn_flows = 1\n[quick]\nseedz = 1\n", r"^quick\.seedz: unknown key 'seedz' \(did you mean 'seeds'\?\)"),
    (HEAD + "[quick]\nname = 'x'\n", r"^quick\.name: unknown key 'name'"),
    (HEAD + "[fixed]\nn_flows = 1\n[quick.fixed]\nn_flowz = 2\n",
     r"^quick\.fixed\.n_flowz: \[quick\] overrides 'n_flowz', which the sweep does not set \(did you mean 'n_flows'\?\)"),
    (HEAD + "[axes]\nx = [1, 2]\n[quick.axes]\ny = [1]\n", r"^quick\.axes\.y: \[quick\] overrides 'y'"),
    (HEAD + '[[zip]]\nnames = ["a", "b"]\nvalues = [[1, 2], [3, 4]]\n[quick.fixed]\na = 1\n',
     r"^quick\.fixed\.a: 'a' is in a \[\[zip\]\] group"),
    (HEAD + "[quick]\nseeds = 0\n", r"^quick\.seeds: 0 is not allowed"),
    (HEAD + "[fixed]\nx = 1\n[quick.axes]\nx = []\n", r"^quick\.axes\.x: empty axis"),
]


@pytest.mark.parametrize("text,pattern", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_sweep_files(tmp_path, text, pattern):
    p = write(tmp_path, text)
    with pytest.raises(ConfigError, match=pattern) as info:
        load_sweep(p)
    assert str(p) in str(info.value)  # the file is named


def test_toml_syntax_error(tmp_path):
    p = write(tmp_path, 'name = "a"\nbuilder = "kaur_vin"\nseeds 3\n')
    with pytest.raises(ConfigError, match=r"TOML syntax error: .*line 3") as info:
        load_sweep(p)
    assert str(info.value).startswith(str(p))


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(ConfigError, match=r"sweep file not found"):
        load_sweep(tmp_path / "nope.toml")
    p = tmp_path / "bin.toml"
    p.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(ConfigError, match=r"not UTF-8"):
        load_sweep(p)


def test_config_is_data_not_code(tmp_path, monkeypatch):
    # a sweep file may name a builder in the user's own code ("module:function"), but only a
    # function made to be one (@diffsweep.builder, or registered): never any callable
    import os
    called = []
    monkeypatch.setattr(os, "system", lambda *a, **k: called.append(a))
    p = write(tmp_path, 'name = "a"\nbuilder = "os:system"\n[fixed]\ncommand = "echo hi"\n')
    with pytest.raises(ConfigError, match=r"^builder: \"os:system\": 'os\.system' is not marked "
                                          r"as a diffsweep builder"):
        load_sweep(p).make_grid()
    assert not called
