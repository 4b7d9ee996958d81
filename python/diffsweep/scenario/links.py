"""A link and its class queues: ``Link``, ``QueueClass`` and ``RedThresholds`` (RED, RIO and
WRED thresholds)."""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

from diffsweep.core.errors import ConfigError, check
from diffsweep.scenario.checks import (AQMS, INT32_MAX, MAX_QUEUE_LIMIT, MAX_WIRE_BYTES, SCHEDULERS,
                                       _OMIT, IntField, _as_tuple, _construct, _name, _one_of, _set,
                                       as_float, as_int, check_bool, check_ints, check_nonneg,
                                       check_number, check_positive, is_int, plain,
                                       renamed_errors, remember_renamed)


#: ns-3.44 CoDelQueueDisc's defaults (Target, Interval, MinBytes)
CODEL_TARGET_MS = 5.0
CODEL_INTERVAL_MS = 100.0
CODEL_MIN_BYTES = 1500
#: ns-3.44 FqCoDelQueueDisc's defaults (RFC 8290): Quantum (0 there: the device MTU, a
#: PointToPointNetDevice's 1500), Flows, DropBatchSize, Perturbation
FQ_DEFAULTS = {"fq_quantum_bytes": 1500, "fq_flows": 1024, "fq_drop_batch": 64,
               "fq_perturbation": 0}
#: CoDel time is ns >> 10 in a uint32 (ns-3 CODEL_SHIFT): 2^32 x 1.024 us
CODEL_MAX_MS = 2.0 ** 32 * 1.024e-3
#: ns-3.44 PieQueueDisc's defaults (RFC 8033 section 4: QDELAY_REF, T_UPDATE, MAX_BURST, alpha,
#: beta; ns-3 QueueDelayReference, Tupdate, MaxBurstAllowance, A, B, MeanPktSize,
#: UseCapDropAdjustment, UseDerandomization)
PIE_DEFAULTS = {"pie_qdelay_ref_ms": 15.0, "pie_t_update_ms": 15.0, "pie_max_burst_ms": 150.0,
                "pie_alpha": 0.125, "pie_beta": 1.25, "pie_mean_pkt_bytes": 1000,
                "pie_cap_drop_adjustment": True, "pie_derandomize": False}
#: the engine counts PIE's updates in a uint32 (engine/replica.h PieQueue::updates)
PIE_MAX_UPDATES = 2 ** 32 - 1


class RedThresholdWarning(UserWarning):
    """A RED threshold above the buffer: RED acts, but the buffer cuts its ramp short."""


@dataclass(frozen=True)
class RedThresholds:
    """RED thresholds of one drop precedence: the average queue ``min_th``/``max_th`` (packets,
    or bytes when the class counts its queue in bytes: ``QueueClass.queue_in_bytes``) and the
    drop probability ``max_p`` at max_th."""

    min_th: float
    max_th: float
    max_p: float

    def __post_init__(self):
        for f in ("min_th", "max_th", "max_p"):
            _set(self, f, as_float(getattr(self, f)))
        self._validate(type(self).__name__)

    def _validate(self, path: str) -> None:
        check_nonneg(f"{path}.min_th", self.min_th)
        check_number(f"{path}.max_th", self.max_th, lambda x: x > self.min_th,
                      f"a number > min_th ({self.min_th}): thresholds in order")
        check_number(f"{path}.max_p", self.max_p, lambda x: 0 < x <= 1, "a number in (0, 1]")


