"""builders_doc: every builder's parameters with their units, defaults and allowed values, read
from the builders themselves (``diffsweep builders [NAME]``, docs/builders.md).

Nothing here is a copy of what a builder says elsewhere; each fact has one source:

* **default**: the builder's signature.
* **unit**: the parameter's name (the project names units: ``rtp_ms``, ``link_rate_bps``;
  ``UNIT_SUFFIXES``), or for a name that carries none, the builder's own ``units`` attribute
  (``builder.units = {"k": "C_u = 2.5 Mb/s"}``, set beside the builder).
* **allowed values**: the builder's validation. Each parameter is given a value no check
  accepts (``PROBE``) with the others at their defaults; the builder's ConfigError for that
  parameter, ``name: ... is not allowed (expected ALLOWED)``, says what it takes. A parameter
  checked only under a setting of another (``udp_fraction`` only with ``udp = true``) is probed
  again under each other value of the builder's on/off and choice parameters, and shown with
  that condition. A parameter the builder does not check at its defaults is "not checked".

``parameters(fn)`` -> list of ``Param``; ``builders_markdown()`` -> docs/builders.md;
``builder_text(name)`` and ``list_text()`` -> what ``diffsweep builders`` prints (its command
line: ``diffsweep.cli.builders``). The page
covers the packaged builders (registry targets inside diffsweep), so that a builder added to
the registry (the papers', ``dumbbell``) appears in it with no other change.
"""
from __future__ import annotations

import functools
import inspect
import re
from dataclasses import dataclass
from typing import Any, Callable

from diffsweep.scenario import registry as config
from diffsweep.core.errors import ConfigError

#: A value no builder check accepts: not a number, not a boolean, not one of any choices.
PROBE = "\u2205not-a-value"

#: name suffix -> unit, longest first (``_mbps`` before ``_bps``, ``_ms`` before ``_s``)
UNIT_SUFFIXES = (
    ("_mbps", "Mb/s"), ("_bps", "b/s"), ("_ms", "ms"), ("_s", "s"), ("_bytes", "bytes"),
    ("_pkts", "packets"), ("_fraction", "fraction (0..1)"), ("_ratio", "ratio"),
)
#: name prefix -> unit
UNIT_PREFIXES = (("n_", "count"),)

_EXPECTED = " is not allowed (expected "


@dataclass(frozen=True)
class Param:
    """One builder parameter: ``default`` (its repr in TOML-ish form, "required" if none),
    ``unit`` ("" if none), ``allowed`` (the builder's words; "" if not checked, None if it
    cannot be asked) and ``when`` (the setting under which the builder checks it, "" if
    always)."""

    name: str
    default: str
    unit: str
    allowed: str | None
    when: str = ""

    def allowed_text(self) -> str:
        if self.allowed is None:
            return ("unknown: the builder has parameters without defaults, so it cannot be "
                    "asked at its defaults")
        if not self.allowed:
            return "not checked by the builder"
        return self.allowed + (f" (checked when {self.when})" if self.when else "")


def unit_of(name: str, units: dict | None = None) -> str:
    """The unit of a parameter: the builder's ``units`` entry, else its name's suffix."""
    if units and name in units:
        return units[name]
    for suffix, unit in UNIT_SUFFIXES:
        if name.endswith(suffix):
            return unit
    for prefix, unit in UNIT_PREFIXES:
        if name.startswith(prefix):
            return unit
    return ""


def _toml(v: Any) -> str:
    """A default as a sweep file writes it (None has no TOML form: shown as None)."""
    if v is inspect.Parameter.empty:
        return "required"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):  # 1e7, not 1e+07
        return re.sub(r"e\+?(-?)0*(\d)", r"e\1\2", f"{v:g}")
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return repr(v)


