"""Sweep files: TOML data -> a validated ``SweepConfig`` (and from it a ``Grid``).

A sweep file is *data*: it is parsed with ``tomllib`` and never evaluated as code. The builder is
named: a name in the registry ``BUILDERS`` (name -> ``"module:attribute"``, imported only when it
is first used), or a reference ``"package.module:function"`` to a builder in the user's own code
(imported when the file is loaded, so that a bad reference fails there; ``import_builder``).
Everything is validated before anything runs; every error is a ``ConfigError`` whose message
starts with the key path (``axes.t_on_ms.logspace: ...``) and ends with the file it came from.
Full description with examples: ``docs/sweeps.md``. This module holds ``SweepConfig`` and the
loading of a file into one; the checks of the document's values and sections are in
``diffsweep.sweep.parse``.

Schema
------
::

    name = "k2"                    # required, [a-z0-9_-]+
    description = "..."            # optional string
    builder = "kaur_vin"           # required: a name in BUILDERS, or "package.module:function"
                                   #   (a builder in the user's own code, imported by name)
    seeds = 10                     # optional (default 10): int >= 1 (= seeds 0..n-1), or a list of
                                   #   distinct ints >= 0
    duration_s = 200.0             # optional shortcut for fixed.duration_s (number > 0)
    warmup_s = 20.0                # optional shortcut for fixed.warmup_s (number >= 0,
                                   #   < duration_s)

    [fixed]                        # builder parameters held constant: TOML scalars or arrays
    n_flows = 1

    [axes]                         # one entry per swept parameter, in file order; each value is
    ef = ["onoff", "cbr"]          #   a non-empty list of distinct values, or
    t_on_ms = {logspace = [0.4, 400, 13]}  # n values from lo to hi, geometric (lo, hi: values)
    load = {linspace = [0.1, 0.9, 5]}      # n values from lo to hi, evenly spaced
    k = {range = [1, 10, 2]}               # start, start+step, ... < stop (stop excluded)

    [[zip]]                        # parameters that move together (one zip group per [[zip]])
    names = ["rtp_ms", "buffer_bytes"]
    values = [[6, 8], [30000, 40000]]      # one list (or range/logspace/linspace) per name,
                                           #   all of equal length

    [outputs]                      # optional
    figures = ["fig2"]             #   figure names: fig<figure> of a paper's families
                                   #   (default: none)
    tables = ["replicas", "flows"] #   tables to keep (default: all of results.TABLES)

    [quick]                        # optional overrides used by --quick; keys: seeds, duration_s,
    seeds = 2                      #   warmup_s, fixed, axes, zip. quick.fixed.X / quick.axes.X
    [quick.axes]                   #   replace parameter X (which the sweep must set; it may move
    t_on_ms = [4, 40]              #   between fixed and axes); [[quick.zip]] replaces all zip
                                   #   groups.

Parameter names are Python identifiers; ``seed``, ``seeds``, ``point`` and ``builder`` are
reserved. A parameter is set in exactly one place (fixed, axes or one zip group). Builder
parameter names themselves are checked by ``Grid`` (with did-you-mean), not here.

Points
------
The points are the cartesian product of the dimensions: first the plain axes in file order, then
the zip groups in file order (each zip group is one dimension whose values are tuples); the first
dimension varies slowest (``itertools.product`` order). ``SweepConfig.expand_points()`` lists
them.

Hashes
------
* ``sha256``: of the file's raw bytes.
* ``effective_sha256``: of the effective configuration (after ``[quick]`` and a ``seeds``
  override), canonical JSON; it changes whenever anything that is run changes.
* ``points_sha256``: of what defines a replica (builder, fixed, axes, zip groups); unchanged by
  seeds, outputs, name and description, so it is the identity to give to ``Store.open``: a run with
  more seeds (``--seeds`` or ``target_ci``) resumes into the same folder, a run with other
  points/parameters is refused there.
"""
from __future__ import annotations

import functools
import hashlib
import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10 needs the tomli package
    import tomli as tomllib  # type: ignore[no-redef]