@dataclass(frozen=True)
class QueueClass:
    """One queue of a link. ``limit_bytes``/``limit_pkts``: at most one; both None = unlimited
    (sensible only for a priority class whose arrival rate the scheduler bounds, e.g. EF).

    ``aqm``: ``"droptail"`` (default), or RED before the limit (which stays the buffer):
    ``"red"`` (one average, ``red`` = one RedThresholds), ``"rio-c"`` / ``"rio-d"`` (RIO
    coupled / decoupled) and ``"wred"`` (one average, per-colour thresholds), whose ``red``
    gives (green, red) or (green, yellow, red). ``red_w_q`` is ns-2's q_weight_, ``red_gentle``
    its gentle_, ``red_wait`` its wait_, ``red_bytes`` its bytes_ (the drop probability scaled
    by packet size, the count in bytes: red.cc modify_p), ``red_queue_in_bytes`` its
    queue_in_bytes_ (the average queue and the thresholds in bytes; None: as ``red_bytes``, the
    two set together) and ``red_mean_pkt_bytes`` its mean_pktsize_ (docs/model.md, "RED, RIO
    and WRED").

    The thresholds are checked against the buffer in the queue's unit (a byte limit counts
    ``limit_bytes / red_mean_pkt_bytes`` packets, a packet limit ``limit_pkts x
    red_mean_pkt_bytes`` bytes, as red.cc's qlim): a min_th at or above the buffer is an error
    (the average never reaches it: RED never drops early), a max_th above it a
    ``RedThresholdWarning`` (the buffer cuts RED's ramp to max_p short).

    ``aqm="codel"``: CoDel (RFC 8289) as ns-3.44's CoDelQueueDisc, acting when the link takes
    the class's next packet (docs/model.md, "CoDel"): ``codel_target_ms`` (ns-3 Target, 5),
    ``codel_interval_ms`` (Interval, 100) and ``codel_min_bytes`` (MinBytes, 1500: no drop
    while fewer bytes wait behind the head); the limit stays the buffer (ns-3's MaxSize, which
    counts the packets waiting, not the one on the wire). Not under ``"cbq"``.

    ``aqm="pie"``: PIE (RFC 8033) as ns-3.44's PieQueueDisc (docs/model.md, "PIE"): an early
    drop at arrival with the drop probability that an update every ``pie_t_update_ms`` (ns-3
    Tupdate, 15) moves by ``pie_alpha`` (A, 0.125 /s) times the delay's distance to
    ``pie_qdelay_ref_ms`` (QueueDelayReference, 15) and ``pie_beta`` (B, 1.25 /s) times its
    change; ``pie_max_burst_ms`` (MaxBurstAllowance, 150), ``pie_mean_pkt_bytes`` (MeanPktSize,
    1000: byte mode, a ``limit_bytes`` class, scales p by size over it),
    ``pie_cap_drop_adjustment`` (UseCapDropAdjustment, True), ``pie_derandomize``
    (UseDerandomization, False). The limit stays the buffer, counting the packets waiting as
    CoDel's does.

    ``aqm="fq_codel"``: FQ-CoDel (RFC 8290) as ns-3.44's FqCoDelQueueDisc (docs/model.md,
    "FQ-CoDel"): each sender's packets in the flow queue of its bucket, a documented hash of
    the sender's index and ``fq_perturbation`` (ns-3 Perturbation, 0) modulo ``fq_flows``
    (Flows, 1024); deficit round robin over new and old flows with ``fq_quantum_bytes``
    (Quantum: the device MTU, 1500); a CoDel per flow queue with ``codel_target_ms``,
    ``codel_interval_ms``, ``codel_min_bytes``; over the limit (``limit_pkts``, ns-3's
    MaxSize over all flow queues, packets only) up to ``fq_drop_batch`` (DropBatchSize, 64)
    packets from the fattest queue's head. At most one such class a link, not under "cbq",
    and at most 256 buckets in use on a replica.

    ``share``: the class's fraction of the link rate under the ``"cbq"`` scheduler (required
    there, in (0, 1]; an error on a link with another scheduler)."""

    name: str = "be"
    limit_bytes: int | None = None
    limit_pkts: int | None = None
    weight: int = 1
    aqm: str = field(default="droptail", metadata=_OMIT)
    red: tuple[RedThresholds, ...] = field(default=(), metadata=_OMIT)
    red_w_q: float = field(default=0.002, metadata=_OMIT)
    red_gentle: bool = field(default=False, metadata=_OMIT)
    red_wait: bool = field(default=True, metadata=_OMIT)
    red_bytes: bool = field(default=False, metadata=_OMIT)
    red_queue_in_bytes: bool | None = field(default=None, metadata=_OMIT)
    red_mean_pkt_bytes: int = field(default=500, metadata=_OMIT)
    share: float | None = field(default=None, metadata=_OMIT)
    codel_target_ms: float = field(default=CODEL_TARGET_MS, metadata=_OMIT)
    codel_interval_ms: float = field(default=CODEL_INTERVAL_MS, metadata=_OMIT)
    codel_min_bytes: int = field(default=CODEL_MIN_BYTES, metadata=_OMIT)
    pie_qdelay_ref_ms: float = field(default=PIE_DEFAULTS["pie_qdelay_ref_ms"], metadata=_OMIT)
    pie_t_update_ms: float = field(default=PIE_DEFAULTS["pie_t_update_ms"], metadata=_OMIT)
    pie_max_burst_ms: float = field(default=PIE_DEFAULTS["pie_max_burst_ms"], metadata=_OMIT)
    pie_alpha: float = field(default=PIE_DEFAULTS["pie_alpha"], metadata=_OMIT)
    pie_beta: float = field(default=PIE_DEFAULTS["pie_beta"], metadata=_OMIT)
    pie_mean_pkt_bytes: int = field(default=PIE_DEFAULTS["pie_mean_pkt_bytes"], metadata=_OMIT)
    pie_cap_drop_adjustment: bool = field(default=True, metadata=_OMIT)
    pie_derandomize: bool = field(default=False, metadata=_OMIT)
    ecn: bool = field(default=False, metadata=_OMIT)
    red_hard_drop: bool = field(default=True, metadata=_OMIT)
    fq_quantum_bytes: int = field(default=FQ_DEFAULTS["fq_quantum_bytes"], metadata=_OMIT)
    fq_flows: int = field(default=FQ_DEFAULTS["fq_flows"], metadata=_OMIT)
    fq_drop_batch: int = field(default=FQ_DEFAULTS["fq_drop_batch"], metadata=_OMIT)
    fq_perturbation: int = field(default=FQ_DEFAULTS["fq_perturbation"], metadata=_OMIT)

    def __post_init__(self):
        path = type(self).__name__
        self._normalize(path)
        self._validate(path)
        for line in self._red_buffer_warnings(path):
            # once, where the class is made (not again when its Link or Scenario validates it)
            warnings.warn(line, RedThresholdWarning, stacklevel=3)

    def _normalize(self, path: str = "QueueClass") -> None:
        for f in ("limit_bytes", "limit_pkts", "weight", "red_mean_pkt_bytes", "codel_min_bytes",
                  "pie_mean_pkt_bytes", "fq_quantum_bytes", "fq_flows", "fq_drop_batch",
                  "fq_perturbation"):
            _set(self, f, as_int(getattr(self, f)))
        for f in ("red_w_q", "codel_target_ms", "codel_interval_ms", "pie_qdelay_ref_ms",
                  "pie_t_update_ms", "pie_max_burst_ms", "pie_alpha", "pie_beta"):
            _set(self, f, as_float(getattr(self, f)))
        if self.share is not None:
            _set(self, "share", as_float(self.share))
        for f in ("red_gentle", "red_wait", "red_bytes", "red_queue_in_bytes",
                  "pie_cap_drop_adjustment", "pie_derandomize", "ecn", "red_hard_drop"):
            _set(self, f, plain(getattr(self, f)))
        red = _as_tuple(self.red)
        if isinstance(red, tuple):
            red = tuple(_construct(RedThresholds, t, f"{path}.red[{k}]") for k, t in enumerate(red))
        _set(self, "red", red)

    def _validate(self, path: str) -> None:
        _name(f"{path}.name", self.name)
        check_ints(path, self, _QUEUE_INTS)
        check(self.limit_bytes is None or self.limit_pkts is None, f"{path}.limit_pkts",
              self.limit_pkts, f"None when limit_bytes is set ({self.limit_bytes}): give one limit")
        _one_of(f"{path}.aqm", self.aqm, AQMS)
        check(isinstance(self.red, tuple), f"{path}.red", self.red, "a sequence of RedThresholds")
        for k, t in enumerate(self.red):
            check(isinstance(t, RedThresholds), f"{path}.red[{k}]", t, "a RedThresholds")
            t._validate(f"{path}.red[{k}]")
        self._validate_codel(path)
        self._validate_pie(path)
        check_bool(f"{path}.ecn", self.ecn)
        check_bool(f"{path}.red_hard_drop", self.red_hard_drop)
        # ns-3's FIFO never marks: ECN needs a queue that decides early (model/tcp_ecn.h)
        check(not self.ecn or self.aqm != "droptail", f"{path}.ecn", self.ecn,
              "False for aqm 'droptail' (a drop-tail queue cannot mark; ECN marking needs aqm "
              "'red', 'rio-c', 'rio-d', 'wred', 'codel' or 'pie')")
        check(self.red_hard_drop or (self.ecn and self.aqm in ("red", "rio-c", "rio-d", "wred")),
              f"{path}.red_hard_drop", self.red_hard_drop,
              "True unless ecn is True on a RED/RIO/WRED class (ns-3 UseHardDrop: marks RED's "
              "forced drops instead)")
        self._validate_fq(path)
        if self.aqm in ("droptail", "codel", "pie", "fq_codel"):
            check(self.red == (), f"{path}.red", self.red, f"() for aqm {self.aqm!r} (set aqm "
                  "to 'red', 'rio-c', 'rio-d' or 'wred' to use thresholds)")
        elif self.aqm == "red":
            check(len(self.red) == 1, f"{path}.red", self.red, "one RedThresholds for aqm 'red'")
        else:
            check(len(self.red) in (2, 3), f"{path}.red", self.red,
                  f"2 RedThresholds (green, red) or 3 (green, yellow, red) for aqm {self.aqm!r}")
        check_number(f"{path}.red_w_q", self.red_w_q, lambda x: 0 < x <= 1, "a number in (0, 1]")
        for f in ("red_gentle", "red_wait", "red_bytes"):
            check_bool(f"{path}.{f}", getattr(self, f))
        if self.red_queue_in_bytes is not None:
            check(isinstance(self.red_queue_in_bytes, bool), f"{path}.red_queue_in_bytes",
                  self.red_queue_in_bytes, "None (as red_bytes), True or False")
        buffer = self._red_buffer()
        if buffer is not None:
            size, unit = buffer
            for k, t in enumerate(self.red):
                check(t.min_th < size, f"{path}.red[{k}].min_th", t.min_th,
                      f"a number < the buffer, {size:g} {unit} (limit_pkts / limit_bytes): at "
                      "or above it the average queue never reaches min_th and RED never drops "
                      "early; lower min_th or raise the limit")
        if self.share is not None:
            check_number(f"{path}.share", self.share, lambda x: 0 < x <= 1,
                          "None or a number in (0, 1]: a fraction of the link rate")

    def _validate_codel(self, path: str) -> None:
        # CoDel's times in CoDel units (ns >> 10) are uint32 in the engine, as in ns-3
        check_number(f"{path}.codel_target_ms", self.codel_target_ms,
                     lambda x: 0 < x < CODEL_MAX_MS, f"a number > 0 and < {CODEL_MAX_MS:g} "
                     "(ms; ns-3 Target)")
        check_number(f"{path}.codel_interval_ms", self.codel_interval_ms,
                     lambda x: 0 < x < CODEL_MAX_MS / 16, f"a number > 0 and < "
                     f"{CODEL_MAX_MS / 16:g} (ms; ns-3 Interval, 16 of which fit CoDel's clock)")
        if self.aqm not in ("codel", "fq_codel"):
            for f, d in (("codel_target_ms", CODEL_TARGET_MS),
                         ("codel_interval_ms", CODEL_INTERVAL_MS),
                         ("codel_min_bytes", CODEL_MIN_BYTES)):
                check(getattr(self, f) == d, f"{path}.{f}", getattr(self, f),
                      f"{d!r} (the default) unless aqm is 'codel' or 'fq_codel' (aqm is "
                      f"{self.aqm!r})")

    def _validate_fq(self, path: str) -> None:
        if self.aqm != "fq_codel":
            for f, d in FQ_DEFAULTS.items():
                check(getattr(self, f) == d, f"{path}.{f}", getattr(self, f),
                      f"{d!r} (the default) unless aqm is 'fq_codel' (aqm is {self.aqm!r})")
            return
        check(self.limit_pkts is not None and self.limit_bytes is None, f"{path}.limit_pkts",
              self.limit_pkts, "an integer (packets) for aqm 'fq_codel' (ns-3's MaxSize over "
              "all its flow queues; no byte limit, no unlimited FQ-CoDel)")

    def _validate_pie(self, path: str) -> None:
        # the engine keeps t_update and the burst allowance in whole nanoseconds (int64), as
        # ns-3's Time does
        for f in ("pie_qdelay_ref_ms", "pie_t_update_ms"):
            check_number(f"{path}.{f}", getattr(self, f), lambda x: 1e-6 <= x <= 1e9,
                         "a number >= 1e-06 and <= 1e+09 (ms, at least a nanosecond)")
        check_number(f"{path}.pie_max_burst_ms", self.pie_max_burst_ms,
                     lambda x: 0 <= x <= 1e9, "a number >= 0 and <= 1e+09 (ms)")
        for f in ("pie_alpha", "pie_beta"):
            check_number(f"{path}.{f}", getattr(self, f), lambda x: x >= 0,
                         "a number >= 0 (1/s: the controller's weight)")
        for f in ("pie_cap_drop_adjustment", "pie_derandomize"):
            check_bool(f"{path}.{f}", getattr(self, f))
        if self.aqm != "pie":
            for f, d in PIE_DEFAULTS.items():
                check(getattr(self, f) == d, f"{path}.{f}", getattr(self, f),
                      f"{d!r} (the default) unless aqm is 'pie' (aqm is {self.aqm!r})")

    @property
    def queue_in_bytes(self) -> bool:
        """ns-2's queue_in_bytes_ as run: ``red_queue_in_bytes``, or ``red_bytes`` if None."""
        return self.red_bytes if self.red_queue_in_bytes is None else self.red_queue_in_bytes

    def _red_buffer(self) -> tuple[float, str] | None:
        """The buffer in the unit of the RED average (bytes with queue_in_bytes, else
        packets), converted with red_mean_pkt_bytes as red.cc's qlim is; None without RED or
        without a limit."""
        if self.aqm in ("droptail", "codel", "pie") or (self.limit_pkts is None and
                                                  self.limit_bytes is None):
            return None
        mean = float(self.red_mean_pkt_bytes)
        if self.queue_in_bytes:
            size = (self.limit_bytes if self.limit_bytes is not None
                    else self.limit_pkts * mean)
            return float(size), "bytes"
        size = self.limit_pkts if self.limit_pkts is not None else self.limit_bytes / mean
        return float(size), "packets"

    def _red_buffer_warnings(self, path: str) -> list[str]:
        buffer = self._red_buffer()
        if buffer is None:
            return []
        size, unit = buffer
        return [f"{path}.red[{k}].max_th {t.max_th:g} is above the buffer ({size:g} {unit}, "
                "limit_pkts / limit_bytes): RED drops early from min_th, but the buffer "
                "overflows before the average reaches max_th, cutting its ramp to max_p short"
                for k, t in enumerate(self.red) if t.max_th > size]

    def thresholds(self) -> tuple[RedThresholds, ...]:
        """Per colour (green, yellow, red); a (green, red) pair gives yellow red's values."""
        if len(self.red) == 2:
            return (self.red[0], self.red[1], self.red[1])
        if len(self.red) == 1:
            return self.red * 3
        return self.red


