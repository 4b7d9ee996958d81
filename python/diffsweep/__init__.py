"""diffsweep: GPU-parallel Monte Carlo sweeps of packet-level TCP-over-DiffServ experiments.

The flow of a run, one layer a sub-package (each one's docstring says what it owns and what it
may import; pyproject.toml's import-linter contract enforces it):
``scenario`` -> ``engine`` (pack, run on a backend) -> ``sweep`` (grid, run, results folder)
-> ``analysis`` (metrics, intervals, claims) -> ``report`` (figures, pages) -> ``studies``
(reproduce, atlas, sensitivity) -> ``papers`` -> ``cli``; ``core`` (errors, Results, the paper
registry) below them all. This module is the package's face: the names below are the public API.
"""
from diffsweep import _moved
from diffsweep.analysis.own_claims import claim
from diffsweep.analysis.registry import metric
from diffsweep.core.errors import BackendError, ConfigError, EngineError, SweepInterrupted
from diffsweep.core.results import Results
from diffsweep.engine import info, simulate
from diffsweep.scenario import Link, OnOffSource, QueueClass, Scenario, TcpFlow
from diffsweep.scenario import builders as scenarios
from diffsweep.scenario.registry import builder
from diffsweep.studies.atlas import atlas
from diffsweep.studies.sensitivity import sensitivity
from diffsweep.sweep.grid import Grid
from diffsweep.sweep.packet_trace import trace as packet_trace
from diffsweep.sweep.runner import run
from diffsweep.sweep.store import load

__all__ = [
    "BackendError", "ConfigError", "atlas", "builder", "claim", "EngineError", "Grid", "Link",
    "OnOffSource", "QueueClass", "Results", "Scenario", "SweepInterrupted", "TcpFlow", "info",
    "load", "metric", "packet_trace", "run", "scenarios", "sensitivity", "simulate",
]

# ``import diffsweep.runner`` and the other module paths of 0.2 keep working (diffsweep._moved)
_moved.install()


def __getattr__(name: str):
    if _moved.new_name(f"diffsweep.{name}") is not None:  # ``diffsweep.runner`` of 0.2
        return _moved.resolve(f"diffsweep.{name}")
    raise AttributeError(f"module 'diffsweep' has no attribute {name!r}")