# the builder registry and references to builders in the user's code live in builder_registry;
# config re-exports them (config.BUILDERS, config.register_builder, ...)
from diffsweep.scenario.registry import (_NAME_RE, BUILDERS,  # noqa: F401 (re-exported)
                                         _builder_allowed, builder, builder_target,
                                         check_builder_on_workers, check_builder_value,
                                         import_builder, is_builder, is_reference, register_builder,
                                         resolve_builder)
from diffsweep.core.errors import ConfigError
from diffsweep.core.identity import canon, digest
from diffsweep.engine.sizing import SeedRange
# the checks of a sweep document's values and sections (re-exported: config.ZipGroup,
# config.figure_names, config.register_figure, ...)
from diffsweep.sweep.parse import (FIGURES, MAX_AXIS_LEN, RESERVED,  # noqa: F401 (re-exported)
                                   SPEC_KEYS, ZIP_KEYS, ZipGroup, _apply_quick, _bad,
                                   _check_disjoint, _check_keys, _check_warmup, _fail,
                                   _parse_layer, _seeds, _str_list, _table, _tables,
                                   figure_names, register_figure)


#: Default number of seeds when a sweep file gives none.
DEFAULT_SEEDS = 10

TOP_KEYS = ("name", "description", "builder", "seeds", "duration_s", "warmup_s", "fixed", "axes",
            "zip", "outputs", "quick")
QUICK_KEYS = ("seeds", "duration_s", "warmup_s", "fixed", "axes", "zip")
OUTPUT_KEYS = ("figures", "tables")


