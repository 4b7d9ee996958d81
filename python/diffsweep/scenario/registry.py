"""builder_registry: the builders a sweep file may name, and references to builders in the
user's own code (docs/sweeps.md, "Your own builder").

* ``BUILDERS``: the registry, sweep-file name -> ``"module:function"`` (imported when first
  used) or a callable; it starts with the standard builders and every registered paper's
  (``diffsweep.scenario.builders.all_builders()``); ``register_builder`` adds one.
* ``"package.module:function"``: a builder in the user's code, imported by name
  (``import_builder``); the function must be marked with ``@diffsweep.builder`` (``builder``),
  so that a sweep file, which is data, can choose among builders but not call any function.
* ``check_builder_on_workers``: before a Dask run, every worker imports the builder.

``diffsweep.sweep.config`` re-exports these names (``config.BUILDERS``, ``config.register_builder``).
"""
from __future__ import annotations

import difflib
import importlib
import json
import re
from typing import Any, Callable

from diffsweep.scenario import builders as scenarios
from diffsweep.core.errors import ConfigError, check

#: Builder registry: sweep-file name -> "module:attribute" (or a callable). Imported lazily.
#: Starts with the standard builders (``dumbbell``) and every registered paper's
#: (``diffsweep.scenario.builders.all_builders()``).
BUILDERS: dict[str, Any] = scenarios.all_builders()

_NAME_RE = re.compile(r"^[a-z0-9_-]+$")


def _fail(path: str, msg: str) -> None:
    raise ConfigError(f"{path}: {msg}")


#: a builder reference in a sweep file: "package.module:function" (dotted names on both sides)
_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_REF_RE = re.compile(rf"^{_DOTTED}:{_DOTTED}$")


def is_reference(name: str) -> bool:
    """Whether a sweep file's ``builder`` is a ``"module:function"`` reference (not a name)."""
    return isinstance(name, str) and ":" in name


def _builder_allowed() -> str:
    return ("a registered builder (" + ", ".join(BUILDERS) + ") or a reference "
            '"package.module:function" to a builder in your own code')


