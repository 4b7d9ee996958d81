"""An on/off source (exponential or fixed periods; CBR when always on): ``OnOffSource``."""
from __future__ import annotations

from dataclasses import dataclass, field

from diffsweep.core.errors import check
from diffsweep.scenario.checks import (MAX_WIRE_BYTES, MIN_ONOFF_MS, ONOFF, _OMIT, _as_route,
                                       _colour, _int_in, _name, _one_of, _route, _set, as_float,
                                       as_int, check_positive, is_real)


@dataclass(frozen=True, kw_only=True)
class OnOffSource:
    """On/off source sending ``pkt_bytes`` packets at ``peak_bps`` while on, for on- and
    off-periods of mean ``t_on_ms``/``t_off_ms``: exponential (``onoff="exponential"``, ns-2's
    Application/Traffic/Exponential) or exactly those lengths (``"fixed"``: periodic, with a
    random phase). ``t_off_ms == 0`` means always on (CBR at ``peak_bps``). ``colour``: as
    TcpFlow's."""

    route: tuple[int, ...] = (0,)
    cls: str = "ef"
    peak_bps: float
    pkt_bytes: int = 1500
    t_on_ms: float
    t_off_ms: float
    name: str = "ef"
    onoff: str = field(default="exponential", metadata=_OMIT)
    colour: str | None = field(default=None, metadata=_OMIT)

    def __post_init__(self):
        self._normalize()
        self._validate(type(self).__name__)

    def _normalize(self) -> None:
        _set(self, "route", _as_route(self.route))
        _set(self, "pkt_bytes", as_int(self.pkt_bytes))
        for f in ("peak_bps", "t_on_ms", "t_off_ms"):
            _set(self, f, as_float(getattr(self, f)))

    def _validate(self, path: str) -> None:
        _route(f"{path}.route", self.route)
        _name(f"{path}.cls", self.cls)
        check_positive(f"{path}.peak_bps", self.peak_bps)
        _int_in(f"{path}.pkt_bytes", self.pkt_bytes, 1, MAX_WIRE_BYTES)
        # The engine toggles a source at every on/off change, so its cost per slot grows as the
        # slot over the mean period: below 1 us (a 1500-byte packet at 12 Gb/s) a run at
        # 1e-300 ms never ends, and a burst that short carries no packet anyway.
        check(is_real(self.t_on_ms) and self.t_on_ms >= MIN_ONOFF_MS, f"{path}.t_on_ms",
              self.t_on_ms, f"a number of milliseconds >= {MIN_ONOFF_MS:g} (1 us)")
        check(is_real(self.t_off_ms) and (self.t_off_ms == 0 or self.t_off_ms >= MIN_ONOFF_MS),
              f"{path}.t_off_ms", self.t_off_ms,
              f"0 (always on) or a number of milliseconds >= {MIN_ONOFF_MS:g} (1 us)")
        _name(f"{path}.name", self.name)
        _one_of(f"{path}.onoff", self.onoff, ONOFF)
        _colour(f"{path}.colour", self.colour)

    @property
    def mean_rate_bps(self) -> float:
        return self.peak_bps * self.t_on_ms / (self.t_on_ms + self.t_off_ms)
