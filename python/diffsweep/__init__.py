"""diffsweep: GPU-parallel Monte Carlo sweeps of packet-level TCP-over-DiffServ experiments.

The flow of a run: config -> grid -> pack -> engine -> results -> store -> metrics/figures.
"""
from .errors import BackendError, ConfigError, EngineError, SweepInterrupted
from .grid import Grid
from .results import Results
from .runner import run
from .scenario import Link, OnOffSource, QueueClass, Scenario, TcpFlow
from .engine import info, simulate
from .store import load
from .atlases import atlas
from .builder_registry import builder
from .sensitivity import sensitivity
from . import scenarios

__all__ = [
    "BackendError", "ConfigError", "atlas", "builder", "EngineError", "Grid", "Link", "OnOffSource", "QueueClass",
    "Results", "Scenario", "SweepInterrupted", "TcpFlow", "info", "load", "run", "scenarios",
    "sensitivity", "simulate",
]