def check_builder_value(builder: str, path: str = "builder") -> None:
    """A ``builder`` string: a registered name or a well-formed reference (ConfigError with
    did-you-mean otherwise). A reference is not imported here."""
    if is_reference(builder):
        if not _REF_RE.match(builder):
            _fail(path, f"{json.dumps(builder)} is not allowed (expected "
                        '"package.module:function": dotted Python names on both sides of one '
                        "':')")
        return
    if builder not in BUILDERS:
        close = difflib.get_close_matches(builder, list(BUILDERS), n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'?" if close else "expected " + _builder_allowed()
        _fail(path, f"unknown builder '{builder}' ({hint})")


def import_builder(ref: str, path: str = "builder", shown: str | None = None,
                   require_mark: bool = True) -> Callable:
    """Import ``"package.module:function"`` (``function`` may be dotted: ``Class.method``).
    Every failure is one ConfigError line naming ``path`` (the sweep file's key): the module is
    not installed, importing it raised, the attribute is missing (with did-you-mean), or it is
    not callable, or (``require_mark``) not made to be a builder (``is_builder``). ``shown``:
    how the reference is named in messages (default: quoted)."""
    shown = shown or json.dumps(ref)
    module, _, attr = ref.partition(":")
    try:
        obj: Any = importlib.import_module(module)
    except ModuleNotFoundError as e:
        # the reference's own module (or a package above it) missing, or one it imports
        if e.name and (module == e.name or module.startswith(e.name + ".")):
            _fail(path, f"{shown}: no module named '{e.name}' (the module must be importable "
                        "where diffsweep runs: install it, or add its folder to PYTHONPATH)")
        _fail(path, f"{shown}: importing module '{module}' failed (ModuleNotFoundError: {e})")
    except Exception as e:  # the user's module raised while importing: one line, --debug shows it
        raise ConfigError(f"{path}: {shown}: importing module '{module}' failed "
                          f"({type(e).__name__}: {e})") from e
    where = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            names = [n for n in dir(obj) if not n.startswith("_") and callable(getattr(obj, n, None))]
            close = difflib.get_close_matches(part, names, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else (
                "callables there: " + ", ".join(names[:20]) if names else "it has no callables")
            _fail(path, f"{shown}: '{where}' has no attribute '{part}' ({hint})")
        obj = getattr(obj, part)
        where = f"{where}.{part}"
    if not callable(obj):
        _fail(path, f"{shown}: '{where}' is not callable (it is of type {type(obj).__name__}; "
                    "expected a function returning a diffsweep.Scenario)")
    if require_mark and not is_builder(obj):
        # a sweep file is data: it may pick among functions made to be builders, never call
        # any function (builder = "os:system" with [fixed] command = "..." would run a shell)
        _fail(path, f"{shown}: '{where}' is not marked as a diffsweep builder (decorate it with "
                    "@diffsweep.builder, or register it with diffsweep.sweep.config.register_builder; "
                    "a sweep file may call only functions made to be builders)")
    return obj


def _importable_here(module: str, qualname: str) -> str:
    """"" if ``module:qualname`` imports in this process, else why not (run on Dask workers)."""
    try:
        obj: Any = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except Exception as e:  # anything: reported by the driver as one line
        return f"{type(e).__name__}: {e}"
    return ""


def check_builder_on_workers(client, fn: Callable) -> None:
    """Before a Dask run: every worker can import the builder ``fn`` (the grid reaches them
    pickled by reference, module and name). ConfigError naming ``builder`` and a worker
    otherwise; without this a worker failed deep in unpickling the grid. A builder pickled by
    value (defined in ``__main__`` or a closure) needs no import and is not checked."""
    module, qual = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    if not module or not qual or module == "__main__" or "<" in qual:
        return
    try:
        answers = client.run(_importable_here, module, qual)
    except Exception:  # pragma: no cover - a cluster that cannot run it: the tasks will say
        return
    bad = {w: why for w, why in answers.items() if why}
    if bad:
        worker, why = sorted(bad.items())[0]
        raise ConfigError(f"builder: '{module}:{qual}' cannot be imported on the Dask worker "
                          f"{worker} ({why}; {len(bad)} of {len(answers)} workers): install the "
                          "builder's module on every worker (docs/distributed.md)")


def builder(fn: Callable) -> Callable:
    """Mark ``fn`` as a scenario builder, so that a sweep file may name it as
    ``builder = "package.module:function"`` (docs/sweeps.md, "Your own builder")::

        @diffsweep.builder
        def my_dumbbell(n_flows=2, rtp_ms=20.0, seed=0) -> Scenario: ...

    Returns ``fn`` itself (the mark is an attribute): calling it, pickling it to Dask workers
    and ``Grid(fn, ...)`` are unchanged."""
    if not callable(fn):
        raise TypeError(f"diffsweep.builder: {fn!r} is not callable")
    try:
        fn.diffsweep_builder = True
    except (AttributeError, TypeError):
        raise TypeError(f"diffsweep.builder: cannot mark {fn!r} (a builtin?); wrap it in a "
                        "Python function") from None
    return fn


def is_builder(obj: Any) -> bool:
    """Whether a sweep file may call ``obj``: marked with ``@builder``, or the target of a
    registered builder."""
    if getattr(obj, "diffsweep_builder", False) is True:
        return True
    if any(t is obj for t in BUILDERS.values()):
        return True
    name = f"{getattr(obj, '__module__', '?')}:{getattr(obj, '__qualname__', '?')}"
    return any(builder_target(n) == name for n in BUILDERS)


def builder_target(name: str) -> str:
    """What ``name`` (a registered name or a reference) imports: ``"module:function"`` (a
    registered callable as its ``module:qualname``)."""
    if is_reference(name) or name not in BUILDERS:
        return name
    target = BUILDERS[name]
    if callable(target):
        return f"{getattr(target, '__module__', '?')}:{getattr(target, '__qualname__', repr(target))}"
    return str(target)


def resolve_builder(name: str) -> Callable:
    """The builder ``name`` names: a registered name imported from ``BUILDERS``, or a
    ``"package.module:function"`` reference imported (ConfigError naming ``builder`` if
    unknown or not importable)."""
    check_builder_value(name)
    if is_reference(name):
        return import_builder(name)
    target = BUILDERS[name]
    if callable(target):
        return target
    # registered in code by the user: trusted as a builder without the mark
    return import_builder(str(target), shown=f"'{name}' -> {json.dumps(str(target))}",
                          require_mark=False)


def register_builder(name: str, target: Any) -> None:
    """Add a builder to the registry, so that sweep files (loaded in this process) may say
    ``builder = "<name>"``: ``target`` is ``"package.module:function"`` (imported when first
    used) or a callable. ``diffsweep builders`` lists the registered builders."""
    check(isinstance(name, str) and _NAME_RE.match(name) is not None, "builder", name,
          "a name of [a-z0-9_-]+")
    check(callable(target) or (isinstance(target, str) and _REF_RE.match(target) is not None),
          f"BUILDERS[{name!r}]", target, 'a callable or "package.module:function"')
    BUILDERS[name] = target