# --------------------------------------------------------------------------------------------
# the config object
# --------------------------------------------------------------------------------------------
@dataclass
class SweepConfig:
    """A validated sweep (see the module docstring for the schema)."""

    name: str
    builder_name: str
    fixed: dict[str, Any]
    axes: dict[str, list]
    zips: list[ZipGroup]
    seeds: list[int]  # or a sizing.SeedRange (seeds = n): equal to list(range(n)), unlisted
    outputs: dict[str, list[str]]
    description: str = ""
    text: str = field(default="", repr=False)
    sha256: str = ""
    points_sha256: str = ""
    path: Path | None = None
    quick: bool = False
    _builder: Callable | None = field(default=None, repr=False, compare=False)

    # -- builder --------------------------------------------------------------------------
    @property
    def builder(self) -> Callable:
        """The builder callable, imported from ``BUILDERS`` on first use."""
        if self._builder is None:
            self._builder = resolve_builder(self.builder_name)
        return self._builder

    @functools.cached_property
    def effective_sha256(self) -> str:
        """The hash of ``effective()``, made when first read: it lists every seed, which for a
        count refused by the size check (10^12 seeds) is never done."""
        return digest(self.effective())

    # -- points ---------------------------------------------------------------------------
    def dimensions(self) -> list[tuple[tuple[str, ...], list[tuple]]]:
        """The dimensions in cartesian order: plain axes (file order), then zip groups.
        Each is (names, values) with every value a tuple over names."""
        dims = [((k,), [(v,) for v in vals]) for k, vals in self.axes.items()]
        dims += [(g.names, list(g.values)) for g in self.zips]
        return dims

    @property
    def n_points(self) -> int:
        return math.prod(len(vals) for _, vals in self.dimensions())

    @property
    def n_replicas(self) -> int:
        return self.n_points * len(self.seeds)

    def expand_points(self, with_fixed: bool = False) -> list[dict[str, Any]]:
        """One dict per point, in cartesian order (first dimension slowest), mapping each axis
        and each zipped parameter to its value (and, with ``with_fixed``, the fixed ones too)."""
        dims = self.dimensions()
        out = []
        for combo in itertools.product(*(vals for _, vals in dims)):
            point = dict(self.fixed) if with_fixed else {}
            for (names, _), values in zip(dims, combo):
                point.update(zip(names, values))
            out.append(point)
        return out

    def grid_params(self) -> dict[str, Any]:
        """Keyword arguments for ``Grid(builder, seeds=..., **params)``: fixed values and axes
        (lists). A fixed *array* value is passed as a one-value axis ``[tuple]``, since Grid treats
        any list/tuple as an axis. Zip groups are given separately (``grid_zip_axes``)."""
        params: dict[str, Any] = {}
        for k, v in self.fixed.items():
            params[k] = [v] if isinstance(v, tuple) else v
        for k, vals in self.axes.items():
            params[k] = list(vals)
        return params

    def grid_zip_axes(self) -> list[dict[str, list]]:
        """The zip groups as ``Grid(..., zip_axes=...)`` takes them: one {name: values} per
        group."""
        return [{n: [row[i] for row in g.values] for i, n in enumerate(g.names)}
                for g in self.zips]

    def make_grid(self, max_points: Any = "default", max_replicas: Any = "default"):
        """``Grid(builder, seeds=seeds, zip_axes=grid_zip_axes(), **fixed, **axes)`` (see
        ``grid_params``). The grid does not know this config: give the config itself to
        ``diffsweep.run(cfg, store=DIR)`` to name the folder by ``points_sha256``, as the CLI
        does. ``max_points`` and ``max_replicas``: as ``Grid``'s (default
        ``sizing.MAX_POINTS`` and ``sizing.MAX_REPLICAS``; None: no limit), checked from
        ``n_points`` and ``n_replicas`` before any point or seed is listed."""
        from diffsweep.engine import sizing  # noqa: PLC0415
        limit = sizing.MAX_POINTS if max_points == "default" else max_points
        dims = " x ".join(f"{','.join(names)} {len(vals)}" for names, vals in self.dimensions())
        sizing.check_points(self.n_points, limit, dims, what=f"sweep '{self.name}'",
                            force_hint="--force (max_points=None)")
        sizing.check_replicas(self.n_replicas, max_replicas is None, f"sweep '{self.name}'",
                              "--force (max_replicas=None)",
                              None if max_replicas in ("default", None) else max_replicas)
        params = self.grid_params()
        from diffsweep.sweep.grid import Grid  # noqa: PLC0415 - imported late on purpose
        grid = Grid(self.builder, seeds=self.seeds, zip_axes=self.grid_zip_axes() or None,
                    max_points=None, max_replicas=None, **params)
        return grid

    # -- descriptions ----------------------------------------------------------------------
    def effective(self) -> dict[str, Any]:
        """The effective configuration as plain data (hashed into ``effective_sha256``)."""
        return {
            "name": self.name,
            "description": self.description,
            "builder": self.builder_name,
            "seeds": list(self.seeds),
            **self._points_dict(),
            "outputs": {k: list(v) for k, v in self.outputs.items()},
        }

    def _points_dict(self) -> dict[str, Any]:
        return {
            "builder": self.builder_name,
            "fixed": dict(sorted(self.fixed.items())),
            "axes": [[k, list(v)] for k, v in self.axes.items()],
            "zip": [{"names": list(g.names), "values": [list(r) for r in g.values]}
                    for g in self.zips],
        }

    def manifest_fields(self) -> dict[str, Any]:
        """What a results folder's manifest should record about this sweep."""
        return {
            "name": self.name,
            "description": self.description,
            "builder": self.builder_name,
            # what the name imports (a registered name's "module:function"): enough to find
            # the builder's code again from the folder alone
            "builder_target": builder_target(self.builder_name),
            "sweep_path": str(self.path) if self.path is not None else None,
            "sweep_text": self.text,
            "sweep_sha256": self.sha256,
            "effective_sha256": self.effective_sha256,
            "points_sha256": self.points_sha256,
            "quick": self.quick,
            "seeds": list(self.seeds),
            "n_points": self.n_points,
            "effective": canon(self.effective()),
        }