def _expected(message: str, name: str) -> str | None:
    """The ALLOWED of ``name: VALUE is not allowed (expected ALLOWED)`` when the message is
    about ``name`` (or one of its elements, ``name[0]``); None otherwise."""
    field, _, rest = message.partition(": ")
    if not (field == name or field.startswith(name + "[") or field.startswith(name + ".")):
        return None
    at = rest.find(_EXPECTED)
    if at < 0:
        return None
    # the message ends with the parenthesis of "(expected" (intervals like "(0, 1]" inside
    # it do not balance, so it is not counted)
    text = rest[at + len(_EXPECTED):]
    return text[:-1] if text.endswith(")") else text


def _probe(fn: Callable, name: str, setting: dict) -> str | None:
    try:
        fn(**setting, **{name: PROBE})
    except ConfigError as e:
        return _expected(str(e), name)
    except Exception:  # noqa: BLE001 - a check the builder lacks (a TypeError further on)
        return None
    return None


def _switches(fn: Callable, params: list[inspect.Parameter], allowed: dict[str, str]
              ) -> list[tuple[str, Any]]:
    """Other values of the builder's on/off and choice parameters: (name, value) settings to
    probe the unchecked parameters under."""
    out = []
    for p in params:
        if isinstance(p.default, bool):
            out.append((p.name, not p.default))
        elif isinstance(p.default, str):
            choices = re.findall(r"'([^']*)'", allowed.get(p.name, ""))
            if p.default in choices:  # the allowed text lists the choices
                out += [(p.name, c) for c in choices if c != p.default]
    return out


def _params(fn: Callable) -> list[inspect.Parameter]:
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p for p in inspect.signature(fn).parameters.values()
            if p.kind in kinds and p.name != "seed"]


def parameters(fn: Callable) -> list[Param]:
    """The parameters of the builder ``fn`` (not ``seed``, which the grid passes), in signature
    order: default, unit, allowed values (module docstring)."""
    allowed, when = _allowed(fn)
    units = getattr(fn, "units", None)
    return [Param(p.name, _toml(p.default), unit_of(p.name, units), allowed[p.name],
                  when.get(p.name, "")) for p in _params(fn)]


@functools.lru_cache(maxsize=64)
def _allowed(fn: Callable) -> tuple[dict[str, str | None], dict[str, str]]:
    """({name: allowed}, {name: setting}) from probing ``fn`` (about a hundred builder calls:
    kept per builder for the process, the page and the command asking for the same)."""
    params = _params(fn)
    if any(p.default is inspect.Parameter.empty for p in params):
        # a builder without defaults cannot be asked at its defaults
        return {p.name: None for p in params}, {}
    allowed = {p.name: _probe(fn, p.name, {}) or "" for p in params}
    when = {}
    switches = _switches(fn, params, allowed)
    # one other setting, then two (matta_guo's RED thresholds: isolation off and aqm red)
    settings = [[s] for s in switches]
    settings += [[a, b] for i, a in enumerate(switches) for b in switches[i + 1:]
                 if a[0] != b[0]]
    for p in params:
        for setting in settings if not allowed[p.name] else ():
            if any(name == p.name for name, _ in setting):
                continue
            got = _probe(fn, p.name, dict(setting))
            if got:
                allowed[p.name] = got
                when[p.name] = " and ".join(f"{n} = {_toml(v)}" for n, v in setting)
                break
    return allowed, when


def summary(fn: Callable) -> str:
    """The first sentence of the builder's docstring (its first paragraph, on one line)."""
    doc = inspect.getdoc(fn) or ""
    para = " ".join(doc.split("\n\n")[0].split())
    return para


def target_of(name: str) -> str:
    return config.builder_target(name)


def packaged() -> list[str]:
    """The registered builders that come with diffsweep (their code inside the package)."""
    return [n for n in config.BUILDERS if target_of(n).startswith("diffsweep.")]