def pie_class(buf, **pie) -> dict:
    """The ``QueueClass`` keywords of a builder's "pie" queue of ``buf`` packets, its ``pie_*``
    parameters checked under the builder's names, whatever the builder's aqm. Shared by the
    dumbbell and the parking lot."""
    pie = {k: plain(v) for k, v in pie.items()}
    with renamed_errors({f"QueueClass.{k}": k for k in pie}):
        q = dict(limit_pkts=buf, aqm="pie", **pie)
        QueueClass("be", **q)
    return q


def fq_codel_class(buf, target_ms, interval_ms, quantum_bytes=1500, flows=1024) -> dict:
    """The ``QueueClass`` keywords of a builder's "fq_codel" queue of ``buf`` packets (ns-3.44
    FqCoDelQueueDisc's defaults, MaxSize the buffer over all flow queues), CoDel's times and
    ``fq_quantum_bytes``, ``fq_flows`` checked under the builder's names, whatever the
    builder's aqm."""
    q = codel_class(buf, target_ms, interval_ms)
    q.update(aqm="fq_codel", fq_quantum_bytes=as_int(plain(quantum_bytes)),
             fq_flows=as_int(plain(flows)))
    with renamed_errors({"QueueClass.fq_quantum_bytes": "fq_quantum_bytes",
                         "QueueClass.fq_flows": "fq_flows"}):
        QueueClass("be", **q)
    return q