# --------------------------------------------------------------------------------------------
# loading
# --------------------------------------------------------------------------------------------
def loads_sweep(text: str | bytes, source: str | Path = "<string>", quick: bool = False,
                seeds: int | list[int] | None = None) -> SweepConfig:
    """Parse and validate sweep-file text (see ``load_sweep``)."""
    raw = text.encode() if isinstance(text, str) else bytes(text)
    try:
        # utf-8-sig: a byte-order mark (Windows editors write one) is dropped; TOML 1.0 text is
        # UTF-8 and tomllib refused the mark as "Invalid statement (at line 1, column 1)"
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{source}: not UTF-8 text ({e})") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{source}: TOML syntax error: {e}") from None
    try:
        cfg = _build(doc, quick, seeds)
    except ConfigError as e:
        raise ConfigError(f"{e} (in {source})") from None
    cfg.text = text
    cfg.sha256 = hashlib.sha256(raw).hexdigest()
    cfg.path = Path(source) if not str(source).startswith("<") else None
    return cfg


def load_sweep(path: str | Path, quick: bool = False,
               seeds: int | list[int] | None = None) -> SweepConfig:
    """Read, parse and validate a sweep file.

    ``quick``: apply the file's ``[quick]`` overrides (ConfigError if it has none).
    ``seeds``: override the seeds (int n -> 0..n-1, or a list), after ``[quick]``.
    """
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{p}: sweep file not found") from None
    except OSError as e:
        raise ConfigError(f"{p}: cannot read the sweep file ({e.strerror or e})") from None
    return loads_sweep(raw, source=p, quick=quick, seeds=seeds)


def _build(doc: dict, quick: bool, seeds_override: Any) -> SweepConfig:
    _check_keys(doc, TOP_KEYS, "")
    for k in ("name", "builder"):
        if k not in doc:
            _fail(k, "missing required key")
    name = doc["name"]
    if not (isinstance(name, str) and _NAME_RE.match(name)):
        _bad("name", name, "a string of [a-z0-9_-]+")
    description = doc.get("description", "")
    if not isinstance(description, str):
        _bad("description", description, "a string")
    builder = doc["builder"]
    if not isinstance(builder, str):
        _bad("builder", builder, _builder_allowed())
    check_builder_value(builder)
    # a reference to the user's code is imported now, so that a bad one fails at load, as an
    # unknown name does (registered names stay lazy: importing every paper costs time)
    resolved = import_builder(builder) if is_reference(builder) else None

    base = _parse_layer(doc, "")
    seeds = base.seeds if base.seeds is not None else list(range(DEFAULT_SEEDS))
    zips = base.zips or []
    _check_disjoint(base.fixed, base.axes, zips)
    _check_warmup(base.fixed)

    outputs_raw = _table(doc, "outputs", "outputs")
    _check_keys(outputs_raw, OUTPUT_KEYS, "outputs")
    outputs = {"figures": _str_list(outputs_raw.get("figures", []), "outputs.figures",
                                    figure_names(), "figure"),
               "tables": _str_list(outputs_raw.get("tables", list(_tables())), "outputs.tables",
                                   _tables())}

    fixed, axes = dict(base.fixed), dict(base.axes)
    q_raw = doc.get("quick")
    if q_raw is not None:
        if not isinstance(q_raw, dict):
            _bad("quick", q_raw, "a table [quick]")
        _check_keys(q_raw, QUICK_KEYS, "quick")
        q = _parse_layer(q_raw, "quick")
        qf, qa, qz, qs = _apply_quick(fixed, axes, zips, seeds, q)  # validated even if unused
        _check_disjoint(qf, qa, qz, "quick")
        _check_warmup(qf, "quick")
        if quick:
            fixed, axes, zips, seeds = qf, qa, qz, qs
    elif quick:
        _fail("quick", "the sweep file has no [quick] section, so --quick cannot be used with it")
    if seeds_override is not None:
        seeds = _seeds(seeds_override, "seeds (override)")

    cfg = SweepConfig(name=name, builder_name=builder, fixed=fixed, axes=axes, zips=list(zips),
                      seeds=seeds if isinstance(seeds, SeedRange) else list(seeds),
                      outputs=outputs, description=description, quick=quick,
                      _builder=resolved)
    cfg.points_sha256 = digest(cfg._points_dict())
    return cfg