# --------------------------------------------------------------------------------------------
# what `diffsweep builders` prints
# --------------------------------------------------------------------------------------------
def list_text() -> str:
    """Every registered builder: name, where it comes from, its target and summary line."""
    names = list(config.BUILDERS)
    width = max(len(n) for n in names)
    mine = set(packaged())
    lines = []
    for n in names:
        origin = "built-in" if n in mine else "registered"
        lines.append(f"{n:<{width}}  {origin:<10}  {target_of(n)}")
    lines.append("")
    lines.append("`diffsweep builders NAME` shows a builder's parameters (NAME may also be "
                 '"package.module:function", a builder of your own: docs/sweeps.md)')
    return "\n".join(lines)


def resolve(name: str) -> Callable:
    """The builder ``name`` (a registered name or a reference) for ``diffsweep builders NAME``;
    ConfigError naming ``builders`` with did-you-mean otherwise."""
    config.check_builder_value(name, path="builders")
    if config.is_reference(name):
        return config.import_builder(name, path="builders")
    try:
        return config.resolve_builder(name)
    except ConfigError as e:  # a registered target that does not import
        raise ConfigError("builders" + str(e)[len("builder"):]) from None


def builder_text(name: str) -> str:
    """A builder's parameters as ``diffsweep builders NAME`` prints them."""
    fn = resolve(name)
    ps = parameters(fn)
    target = target_of(name)
    head = [name if target == name else f"{name}: {target}", summary(fn), ""]
    rows = [("parameter", "unit", "default", "allowed values")]
    rows += [(p.name, p.unit or "-", p.default, p.allowed_text()) for p in ps]
    w = [max(len(r[i]) for r in rows) for i in range(3)]
    body = [f"{r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]:<{w[2]}}  {r[3]}" for r in rows]
    return "\n".join(head + body)


# --------------------------------------------------------------------------------------------
# docs/builders.md
# --------------------------------------------------------------------------------------------
PAGE_INTRO = """\
# Builders and their parameters

Generated from the builders themselves by `python -m diffsweep.report.docs_pages` (or `diffsweep
builders --markdown`); do not edit by hand: `tests/test_docs_pages.py` fails while this page
differs from what the code generates. `diffsweep builders NAME` prints the same for one
builder, also for a builder of your own (`diffsweep builders package.module:function`).

Where each column comes from (`diffsweep.report.builders_page`):

- **default**: the builder's signature (`required`: none; TOML has no `None`, the builders
  that take `None` also take `"none"` where it says so).
- **unit**: the parameter's name (`_ms` ms, `_s` s, `_bps` b/s, `_mbps` Mb/s, `_bytes` bytes,
  `_pkts` packets, `_fraction` a fraction, `_ratio` a ratio, `n_` a count), or the builder's
  `units` attribute for a name that carries none; `-`: a pure number or a name.
- **allowed values**: the builder's own validation, asked with a value nothing accepts, the
  other parameters at their defaults (bounds that depend on another parameter are given at
  its default). "checked when X = v": the builder checks the parameter only in that setting.
  "not checked by the builder": it reaches the `Scenario` as given, or is checked there under
  another name.

`seed` is not listed: the grid passes each replica's seed (`seeds = ...` in a sweep file).
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def builder_markdown(name: str) -> str:
    fn = config.resolve_builder(name)
    out = [f"## {name}\n\n`builder = \"{name}\"`: `{target_of(name)}`.\n"]
    s = summary(fn)
    if s:
        out.append(f"\n{_cell(s)}\n")
    out.append("\n| parameter | unit | default | allowed values |\n|---|---|---|---|\n")
    for p in parameters(fn):
        out.append(f"| `{p.name}` | {_cell(p.unit) or '-'} | `{_cell(p.default)}` | "
                   f"{_cell(p.allowed_text())} |\n")
    return "".join(out)


def builders_markdown() -> str:
    """docs/builders.md: every packaged builder, in registry order."""
    names = packaged()
    parts = [PAGE_INTRO, "\n" + ", ".join(f"[{n}](#{n})" for n in names) + "\n"]
    parts += ["\n" + builder_markdown(n) for n in names]
    return "".join(parts)