def codel_class(buf, target_ms, interval_ms) -> dict:
    """The ``QueueClass`` keywords of a builder's "codel" queue of ``buf`` packets, its times
    checked under the builder's names (``codel_target_ms``, ``codel_interval_ms``), whatever
    the builder's aqm. Shared by the dumbbell and the parking lot."""
    target, interval = as_float(plain(target_ms)), as_float(plain(interval_ms))
    with renamed_errors({"QueueClass.codel_target_ms": "codel_target_ms",
                         "QueueClass.codel_interval_ms": "codel_interval_ms"}):
        q = dict(limit_pkts=buf, aqm="codel", codel_target_ms=target,
                 codel_interval_ms=interval)
        QueueClass("be", **q)
    return q


_RING = ": the engine's class queues hold at most 2^30 packets"
_QUEUE_INTS = (IntField("limit_bytes", 1, MAX_QUEUE_LIMIT, "None", _RING),
               IntField("limit_pkts", 1, MAX_QUEUE_LIMIT, "None", _RING),
               IntField("weight", 1, INT32_MAX),
               IntField("red_mean_pkt_bytes", 1, MAX_WIRE_BYTES),
               IntField("codel_min_bytes", 0, INT32_MAX),
               IntField("pie_mean_pkt_bytes", 1, MAX_WIRE_BYTES),
               IntField("fq_quantum_bytes", 1, INT32_MAX // 2, why=" (bytes; ns-3 Quantum)"),
               IntField("fq_flows", 1, 2 ** 31, why=" (ns-3 Flows: buckets of the hash)"),
               IntField("fq_drop_batch", 1, INT32_MAX, why=" (ns-3 DropBatchSize)"),
               IntField("fq_perturbation", 0, 2 ** 32 - 1, why=" (ns-3 Perturbation)"))


MAX_DEVICE_QUEUE_PKTS = 64  # Link.device_queue_pkts (LinkState::devq_cap is a byte)


@dataclass(frozen=True)
class Link:
    """A one-way link. Class order is priority order (index 0 highest); ``weight`` is used by
    ``"wrr"``. ``loss_prob``: independent random loss per packet on top of queue drops.

    ``"cbq"`` (class-based isolation): each class sends at most its ``share`` of the rate from
    its own byte credit; ``cbq_lend`` hands the credit that empty classes leave unused in a
    slot to the backlogged classes, in class order (docs/model.md, "Class-based isolation").

    ``domain``: the DiffServ domain the link belongs to (None: not said). A conditioned flow
    whose route enters another domain must be conditioned again at the link where it enters
    (a second Marker holding it there; Habib et al.'s multi-domain topology).

    ``device_queue_pkts`` (0: none, the default): a FIFO of that many packets between the
    class queue and the wire, as ns-3's device transmit queue (PointToPointNetDevice TxQueue,
    flow-controlled: the queue disc is asked for a packet whenever it has room) or a NIC's
    ring: the queue's AQM dequeues into it, the class's limit, RED's average and CoDel's and
    PIE's sojourns count the packets before it only (docs/model.md, "Device queue"). A link
    with one class only, not "cbq"; at most 64."""

    rate_bps: float
    prop_delay_ms: float = 0.0
    classes: tuple[QueueClass, ...] = field(default_factory=lambda: (QueueClass(),))
    scheduler: str = "priority"
    loss_prob: float = 0.0
    cbq_lend: bool = field(default=False, metadata=_OMIT)
    domain: int | None = field(default=None, metadata=_OMIT)
    device_queue_pkts: int = field(default=0, metadata=_OMIT)

    def __post_init__(self):
        path = type(self).__name__
        self._normalize(path)
        self._validate(path)
        # the builder parameter that set the rate (renamed_errors), which also sets the
        # engine's time slot: Scenario._check_slots names it (not a field: no digest change)
        remember_renamed(self, "Link.rate_bps")

    def _normalize(self, path: str) -> None:
        for f in ("rate_bps", "prop_delay_ms", "loss_prob"):
            _set(self, f, as_float(getattr(self, f)))
        _set(self, "cbq_lend", plain(self.cbq_lend))
        _set(self, "domain", as_int(plain(self.domain)))
        _set(self, "device_queue_pkts", as_int(plain(self.device_queue_pkts)))
        classes = _as_tuple(self.classes)
        if isinstance(classes, tuple):
            classes = tuple(_construct(QueueClass, c, f"{path}.classes[{k}]")
                            for k, c in enumerate(classes))
        _set(self, "classes", classes)

    def _validate(self, path: str) -> None:
        check_positive(f"{path}.rate_bps", self.rate_bps)
        check_nonneg(f"{path}.prop_delay_ms", self.prop_delay_ms)
        check(isinstance(self.classes, tuple) and len(self.classes) >= 1, f"{path}.classes",
              self.classes, "a non-empty sequence of QueueClass")
        seen = set()
        for k, c in enumerate(self.classes):
            check(isinstance(c, QueueClass), f"{path}.classes[{k}]", c, "a QueueClass")
            c._validate(f"{path}.classes[{k}]")
            check(c.name not in seen, f"{path}.classes[{k}].name", c.name,
                  "a name not used by another class of this link")
            seen.add(c.name)
        _one_of(f"{path}.scheduler", self.scheduler, SCHEDULERS)
        fq = [k for k, c in enumerate(self.classes) if c.aqm == "fq_codel"]
        if len(fq) > 1:
            check(False, f"{path}.classes[{fq[1]}].aqm", "fq_codel",
                  f"not 'fq_codel' again: one FQ-CoDel class a link (classes[{fq[0]}] is one; "
                  "the engine keeps one set of flow queues a link)")
        if self.domain is not None:
            check(is_int(self.domain) and self.domain >= 0, f"{path}.domain", self.domain,
                  "an integer >= 0 (a DiffServ domain) or None")
        check_number(f"{path}.loss_prob", self.loss_prob, lambda x: 0 <= x < 1, "a number in [0, 1)")
        check_bool(f"{path}.cbq_lend", self.cbq_lend)
        d = self.device_queue_pkts
        check(is_int(d) and 0 <= d <= MAX_DEVICE_QUEUE_PKTS, f"{path}.device_queue_pkts", d,
              f"an integer in [0, {MAX_DEVICE_QUEUE_PKTS}] (0: no device queue)")
        if d:
            check(len(self.classes) == 1 and self.scheduler != "cbq",
                  f"{path}.device_queue_pkts", d,
                  f"0 on a link with {len(self.classes)} classes or scheduler "
                  f"{self.scheduler!r} (a device queue is modelled behind one class's queue "
                  "only: docs/model.md, \"Device queue\")")
        if self.scheduler == "cbq":
            for k, c in enumerate(self.classes):
                check(c.aqm not in ("codel", "fq_codel"), f"{path}.classes[{k}].aqm", c.aqm,
                      f"not {c.aqm!r} on a 'cbq' link ({'FQ-' if c.aqm == 'fq_codel' else ''}"
                      "CoDel runs where a link takes its next packet: 'priority' or 'wrr')")
                check(c.share is not None, f"{path}.classes[{k}].share", c.share,
                      "a number in (0, 1] on a 'cbq' link: the class's fraction of the link rate")
            total = math.fsum(c.share for c in self.classes)
            if total > 1.0 + 1e-9:
                raise ConfigError(f"{path}.classes: shares sum to {total:g} (expected at most 1: "
                                  "each share is a fraction of the link rate)")
        else:
            for k, c in enumerate(self.classes):
                check(c.share is None, f"{path}.classes[{k}].share", c.share,
                      f"None on a {self.scheduler!r} link (shares are for scheduler 'cbq')")
            check(self.cbq_lend is False, f"{path}.cbq_lend", self.cbq_lend,
                  f"False on a {self.scheduler!r} link (lending is for scheduler 'cbq')")

    def class_index(self, name: str) -> int | None:
        for k, c in enumerate(self.classes):
            if c.name == name:
                return k
        return None
