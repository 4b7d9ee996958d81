"""Every bad input the suite tries, one record each (issue 23): a sweep-file setting, a command
line or a Python call that diffsweep refuses with a clean error naming the field or option.

``tests/test_bad_inputs.py`` applies each record and checks its outcome; ``python
tests/bad_inputs.py --write-docs`` runs them all and writes ``docs/bad-inputs.md``, a table of
every input with the message it actually produces (grouped by ``area``).

Adding an input: append one record to ``CATALOGUE`` (in its area's block), with

* ``T(id, area, snippet, match, builder=...)``: a **sweep TOML** setting. ``snippet`` is TOML
  merged into the base sweep of ``builder`` (``BASES``): ``key = value`` lines set a key of the
  current table (top level, or the one of the last ``[table]`` line), ``-key`` removes one,
  ``[[zip]]`` / ``[[quick.zip]]`` lines start a new array-table entry; ``;`` separates lines.
  ``T(..., raw=True)``: ``snippet`` is the whole file. The file is run as a user does it:
  ``diffsweep run DIR/bad.toml --out DIR/out`` (exit status 2 unless ``code=`` says otherwise).
* ``C(id, area, argv, match)``: a **command line** after ``diffsweep`` (``DIR`` is the scratch
  folder, see ``setup``), exit status 2 unless ``code=`` says otherwise;
  ``argparse=True`` for an error that argparse reports (usage, then one error line).
* ``P(id, area, expression, match, exc="ConfigError")``: a **Python call**, evaluated in
  ``namespace()`` (diffsweep's public names, the builders, ``DIR`` and a small valid ``grid``).

``match`` is a regular expression searched in the message (the one ``diffsweep: error:`` line of
a command, ``str(exception)`` of a call); make it name the field or option. Then run
``python tests/bad_inputs.py --write-docs`` and commit ``docs/bad-inputs.md`` with the record
(the test fails while the committed table differs from what the inputs produce).

An input only belongs here once it is refused cleanly today; an input that crashes, or is
accepted although it is wrong, is a bug to fix first.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DOC = REPO / "docs" / "bad-inputs.md"


# --------------------------------------------------------------------------------------------
# the records
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bad:
    """One bad input: ``kind`` is "toml", "cli" or "python"; ``expect`` the exit status (toml,
    cli) or the exception class name (python); ``match`` a regex the message must contain."""

    id: str
    area: str
    kind: str
    input: str
    expect: int | str
    match: str
    builder: str = "kaur_vin"
    raw: bool = False
    argparse: bool = False

    @property
    def shown(self) -> str:
        """The input as the documentation shows it."""
        if self.kind == "cli":
            return ("diffsweep " + self.input).strip()
        if self.kind == "toml" and self.raw:
            return " ⏎ ".join(ln for ln in self.input.splitlines() if ln.strip())
        return self.input

    @property
    def where(self) -> str:
        if self.kind == "toml":
            return f"sweep TOML ({self.builder})"
        return {"cli": "command line", "python": "Python"}[self.kind]

    @property
    def outcome(self) -> str:
        if self.kind == "python":
            return f"raises {self.expect}"
        return f"exit {self.expect}" + (" (argparse)" if self.argparse else "")


def T(id, area, snippet, match, builder="kaur_vin", code=2, raw=False) -> Bad:
    return Bad(id, area, "toml", snippet, code, match, builder=builder, raw=raw)


def C(id, area, argv, match, code=2, argparse=False) -> Bad:
    return Bad(id, area, "cli", argv, code, match, argparse=argparse)


def P(id, area, expr, match, exc="ConfigError") -> Bad:
    return Bad(id, area, "python", expr, exc, match)


# areas, in the order the documentation lists them
TOP = "Sweep file: top-level keys, seeds, duration, warm-up"
SECTIONS = "Sweep file: [fixed], [outputs], [quick]"
AXES = "Sweep file: axes, ranges and zip groups"
KV = "Builder kaur_vin (sweep file [fixed] / [axes])"
HABIB = "Builders habib_2a, habib_2b"
LJ = "Builder lee_jeong"
MG = "Builders matta_guo, matta_guo_web"
ROSSI = "Builder rossi"
TKV = "Builder todays_kaur_vin"
DB = "Builder dumbbell"
PL = "Builder parking_lot"
LINK = "Python: Link, QueueClass, RedThresholds"
FLOW = "Python: TcpFlow, OnOffSource"
MARK = "Python: Marker, Traffic"
SCEN = "Python: Scenario"
GRID = "Python: Grid, run, load"
RUN = "Command line: run"
REPRO = "Command line: reproduce, demo, no command"
ATLAS = "Command line and Python: atlas"
SENS = "Command line and Python: sensitivity"
LOOK = "Command line: show, plot, export"
TRACE = "Command line and Python: trace, plot-trace"
AREAS = (TOP, SECTIONS, AXES, KV, HABIB, LJ, MG, ROSSI, TKV, DB, PL, LINK, FLOW, MARK, SCEN, GRID, RUN, REPRO,
         ATLAS, SENS, LOOK, TRACE)

NOT = r"is not allowed \(expected "

# One record per bad input. Keep ids unique and stable: the documentation is keyed by them.
CATALOGUE: list[Bad] = [
    # --- sweep file: top level -----------------------------------------------------------
    T("toml-unknown-key", TOP, "seedz = 3", r"seedz: unknown key 'seedz' \(did you mean 'seeds'\?\)"),
    T("toml-missing-name", TOP, "-name", r"name: missing required key"),
    T("toml-missing-builder", TOP, "-builder", r"builder: missing required key"),
    T("toml-name-spaces", TOP, 'name = "Bad Name"', r'name: "Bad Name" ' + NOT + r"a string of"),
    T("toml-name-number", TOP, "name = 3", r"name: 3 " + NOT),
    T("toml-description-number", TOP, "description = 1", r"description: 1 " + NOT + "a string"),
    T("toml-builder-typo", TOP, 'builder = "kaur_vn"', r"builder: unknown builder 'kaur_vn' \(did you mean 'kaur_vin'\?\)"),
    T("toml-builder-module-path", TOP, 'builder = "os:system"', r"builder: \"os:system\": 'os\.system' is not marked as a diffsweep builder \(decorate it with @diffsweep\.builder"),
    T("toml-builder-number", TOP, "builder = 1", r"builder: 1 " + NOT + "a registered builder"),
    # a builder in the user's own code (tests/user_builders.py stands for the user's module)
    T("toml-builder-ref-no-module", TOP, 'builder = "no_such_module:build"', r"builder: \"no_such_module:build\": no module named 'no_such_module' \(the module must be importable"),
    T("toml-builder-ref-no-attribute", TOP, 'builder = "user_builders:two_rtt_dumbell"', r"builder: \"user_builders:two_rtt_dumbell\": 'user_builders' has no attribute 'two_rtt_dumbell' \(did you mean 'two_rtt_dumbbell'\?\)"),
    T("toml-builder-ref-not-callable", TOP, 'builder = "user_builders:NOT_A_FUNCTION"', r"builder: \"user_builders:NOT_A_FUNCTION\": 'user_builders\.NOT_A_FUNCTION' is not callable"),
    T("toml-builder-ref-unmarked", TOP, 'builder = "user_builders:unmarked"', r"builder: \"user_builders:unmarked\": 'user_builders\.unmarked' is not marked as a diffsweep builder"),
    T("toml-builder-ref-import-fails", TOP, 'builder = "user_builder_broken:build"', r"builder: \"user_builder_broken:build\": importing module 'user_builder_broken' failed \(RuntimeError: "),
    T("toml-builder-ref-syntax", TOP, 'builder = "user_builders:two rtt"', r'builder: "user_builders:two rtt" ' + NOT + r'"package\.module:function"'),
    T("toml-builder-ref-unknown-param", TOP, 'name = "bad"\nbuilder = "user_builders:two_rtt_dumbbell"\nseeds = 1\n[fixed]\nrtp_ration = 3.0\n', r"fixed\.rtp_ration: not a parameter of two_rtt_dumbbell \(did you mean 'rtp_ratio'\?\)", raw=True),
    T("toml-syntax-error", TOP, 'name = "bad"\nbuilder = "kaur_vin"\nseeds 3\n', r"bad\.toml: TOML syntax error: .*line 3", raw=True),
    T("toml-seeds-zero", TOP, "seeds = 0", r"seeds: 0 " + NOT + r"an integer >= 1"),
    T("toml-seeds-negative", TOP, "seeds = -3", r"seeds: -3 " + NOT),
    T("toml-seeds-float", TOP, "seeds = 2.5", r"seeds: 2\.5 " + NOT),
    T("toml-seeds-string", TOP, 'seeds = "ten"', r'seeds: "ten" ' + NOT),
    T("toml-seeds-bool", TOP, "seeds = true", r"seeds: true " + NOT),
    T("toml-seeds-duplicate", TOP, "seeds = [1, 1]", r"seeds: \[1, 1\] " + NOT + r".*seed 1 appears twice"),
    T("toml-seeds-empty-list", TOP, "seeds = []", r"seeds: \[\] " + NOT),
    T("toml-seeds-negative-in-list", TOP, "seeds = [0, -1]", r"seeds: \[0, -1\] " + NOT),
    T("toml-duration-negative", TOP, "duration_s = -1", r"duration_s: -1 " + NOT + r"a finite number > 0\)"),
    T("toml-duration-zero", TOP, "duration_s = 0", r"duration_s: 0 " + NOT),
    T("toml-duration-nan", TOP, "duration_s = nan", r"duration_s: nan " + NOT + "a finite number"),
    T("toml-duration-inf", TOP, "duration_s = inf", r"duration_s: inf " + NOT + "a finite number"),
    T("toml-duration-string", TOP, 'duration_s = "10s"', r'duration_s: "10s" ' + NOT),
    T("toml-duration-too-long", TOP, "duration_s = 1e12", r"duration_s: 1000000000000\.0 " + NOT + r"a number > 0 and at most [0-9.e+]+ s, fewer than 2\^32 slots of .*; or link_rate_bps a number > 0 and at most [0-9.e+-]+ b/s\)"),
    T("toml-warmup-negative", TOP, "warmup_s = -0.5", r"warmup_s: -0\.5 " + NOT + "a finite number >= 0"),
    T("toml-warmup-nan", TOP, "warmup_s = nan", r"warmup_s: nan " + NOT),
    T("toml-warmup-equals-duration", TOP, "warmup_s = 1.0", r"warmup_s: 1\.0 " + NOT + r"a warm-up shorter than duration_s = 1\.0"),
    T("toml-duration-set-twice", TOP, "[fixed]; duration_s = 2.0", r"duration_s: set both here and as fixed\.duration_s"),
    # --- sweep file: tables ---------------------------------------------------------------
    T("toml-fixed-not-a-table", SECTIONS, 'name = "bad"\nbuilder = "kaur_vin"\nfixed = 3\n', r"fixed: 3 " + NOT + r"a table", raw=True),
    T("toml-fixed-reserved-seed", SECTIONS, "[fixed]; seed = 3", r'fixed\.seed: "seed" ' + NOT + r".*reserved"),
    T("toml-fixed-bad-name", SECTIONS, '[fixed]; "2x" = 1', r'fixed\.2x: "2x" ' + NOT + "a parameter name"),
    T("toml-fixed-date", SECTIONS, "[fixed]; when = 1979-05-27", r"fixed\.when: 1979-05-27 " + NOT + r".*dates and times are not supported"),
    T("toml-fixed-inline-table", SECTIONS, "[fixed]; rtp_ms = {a = 1}", r"fixed\.rtp_ms: \{a = 1\} " + NOT + r".*tables are not parameter values"),
    T("toml-fixed-not-a-parameter", SECTIONS, "[fixed]; n_flowz = 2", r"fixed\.n_flowz: not a parameter of kaur_vin \(did you mean 'n_flows'\?\)"),
    T("toml-outputs-key-typo", SECTIONS, '[outputs]; figurs = ["fig2"]', r"outputs\.figurs: unknown key 'figurs' \(did you mean 'figures'\?\)"),
    T("toml-outputs-table-typo", SECTIONS, '[outputs]; tables = ["replica"]', r"outputs\.tables\[0\]: unknown table 'replica' \(did you mean 'replicas'\?\)"),
    T("toml-outputs-tables-string", SECTIONS, '[outputs]; tables = "flows"', r'outputs\.tables: "flows" ' + NOT + "a list of strings"),
    T("toml-outputs-unknown-figure", SECTIONS, '[outputs]; figures = ["nonsense"]', r"outputs\.figures\[0\]: unknown figure 'nonsense'"),
    T("toml-outputs-figure-twice", SECTIONS, '[outputs]; figures = ["fig2", "fig2"]', r"outputs\.figures: .*distinct names"),
    T("toml-quick-not-a-table", SECTIONS, "quick = 1", r"quick: 1 " + NOT + r"a table \[quick\]"),
    T("toml-quick-key-typo", SECTIONS, "[quick]; seedz = 1", r"quick\.seedz: unknown key 'seedz' \(did you mean 'seeds'\?\)"),
    T("toml-quick-name", SECTIONS, '[quick]; name = "x"', r"quick\.name: unknown key 'name'"),
    T("toml-quick-seeds-zero", SECTIONS, "[quick]; seeds = 0", r"quick\.seeds: 0 " + NOT),
    T("toml-quick-duration-negative", SECTIONS, "[quick]; duration_s = -1", r"quick\.duration_s: -1 " + NOT),
    T("toml-quick-warmup-too-long", SECTIONS, "[quick]; warmup_s = 5", r"quick\.warmup_s: 5 " + NOT + r"a warm-up shorter than duration_s"),
    T("toml-quick-unknown-parameter", SECTIONS, "[quick.fixed]; n_flowz = 2", r"quick\.fixed\.n_flowz: \[quick\] overrides 'n_flowz', which the sweep does not set \(did you mean 'n_flows'\?\)"),
    T("toml-quick-axis-not-set", SECTIONS, "[quick.axes]; t_on_ms = [1.0]", r"quick\.axes\.t_on_ms: \[quick\] overrides 't_on_ms'"),
    T("toml-quick-empty-axis", SECTIONS, "[quick.axes]; n_flows = []", r"quick\.axes\.n_flows: empty axis"),
    T("toml-quick-zip-member", SECTIONS, '[[zip]]; names = ["rtp_ms", "buffer_bytes"]; values = [[6, 8], [30000, 40000]]; [quick.fixed]; rtp_ms = 6', r"quick\.fixed\.rtp_ms: 'rtp_ms' is in a \[\[zip\]\] group"),
    # --- sweep file: axes and zip groups --------------------------------------------------
    T("toml-axis-empty", AXES, "[axes]; t_on_ms = []", r"axes\.t_on_ms: empty axis"),
    T("toml-axis-scalar", AXES, "[axes]; t_on_ms = 5", r"axes\.t_on_ms: 5 " + NOT + r"a list of values"),
    T("toml-axis-duplicate", AXES, "[axes]; t_on_ms = [4, 4.0]", r"axes\.t_on_ms\[1\]: duplicate value 4\.0"),
    T("toml-axis-nested-table", AXES, "[axes]; t_on_ms = [1, {a = 1}]", r"axes\.t_on_ms\[1\]: \{a = 1\} " + NOT),
    T("toml-logspace-two-numbers", AXES, "[axes]; t_on_ms = {logspace = [0.4, 400]}", r"axes\.t_on_ms\.logspace: \[0\.4, 400\] " + NOT + r"\[lo, hi, n\] with 0 < lo < hi"),
    T("toml-logspace-zero", AXES, "[axes]; t_on_ms = {logspace = [0, 400, 5]}", r"axes\.t_on_ms\.logspace: \[0, 400, 5\] " + NOT),
    T("toml-logspace-one-value", AXES, "[axes]; t_on_ms = {logspace = [0.4, 400, 1]}", r"axes\.t_on_ms\.logspace: \[0\.4, 400, 1\] " + NOT + r".*n >= 2"),
    T("toml-linspace-lo-equals-hi", AXES, "[axes]; t_on_ms = {linspace = [1, 1, 5]}", r"axes\.t_on_ms\.linspace: \[1, 1, 5\] " + NOT),
    T("toml-linspace-nan", AXES, "[axes]; t_on_ms = {linspace = [1, nan, 5]}", r"axes\.t_on_ms\.linspace: \[1, nan, 5\] " + NOT),
    T("toml-range-step-zero", AXES, "[axes]; t_on_ms = {range = [0, 10, 0]}", r"axes\.t_on_ms\.range: \[0, 10, 0\] " + NOT + r".*step != 0"),
    T("toml-range-backwards", AXES, "[axes]; t_on_ms = {range = [0, 10, -1]}", r"axes\.t_on_ms\.range: \[0, 10, -1\] " + NOT + r".*stop is excluded"),
    T("toml-range-inf", AXES, "[axes]; t_on_ms = {range = [1, inf, 1]}", r"axes\.t_on_ms\.range: \[1, inf, 1\] " + NOT + r"\[start, stop, step\]: finite numbers"),
    T("toml-range-too-long", AXES, "[axes]; t_on_ms = {range = [1, 1000001, 1]}", r"axes\.t_on_ms\.range: \[1, 1000001, 1\] " + NOT + r".*at most 100000 values"),
    T("toml-axis-spec-typo", AXES, "[axes]; t_on_ms = {rang = [0, 10, 1]}", r"axes\.t_on_ms\.rang: unknown key 'rang' \(did you mean 'range'\?\)"),
    T("toml-axis-two-specs", AXES, "[axes]; t_on_ms = {range = [1, 10, 1], linspace = [1, 2, 3]}", r"axes\.t_on_ms: .*" + NOT + r"exactly one of"),
    T("toml-axis-also-fixed", AXES, "[axes]; n_flows = [1, 2]", r"axes\.n_flows: also set in \[fixed\]"),
    T("toml-axis-not-a-parameter", AXES, "[axes]; t_onms = [1.0, 2.0]", r"axes\.t_onms: not a parameter of kaur_vin \(did you mean 't_on_ms'\?\)"),
    T("toml-axis-bad-value", AXES, "[axes]; t_on_ms = [1.0, -1.0]", r"axes\.t_on_ms: -1\.0 " + NOT + r"a number > 0\) \(grid point 1: t_on_ms=-1\.0; seed 0\)"),
    T("toml-too-many-points", AXES, "[axes]; t_on_ms = {range = [1, 1001, 1]}; rtp_ms = {range = [1, 1001, 1]}", r"sweep 'bad': 1,000,000 points \(t_on_ms 1000 x rtp_ms 1000\) is above the limit of 100,000 points.*--force"),
    T("toml-zip-unequal", AXES, '[[zip]]; names = ["rtp_ms", "buffer_bytes"]; values = [[6, 8], [3e4, 4e4, 5e4]]', r"zip\[0\]\.values: lists of unequal length \(rtp_ms: 2, buffer_bytes: 3\)"),
    T("toml-zip-one-name", AXES, '[[zip]]; names = ["rtp_ms"]; values = [[6, 8]]', r'zip\[0\]\.names: \["rtp_ms"\] ' + NOT + r"a list of at least two parameter names"),
    T("toml-zip-names-repeated", AXES, '[[zip]]; names = ["rtp_ms", "rtp_ms"]; values = [[6], [8]]', r"zip\[0\]\.names: .*" + NOT + "distinct parameter names"),
    T("toml-zip-one-list", AXES, '[[zip]]; names = ["rtp_ms", "buffer_bytes"]; values = [[6, 8]]', r"zip\[0\]\.values: \[\[6, 8\]\] " + NOT + r"one list of values per name"),
    T("toml-zip-no-values", AXES, '[[zip]]; names = ["rtp_ms", "buffer_bytes"]', r"zip\[0\]\.values: missing required key"),
    T("toml-zip-key-typo", AXES, '[[zip]]; names = ["rtp_ms", "buffer_bytes"]; value = [[6], [30000]]', r"zip\[0\]\.value: unknown key 'value' \(did you mean 'values'\?\)"),
    T("toml-zip-also-axis", AXES, '[axes]; rtp_ms = [6, 8]; [[zip]]; names = ["rtp_ms", "buffer_bytes"]; values = [[6, 8], [30000, 40000]]', r"zip\[0\]\.names: 'rtp_ms' is also set in \[axes\]"),
    T("toml-zip-duplicate-rows", AXES, '[[zip]]; names = ["rtp_ms", "buffer_bytes"]; values = [[6, 6], [30000, 30000]]', r"zip\[0\]\.values\(rows\)\[1\]: duplicate value \[6, 30000\] \(same as zip\[0\]\.val"),
    # --- builder kaur_vin -----------------------------------------------------------------
    T("kv-link-rate-slot-clock", KV, "[fixed]; link_rate_bps = 1e16", r"fixed\.link_rate_bps: 1e\+16 " + NOT + r"a number > 0 and at most [0-9.e+]+ b/s, so that duration_s 1 is fewer than 2\^32 slots"),
    T("kv-n-flows-zero", KV, "[fixed]; n_flows = 0", r"fixed\.n_flows: 0 " + NOT + r"an integer >= 1\)"),
    T("kv-tcp-unknown", KV, '[fixed]; tcp = "vegas"', r"fixed\.tcp: 'vegas' " + NOT + r"one of 'reno', 'newreno', 'sack'\)"),
    T("kv-ef-unknown", KV, '[fixed]; ef = "poisson"', r"fixed\.ef: 'poisson' " + NOT + r"one of 'onoff', 'cbr', 'none'"),
    T("kv-ef-fraction-one", KV, "[fixed]; ef_fraction = 1.0", r"fixed\.ef_fraction: 1\.0 " + NOT + r"a number in \(0, 1\)\)"),
    T("kv-t-on-zero", KV, "[fixed]; t_on_ms = 0", r"fixed\.t_on_ms: 0\.0 " + NOT + r"a number > 0\)"),
    T("kv-rtp-too-small", KV, "[fixed]; rtp_ms = 0.5", r"fixed\.rtp_ms: 0\.5 " + NOT + r"a number >= 2 \* bottleneck_delay_ms = 1\.0"),
    T("kv-rtp-list-length", KV, "[fixed]; rtp_ms = [8.0, 9.0]", r"fixed\.rtp_ms: \(8\.0, 9\.0\) " + NOT + r"a number or n_flows \(1\) numbers"),
    T("kv-rtp-and-intervals", KV, "[fixed]; n_flows = 8; rtp_ms = 8.0; rtp_intervals = [12, 26, 8]", r"fixed\.rtp_ms: 8\.0 " + NOT + r"None when rtp_intervals is given"),
    T("kv-intervals-not-multiple", KV, "[fixed]; n_flows = 10; rtp_intervals = [12, 26, 8]", r"fixed\.n_flows: 10 " + NOT + r"a multiple of k = 8"),
    T("kv-intervals-backwards", KV, "[fixed]; n_flows = 8; rtp_intervals = [26, 12, 8]", r"fixed\.rtp_intervals: \(26, 12, 8\) " + NOT + r".*lo_ms < hi_ms"),
    T("kv-intervals-zero-k", KV, "[fixed]; n_flows = 8; rtp_intervals = [12, 26, 0]", r"fixed\.rtp_intervals: \(12, 26, 0\) " + NOT + r".*with k >= 1\)", builder="kaur_vin"),
    T("kv-buffer-below-a-packet", KV, "[fixed]; buffer_bytes = 500", r"fixed\.buffer_bytes: 500 " + NOT + r"an integer >= 576: one packet of flows\[0\]"),
    T("kv-buffer-negative", KV, "[fixed]; buffer_bytes = -1", r"fixed\.buffer_bytes: -1 is not allowed \(expected None or an integer in "),
    T("kv-link-rate-zero", KV, "[fixed]; link_rate_bps = 0", r"fixed\.link_rate_bps: 0\.0 " + NOT + r"a number > 0\)"),
    T("kv-link-rate-inf", KV, "[fixed]; link_rate_bps = inf", r"fixed\.link_rate_bps: inf " + NOT + r"a finite number > 0\)"),
    T("kv-bottleneck-delay-negative", KV, "[fixed]; bottleneck_delay_ms = -1", r"fixed\.bottleneck_delay_ms: -1\.0 " + NOT + r"a number >= 0\)"),
    T("kv-window-too-big", KV, "[fixed]; max_window_pkts = 65537", r"fixed\.max_window_pkts: 65537 " + NOT + r"an integer in 1\.\.65536 \(2\^16\): the receiver's reorder bitmap"),
    T("kv-segment-zero", KV, "[fixed]; segment_bytes = 0", r"fixed\.segment_bytes: 0 " + NOT + r"an integer in 1\.\.65495\)"),
    T("kv-segment-fraction", KV, "[fixed]; segment_bytes = 536.5", r"fixed\.segment_bytes: 536\.5 " + NOT),
    T("kv-header-negative", KV, "[fixed]; header_bytes = -1", r"fixed\.header_bytes: -1 " + NOT + r"an integer in 0\.\.1000\)"),
    T("kv-ef-packet-zero", KV, "[fixed]; ef_pkt_bytes = 0", r"fixed\.ef_pkt_bytes: 0 " + NOT),
    T("kv-udp-string", KV, '[fixed]; udp = "yes"', r"fixed\.udp: 'yes' " + NOT + r"True or False\)"),
    T("kv-udp-fraction-zero", KV, "[fixed]; udp = true; udp_fraction = 0.0", r"fixed\.udp_fraction: 0\.0 " + NOT + r"a number in \(0, 1\)\)"),
    T("kv-reno-bugfix-string", KV, '[fixed]; reno_bugfix = "no"', r"fixed\.reno_bugfix: 'no' " + NOT + r"True or False\)"),
    T("kv-send-jitter-negative", KV, "[fixed]; send_jitter_s = -1", r"fixed\.send_jitter_s: -1\.0 is not allowed \(expected a number of seconds"),
    T("kv-tie-break-unknown", KV, '[fixed]; tie_break = "fifo"', r"fixed\.tie_break: 'fifo' " + NOT + r"one of 'random', 'index'\)"),
    T("kv-aqm-unknown", KV, '[fixed]; aqm = "rio"', r"fixed\.aqm: 'rio' " + NOT + r"'droptail' or 'red'\)"),
    T("kv-red-thresholds-backwards", KV, '[fixed]; aqm = "red"; red_min_th = 20; red_max_th = 10', r"fixed\.red_max_th: 10\.0 " + NOT + r"a number > min_th"),
    T("kv-telnet-fraction-one", KV, "[fixed]; telnet_fraction = 1.0", r"fixed\.telnet_fraction: 1\.0 " + NOT + r"a number in \[0, 1\)"),
    T("kv-telnet-flows-zero", KV, "[fixed]; telnet_fraction = 0.15; telnet_flows = 0", r"fixed\.telnet_flows: 0 " + NOT + r"an integer >= 1"),
    T("kv-min-rto-negative", KV, "[fixed]; min_rto_s = -1", r"fixed\.min_rto_s: -1\.0 " + NOT + r"a number >= 0\)"),
    T("kv-tcp-tick-zero", KV, "[fixed]; tcp_tick_s = 0", r"fixed\.tcp_tick_s: 0\.0 " + NOT + r"a number > 0\)"),
    # --- builders habib_2a, habib_2b -------------------------------------------------------
    T("habib-conditioner-unknown", HABIB, '[fixed]; conditioner = "fancy"', r"fixed\.conditioner: 'fancy' " + NOT + r"one of 'standard', 'standard_sw'", builder="habib_2a"),
    T("habib-n-micro-zero", HABIB, "[fixed]; n_micro = 0", r"fixed\.n_micro: 0 " + NOT + r"an integer in 1\.\.2000", builder="habib_2a"),
    T("habib-sw-k-zero", HABIB, "[fixed]; sw_k = 0", r"fixed\.sw_k: 0 " + NOT + r"an integer >= 1", builder="habib_2a"),
    T("habib-rtt-too-short", HABIB, "[fixed]; rtt2_ms = 5", r"fixed\.rtt2_ms: 5\.0 " + NOT + r"a round trip in \[15, 2000\] ms", builder="habib_2a"),
    T("habib-bottleneck-negative", HABIB, "[fixed]; bottleneck_bps = -1", r"fixed\.bottleneck_bps: -1\.0 " + NOT + r"a number > 0\)", builder="habib_2a"),
    T("habib-buffer-zero", HABIB, "[fixed]; buffer_pkts = 0", r"fixed\.buffer_pkts: 0 is not allowed \(expected None or an integer in 1\.", builder="habib_2a"),
    T("habib-cir-zero", HABIB, "[fixed]; cir_bps = 0", r"fixed\.cir_bps: 0\.0 " + NOT + r"a number > 0\)", builder="habib_2a"),
    T("habib-pir-below-cir", HABIB, "[fixed]; pir_bps = 1e6", r"fixed\.pir_bps: 1000000\.0 " + NOT + r"a number >= cir_bps \(2000000\.0\)", builder="habib_2a"),
    T("habib-trace-interval-zero", HABIB, "[fixed]; trace = true; trace_interval_s = 0", r"fixed\.trace_interval_s: 0\.0 " + NOT + r"a number > 0 and <= duration_s", builder="habib_2a"),
    T("habib-warmup-too-long", HABIB, "warmup_s = 2.0", r"warmup_s: 2\.0 " + NOT + r"a warm-up shorter than duration_s = 1\.0", builder="habib_2a"),
    T("habib-app-unknown", HABIB, '[fixed]; app = "ssh"', r"fixed\.app: 'ssh' " + NOT + r"'ftp', 'telnet' or 'www'\)", builder="habib_2b"),
    T("habib-edge-queue-unknown", HABIB, '[fixed]; edge_queue = "red"', r"fixed\.edge_queue: 'red' " + NOT + r"'fifo' .* or 'rio'", builder="habib_2b"),
    T("habib-www-sessions-two", HABIB, '[fixed]; app = "www"; www_sessions = 2', r"fixed\.www_sessions: 2 " + NOT + r"an integer >= 3 \(over F1, F2, F3\)\)", builder="habib_2b"),
    T("habib-telnet-max-below-min", HABIB, '[fixed]; app = "telnet"; telnet_min_pkts = 10; telnet_max_pkts = 5', r"fixed\.telnet_max_pkts: 5 " + NOT + r"an integer >= 10\)", builder="habib_2b"),
    T("habib-edge-rate-zero", HABIB, "[fixed]; edge_bps = 0", r"fixed\.edge_bps: 0\.0 " + NOT + r"a number > 0\)", builder="habib_2b"),
    T("habib-telnet-start-zero", HABIB, '[fixed]; app = "telnet"; telnet_start_s = 0', r"fixed\.telnet_start_s: 0\.0 " + NOT + r"a number > 0\)", builder="habib_2b"),
    T("habib-slot-zero", HABIB, "[fixed]; slot_s = 0", r"fixed\.slot_s: 0\.0 " + NOT + r"a number of seconds > 0, or None \(the engine's default slot\)\)", builder="habib_2b"),
    T("habib-slot-infinite", HABIB, "[fixed]; slot_s = inf", r"fixed\.slot_s: inf " + NOT + r"a finite number of seconds > 0", builder="habib_2b"),
    # --- builder lee_jeong ------------------------------------------------------------------
    T("lj-method-unknown", LJ, '[fixed]; method = "tbf"', r"fixed\.method: 'tbf' " + NOT + r"one of 'marker' .* or 'bmarker'", builder="lee_jeong"),
    T("lj-cir-above-link", LJ, "[fixed]; cir_mbps = 20", r"fixed\.cir_mbps: 20\.0 " + NOT + r"a number > 0 and <= the bottleneck rate \(10 Mb/s\)\)", builder="lee_jeong"),
    T("lj-cir-zero", LJ, "[fixed]; cir_mbps = 0", r"fixed\.cir_mbps: 0\.0 " + NOT + r"a number > 0\)", builder="lee_jeong"),
    T("lj-cir-string", LJ, '[fixed]; cir_mbps = "7"', r"fixed\.cir_mbps: '7' " + NOT + r"a number > 0\)", builder="lee_jeong"),
    T("lj-bucket-zero", LJ, "[fixed]; bucket_pkts = 0", r"fixed\.bucket_pkts: 0 " + NOT + r"an integer >= 1", builder="lee_jeong"),
    T("lj-best-effort-negative", LJ, "[fixed]; n_best_effort = -1", r"fixed\.n_best_effort: -1 " + NOT + r"an integer >= 0\)", builder="lee_jeong"),
    T("lj-access-delays-empty", LJ, "[fixed]; access_delays_ms = []", r"fixed\.access_delays_ms: \(\) " + NOT + r"a non-empty sequence of delays", builder="lee_jeong"),
    T("lj-access-delay-negative", LJ, "[fixed]; access_delays_ms = [10, -1]", r"access_delays_ms\[1\]: -1\.0 " + NOT + r"a number >= 0\)", builder="lee_jeong"),
    T("lj-tcp-unknown", LJ, '[fixed]; tcp = "vegas"', r"fixed\.tcp: 'vegas' " + NOT + r"one of 'reno', 'newreno', 'sack'\)", builder="lee_jeong"),
    T("lj-be-delay-negative", LJ, "[fixed]; be_delay_ms = -1", r"fixed\.be_delay_ms: -1\.0 " + NOT + r"a number >= 0\)", builder="lee_jeong"),
    T("lj-w-hi-below-w-lo", LJ, '[fixed]; method = "bmarker"; w_lo = 2.0; w_hi = 1.0', r"fixed\.w_hi: 1\.0 " + NOT + r"a number > w_lo \(2\.0\)\)", builder="lee_jeong"),
    T("lj-p-max-zero", LJ, '[fixed]; method = "bmarker"; p_max = 0', r"fixed\.p_max: 0\.0 " + NOT + r"a number in \(0, 1\]\)", builder="lee_jeong"),
    T("lj-udp-string", LJ, '[fixed]; udp = "yes"', r"fixed\.udp: 'yes' " + NOT + r"True or False\)", builder="lee_jeong"),
    T("lj-buffer-zero", LJ, "[fixed]; buffer_pkts = 0", r"fixed\.buffer_pkts: 0 is not allowed \(expected None or an integer in 1\.", builder="lee_jeong"),
    # --- builders matta_guo, matta_guo_web ----------------------------------------------------
    T("mg-n-flows-zero", MG, "[fixed]; n_flows = 0", r"fixed\.n_flows: 0 " + NOT + r"an integer in 1\.\.2000", builder="matta_guo"),
    T("mg-k-zero", MG, "[fixed]; k = 0", r"fixed\.k: 0\.0 " + NOT + r"a number in \(0, 64\]", builder="matta_guo"),
    T("mg-short-k-too-big", MG, "[fixed]; short_k = 100", r"fixed\.short_k: 100\.0 " + NOT + r"a number in \(0, 64\]", builder="matta_guo"),
    T("mg-buffer-ratio-zero", MG, "[fixed]; buffer_ratio = 0", r"fixed\.buffer_ratio: 0\.0 " + NOT + r"a number in \(0, 100\]", builder="matta_guo"),
    T("mg-lifetime-zero", MG, "[fixed]; lifetime_pkts = 0", r"fixed\.lifetime_pkts: 0 " + NOT + r"None \(size-based classification\) or an integer in 1\.\.100000", builder="matta_guo"),
    T("mg-isolation-string", MG, '[fixed]; isolation = "yes"', r"fixed\.isolation: 'yes' " + NOT + r"true \(two pipes\) or false", builder="matta_guo"),
    T("mg-aqm-unknown", MG, '[fixed]; aqm = "codel"', r"fixed\.aqm: 'codel' " + NOT + r"'droptail' or 'red'\)", builder="matta_guo"),
    T("mg-red-under-isolation", MG, '[fixed]; aqm = "red"', r"fixed\.aqm: 'red' " + NOT + r"'droptail' under isolation", builder="matta_guo"),
    T("mg-red-thresholds-backwards", MG, '[fixed]; isolation = false; aqm = "red"; red_min_th = 10; red_max_th = 5', r"fixed\.red_max_th: 5\.0 " + NOT + r"a number > min_th \(10\.0\)", builder="matta_guo"),
    T("mg-red-max-p-above-one", MG, '[fixed]; isolation = false; aqm = "red"; red_max_p = 5', r"fixed\.red_max_p: 5\.0 " + NOT + r"a number in \(0, 1\]\)", builder="matta_guo"),
    T("mg-think-zero", MG, "[fixed]; think_s = 0", r"fixed\.think_s: 0\.0 " + NOT + r"a number > 0\)", builder="matta_guo"),
    T("mg-telnet-negative", MG, "[fixed]; telnet_sessions = -1", r"fixed\.telnet_sessions: -1 " + NOT + r"an integer >= 0\)", builder="matta_guo"),
    T("mg-window-zero", MG, "[fixed]; max_window_pkts = 0", r"fixed\.max_window_pkts: 0 " + NOT + r"an integer in 1\.\.65536", builder="matta_guo"),
    T("mgw-scheme-unknown", MG, '[fixed]; scheme = "ecmp"', r"fixed\.scheme: 'ecmp' " + NOT + r"one of 'load-balanced', 'size-based'", builder="matta_guo_web"),
    T("mgw-pool-zero", MG, "[fixed]; web_pool = 0", r"fixed\.web_pool: 0 " + NOT + r"an integer >= 1\)", builder="matta_guo_web"),
    T("mgw-n-long-zero", MG, "[fixed]; n_long = 0", r"fixed\.n_long: 0 " + NOT + r"an integer >= 1\)", builder="matta_guo_web"),
    T("mgw-n-short-zero", MG, "[fixed]; n_short = 0", r"fixed\.n_short: 0 " + NOT + r"an integer >= 1\)", builder="matta_guo_web"),
    T("mgw-interarrival-zero", MG, "[fixed]; web_interarrival_s = 0", r"fixed\.web_interarrival_s: 0\.0 " + NOT + r"a number > 0\)", builder="matta_guo_web"),
    # --- builder rossi ----------------------------------------------------------------------
    T("rossi-rho-zero", ROSSI, "[fixed]; rho = 0", r"fixed\.rho: 0\.0 " + NOT + r"a number > 0 and < 10", builder="rossi"),
    T("rossi-rho-ten", ROSSI, "[fixed]; rho = 10", r"fixed\.rho: 10\.0 " + NOT + r"a number > 0 and < 10", builder="rossi"),
    T("rossi-alpha-above-one", ROSSI, "[fixed]; alpha_af = 1.5", r"fixed\.alpha_af: 1\.5 " + NOT + r"a number in \[0, 1\]", builder="rossi"),
    T("rossi-ftp-negative", ROSSI, "[fixed]; ftp_per_cloud = -1", r"fixed\.ftp_per_cloud: -1 " + NOT + r"an integer >= 0\)", builder="rossi"),
    T("rossi-pool-zero", ROSSI, "[fixed]; pool = 0", r"fixed\.pool: 0 " + NOT + r"an integer >= 1 \(slots per cloud\)\)", builder="rossi"),
    T("rossi-halt-before-stop", ROSSI, "[fixed]; t_stop_s = 2.0; t_halt_s = 1.0", r"fixed\.t_halt_s: 1\.0 " + NOT + r"a number >= t_stop_s \(2\)\)", builder="rossi"),
    T("rossi-cir-fraction-zero", ROSSI, "[fixed]; cir_fraction = 0", r"fixed\.cir_fraction: 0\.0 " + NOT + r"a number in \(0, 1\]\)", builder="rossi"),
    T("rossi-sizes-empty", ROSSI, "[fixed]; size_set_pkts = []", r"fixed\.size_set_pkts: \(\) " + NOT + r"a non-empty sequence of transfer sizes", builder="rossi"),
    T("rossi-size-zero", ROSSI, "[fixed]; size_set_pkts = [1, 0]", r"size_set_pkts\[1\]: 0 " + NOT + r"an integer >= 1\)", builder="rossi"),
    T("rossi-sizes-string", ROSSI, '[fixed]; size_set_pkts = "abc"', r"fixed\.size_set_pkts: 'abc' " + NOT + r"a non-empty sequence", builder="rossi"),
    T("rossi-buffer-zero", ROSSI, "[fixed]; buffer_pkts = 0", r"fixed\.buffer_pkts: 0 is not allowed \(expected None or an integer in 1\.", builder="rossi"),
    T("rossi-tsw-window-zero", ROSSI, "[fixed]; tsw_window_s = 0", r"fixed\.tsw_window_s: 0\.0 " + NOT + r"a number > 0\)", builder="rossi"),
    T("rossi-warmup-negative", ROSSI, "[fixed]; warmup_s = -1", r"warmup_s: -1\.0 " + NOT + r"a number >= 0\)", builder="rossi"),
    T("tkv-aqm-red", TKV, '[fixed]; aqm = "red"', r"fixed\.aqm: 'red' " + NOT + r"one of 'droptail', 'codel', 'pie', 'fq_codel'\)", builder="todays_kaur_vin"),
    T("tkv-congestion-control-unknown", TKV, '[axes]; congestion_control = ["cubic", "bbr"]', r"axes\.congestion_control: 'bbr' " + NOT + r"one of 'newreno', 'cubic'\).*\(grid point 1", builder="todays_kaur_vin"),
    # --- builder dumbbell ------------------------------------------------------------------
    T("db-aqm-rio", DB, '[fixed]; aqm = "rio"', r"fixed\.aqm: 'rio' " + NOT + r"one of 'droptail', 'red', 'rio-c', 'rio-d', 'wred', 'codel', 'pie', 'fq_codel', 'step'; did you mean 'rio-c' or 'rio-d'\?\)", builder="dumbbell"),
    T("db-ecn-droptail", DB, '[fixed]; aqm = "droptail"; ecn = true', r"ecn: True " + NOT + r"false with aqm 'droptail' \(a drop-tail queue cannot mark", builder="dumbbell"),
    T("db-slot-negative", DB, '[fixed]; slot_s = -1', r"slot_s: -1\.0 " + NOT + r"a number of seconds > 0, or None \(the engine's default slot\)\)", builder="dumbbell"),
    T("db-step-k-above-buffer", DB, '[fixed]; aqm = "step"; step_k_pkts = 200', r"step_k_pkts: 200\.0 " + NOT + r"a number >= 1 and < buffer_pkts", builder="dumbbell"),
    T("db-aqm-unknown", DB, '[axes]; aqm = ["droptail", "blue"]', r"axes\.aqm: 'blue' " + NOT + r"one of 'droptail', .*\(grid point 1: aqm='blue'", builder="dumbbell"),
    T("db-pie-qdelay-ref-zero", DB, '[fixed]; aqm = "pie"; pie_qdelay_ref_ms = 0', r"fixed\.pie_qdelay_ref_ms: 0\.0 " + NOT + r"a number >= 1e-06 and <= 1e\+09 \(ms, at least a nanosecond\)\)", builder="dumbbell"),
    T("db-pie-alpha-negative", DB, "[fixed]; pie_alpha = -0.5", r"fixed\.pie_alpha: -0\.5 " + NOT + r"a number >= 0 \(1/s", builder="dumbbell"),
    # issue 52: CoDel's times (ns-3 Target, Interval), checked whatever the aqm
    T("db-fq-codel-too-many-queues", DB, '[fixed]; aqm = "fq_codel"; n_flows = 400', r"fq_flows: 1024 " + NOT + r"fewer buckets: the 400 senders fill 313 flow queues, and the engine keeps at most 256 a link", builder="dumbbell"),
    T("db-codel-target-zero", DB, '[fixed]; aqm = "codel"; codel_target_ms = 0', r"fixed\.codel_target_ms: 0\.0 " + NOT + r"a number > 0 and < 4\.39805e\+06 \(ms; ns-3 Target\)\)", builder="dumbbell"),
    T("db-codel-interval-negative", DB, "[fixed]; codel_interval_ms = -100", r"fixed\.codel_interval_ms: -100\.0 " + NOT + r"a number > 0 and < 274878 \(ms; ns-3 Interval", builder="dumbbell"),
    T("db-rto-restart-unknown", DB, '[fixed]; rto_restart = "ns3"', r"fixed\.rto_restart: 'ns3' " + NOT + r"one of 'fast_retransmit', 'new_ack'\)", builder="dumbbell"),
    T("db-queue-delay-hist-string", DB, '[fixed]; queue_delay_hist = "yes"', r"fixed\.queue_delay_hist: 'yes' " + NOT + r"true or false\)", builder="dumbbell"),
    # issue 53: a rate that makes the slot too fine named duration_s, not the rate
    T("db-bottleneck-slot-clock", DB, "[fixed]; bottleneck_bps = 1e15", r"fixed\.bottleneck_bps: 1000000000000000\.0 " + NOT + r"a number > 0 and at most 3\.573e\+13 b/s, so that duration_s 1 is fewer than 2\^32 slots, .*1040-byte packet at the fastest rate, bottleneck_bps 1e\+15 b/s; or a duration_s of at most 0\.03573 s\)", builder="dumbbell"),
    T("db-bottleneck-negative", DB, "[fixed]; bottleneck_bps = -1", r"fixed\.bottleneck_bps: -1\.0 " + NOT + r"a number > 0\)", builder="dumbbell"),
    T("db-rtt-list-length", DB, "[fixed]; n_flows = 3; rtt_ms = [20, 40]", r"fixed\.rtt_ms: \(20, 40\) " + NOT + r"a number of ms or a list of n_flows \(3\) of them", builder="dumbbell"),
    T("db-rtt-below-bottleneck", DB, "[fixed]; rtt_ms = 15", r"fixed\.rtt_ms: 15\.0 " + NOT + r"a number of ms >= 2 x bottleneck_delay_ms = 20", builder="dumbbell"),
    T("db-rtt-and-spread", DB, "[fixed]; rtt_ms = 40; rtt_min_ms = 20; rtt_max_ms = 60", r"fixed\.rtt_ms: 40 " + NOT + r"None \(not given\) with rtt_min_ms/rtt_max_ms", builder="dumbbell"),
    T("db-spread-half", DB, "[fixed]; rtt_min_ms = 20", r"rtt_max_ms: None " + NOT + r"a number with rtt_min_ms", builder="dumbbell"),
    T("db-spread-backwards", DB, "[fixed]; rtt_min_ms = 80; rtt_max_ms = 60", r"fixed\.rtt_max_ms: 60\.0 " + NOT + r"a number >= rtt_min_ms \(80\)\)", builder="dumbbell"),
    T("db-tcp-unknown", DB, '[fixed]; n_flows = 2; tcp = ["reno", "vegas"]', r"tcp\[1\]: 'vegas' " + NOT + r"one of 'reno', 'newreno', 'sack'\)", builder="dumbbell"),
    T("db-cc-unknown", DB, '[fixed]; n_flows = 2; congestion_control = ["cubic", "vegas"]', r"congestion_control\[1\]: 'vegas' " + NOT + r"one of 'newreno', 'cubic', 'dctcp'\)", builder="dumbbell"),
    T("db-cubic-param-without-cubic", DB, "[fixed]; cubic_beta = 0.5", r"cubic_beta: 0\.5 " + NOT + r"the default 0\.7 unless a flow's congestion_control is 'cubic'\)", builder="dumbbell"),
    T("db-cubic-beta-range", DB, '[fixed]; congestion_control = "cubic"; cubic_beta = 1.5', r"cubic_beta: 1\.5 " + NOT + r"a number in \(0, 1\)", builder="dumbbell"),
    T("db-red-thresholds-backwards", DB, '[fixed]; aqm = "red"; red_min_th_pkts = 20; red_max_th_pkts = 10', r"fixed\.red_max_th_pkts: 10\.0 " + NOT + r"a number > red_min_th_pkts \(20\)", builder="dumbbell"),
    T("db-rio-thresholds-one", DB, '[fixed]; aqm = "rio-c"; rio_thresholds = [[20, 40, 0.02]]', r"fixed\.rio_thresholds: \(\(20, 40, 0\.02\),\) " + NOT + r"a list of 2 \(green, red\) or 3", builder="dumbbell"),
    T("db-marker-no-cir", DB, '[fixed]; aqm = "rio-c"; marker = "tsw2cm"', r"marker_cir_bps: None " + NOT + r"a number > 0 with marker 'tsw2cm'", builder="dumbbell"),
    T("db-marker-per-flow-too-many", DB, '[fixed]; n_flows = 65; marker = "tsw2cm"; marker_cir_bps = 1e5; marker_per_flow = true', r"fixed\.marker_per_flow: True " + NOT + r"false with more than 64 flows", builder="dumbbell"),
    T("db-cross-unknown", DB, '[fixed]; cross = "udp"', r"fixed\.cross: 'udp' " + NOT + r"one of 'none', 'cbr', 'exponential'\)", builder="dumbbell"),
    T("db-cross-rate-negative", DB, '[fixed]; cross = "cbr"; cross_rate_bps = -5', r"fixed\.cross_rate_bps: -5\.0 " + NOT + r"a number > 0\)", builder="dumbbell"),
    T("db-web-sessions-negative", DB, "[fixed]; web_sessions = -1", r"fixed\.web_sessions: -1 " + NOT + r"an integer in 0\.\.1000000", builder="dumbbell"),
    # --- builder parking_lot ---------------------------------------------------------------
    T("pl-links-zero", PL, "[fixed]; n_links = 0", r"fixed\.n_links: 0 " + NOT + r"an integer in 1\.\.4 \(bottlenecks in the chain; a long flow's route holds at most 4 links\)\)", builder="parking_lot"),
    T("pl-link-list-length", PL, "[fixed]; n_links = 3; bottleneck_bps = [10e6, 5e6]", r"fixed\.bottleneck_bps: \(10000000\.0, 5000000\.0\) " + NOT + r"a number > 0 or a list of n_links \(3\) of them, one per link", builder="parking_lot"),
    T("pl-aqm-rio", PL, '[fixed]; aqm = "rio-c"', r"fixed\.aqm: 'rio-c' " + NOT + r"one of 'droptail', 'red', 'codel', 'pie', 'fq_codel'\)", builder="parking_lot"),
    T("pl-pie-max-burst-negative", PL, '[fixed]; aqm = "pie"; pie_max_burst_ms = -1', r"fixed\.pie_max_burst_ms: -1\.0 " + NOT + r"a number >= 0 and <= 1e\+09 \(ms\)\)", builder="parking_lot"),
    T("pl-codel-target-string", PL, '[fixed]; aqm = "codel"; codel_target_ms = "5ms"', r"fixed\.codel_target_ms: '5ms' " + NOT + r"a number > 0 and < 4\.39805e\+06", builder="parking_lot"),
    T("pl-no-flows", PL, "[fixed]; n_long = 0; n_cross = 0", r"fixed\.n_long: 0 " + NOT + r"an integer >= 1 when n_cross is 0", builder="parking_lot"),
    # --- Python: links and queues -------------------------------------------------------------
    P("link-rate-negative", LINK, "Link(rate_bps=-1.0)", r"^Link\.rate_bps: -1\.0 " + NOT + r"a number > 0\)"),
    P("link-rate-string", LINK, 'Link(rate_bps="1e6")', r"^Link\.rate_bps: '1e6' " + NOT + r"a number > 0\)"),
    P("link-delay-nan", LINK, "Link(rate_bps=1e6, prop_delay_ms=math.nan)", r"^Link\.prop_delay_ms: nan " + NOT + r"a finite number >= 0\)"),
    P("link-loss-one", LINK, "Link(rate_bps=1e6, loss_prob=1.0)", r"^Link\.loss_prob: 1\.0 " + NOT + r"a number in \[0, 1\)\)"),
    P("flow-ssthresh-from-unknown", FLOW, 'TcpFlow(variant="sack", ssthresh_from="half")', r"^TcpFlow\.ssthresh_from: 'half' " + NOT + r"one of 'window', 'flight'\)"),
    P("flow-ssthresh-from-flight-reno", FLOW, 'TcpFlow(ssthresh_from="flight")', r"^TcpFlow\.ssthresh_from: 'flight' " + NOT + r"'window' with variant 'reno'"),
    P("flow-rto-restart-unknown", FLOW, 'TcpFlow(rto_restart="timeout")', r"^TcpFlow\.rto_restart: 'timeout' " + NOT + r"one of 'fast_retransmit', 'new_ack'\)"),
    P("flow-rto-restart-bool", FLOW, "TcpFlow(rto_restart=True)", r"^TcpFlow\.rto_restart: True " + NOT + r"one of 'fast_retransmit', 'new_ack'\)"),
    P("link-device-queue-negative", LINK, "Link(rate_bps=1e6, device_queue_pkts=-1)", r"^Link\.device_queue_pkts: -1 " + NOT + r"an integer in \[0, 64\] \(0: no device queue\)\)"),
    P("link-device-queue-two-classes", LINK, 'Link(rate_bps=1e6, device_queue_pkts=1, classes=(QueueClass("ef"), QueueClass("be")))', r"^Link\.device_queue_pkts: 1 " + NOT + r"0 on a link with 2 classes or scheduler 'priority'"),
    P("link-scheduler-unknown", LINK, 'Link(rate_bps=1e6, scheduler="fifo")', r"^Link\.scheduler: 'fifo' " + NOT + r"one of 'priority', 'wrr', 'cbq'\)"),
    P("link-no-classes", LINK, "Link(rate_bps=1e6, classes=())", r"^Link\.classes: \(\) " + NOT + r"a non-empty sequence of QueueClass\)"),
    P("link-classes-none", LINK, "Link(rate_bps=1e6, classes=None)", r"^Link\.classes: None " + NOT + r"a non-empty sequence of QueueClass\)"),
    P("link-class-twice", LINK, 'Link(rate_bps=1e6, classes=(QueueClass("be"), QueueClass("be")))', r"^Link\.classes\[1\]\.name: 'be' " + NOT + r"a name not used by another class"),
    P("link-cbq-without-share", LINK, 'Link(rate_bps=1e6, scheduler="cbq")', r"^Link\.classes\[0\]\.share: None " + NOT + r"a number in \(0, 1\] on a 'cbq' link"),
    P("link-cbq-shares-above-one", LINK, 'Link(rate_bps=1e6, scheduler="cbq", classes=(QueueClass("a", share=0.6), QueueClass("b", share=0.6)))', r"^Link\.classes: shares sum to 1\.2 \(expected at most 1"),
    P("link-lend-without-cbq", LINK, "Link(rate_bps=1e6, cbq_lend=True)", r"^Link\.cbq_lend: True " + NOT + r"False on a 'priority' link"),
    P("link-domain-negative", LINK, "Link(rate_bps=1e6, domain=-1)", r"^Link\.domain: -1 " + NOT + r"an integer >= 0"),
    P("queue-limit-zero", LINK, "QueueClass(limit_bytes=0)", r"QueueClass\.limit_bytes: 0 is not allowed \(expected None or an integer "),
    P("queue-two-limits", LINK, "QueueClass(limit_bytes=9000, limit_pkts=10)", r"^QueueClass\.limit_pkts: 10 " + NOT + r"None when limit_bytes is set"),
    P("queue-weight-zero", LINK, "QueueClass(weight=0)", r"QueueClass\.weight: 0 is not allowed \(expected an integer in 1\.\.2147483"),
    P("queue-ecn-droptail", LINK, "QueueClass(limit_pkts=10, ecn=True)", r"^QueueClass\.ecn: True " + NOT + r"False for aqm 'droptail' \(a drop-tail queue cannot mark"),
    P("queue-hard-drop-off-codel", LINK, 'QueueClass(limit_pkts=10, aqm="codel", ecn=True, red_hard_drop=False)', r"^QueueClass\.red_hard_drop: False " + NOT + r"True unless ecn is True on a RED/RIO/WRED class"),
    P("queue-aqm-unknown", LINK, 'QueueClass(aqm="blue")', r"^QueueClass\.aqm: 'blue' " + NOT + r"one of 'droptail', 'red'"),
    P("queue-pie-time-on-droptail", LINK, "QueueClass(pie_t_update_ms=30)", r"^QueueClass\.pie_t_update_ms: 30\.0 " + NOT + r"15\.0 \(the default\) unless aqm is 'pie'"),
    P("queue-pie-derandomize-int", LINK, 'QueueClass(aqm="pie", pie_derandomize=1)', r"^QueueClass\.pie_derandomize: 1 " + NOT + r"True or False\)"),
    P("scenario-pie-too-many-updates", LINK, 'Scenario(links=(Link(rate_bps=1e6, classes=(QueueClass(aqm="pie", pie_t_update_ms=1e-6),)),), flows=(TcpFlow(),), duration_s=5000.0)', r"^duration_s: 5000\.0 " + NOT + r"a number < 4\.29497 with a PIE queue of pie_t_update_ms 1e-06"),
    P("queue-codel-time-on-droptail", LINK, "QueueClass(codel_interval_ms=50)", r"^QueueClass\.codel_interval_ms: 50\.0 " + NOT + r"100\.0 \(the default\) unless aqm is 'codel'"),
    P("queue-codel-min-bytes-negative", LINK, 'QueueClass(aqm="codel", codel_min_bytes=-1)', r"^QueueClass\.codel_min_bytes: -1 " + NOT + r"an integer in 0\.\."),
    P("queue-fq-codel-twice", LINK, 'Link(rate_bps=1e6, classes=(QueueClass("a", limit_pkts=10, aqm="fq_codel"), QueueClass("b", limit_pkts=10, aqm="fq_codel")))', r"^Link\.classes\[1\]\.aqm: 'fq_codel' " + NOT + r"not 'fq_codel' again: one FQ-CoDel class a link"),
    P("queue-fq-codel-byte-limit", LINK, 'QueueClass(limit_bytes=10000, aqm="fq_codel")', r"^QueueClass\.limit_pkts: None " + NOT + r"an integer \(packets\) for aqm 'fq_codel'"),
    P("queue-fq-flows-on-droptail", LINK, "QueueClass(limit_pkts=10, fq_flows=8)", r"^QueueClass\.fq_flows: 8 " + NOT + r"1024 \(the default\) unless aqm is 'fq_codel'"),
    P("queue-fq-quantum-zero", LINK, 'QueueClass(limit_pkts=10, aqm="fq_codel", fq_quantum_bytes=0)', r"^QueueClass\.fq_quantum_bytes: 0 " + NOT + r"an integer in 1\.\."),
    P("queue-fq-codel-on-cbq", LINK, 'Link(rate_bps=1e6, scheduler="cbq", classes=(QueueClass(limit_pkts=10, aqm="fq_codel", share=1.0),))', r"^Link\.classes\[0\]\.aqm: 'fq_codel' " + NOT + r"not 'fq_codel' on a 'cbq' link"),
    P("queue-codel-on-cbq", LINK, 'Link(rate_bps=1e6, scheduler="cbq", classes=(QueueClass(aqm="codel", share=1.0),))', r"^Link\.classes\[0\]\.aqm: 'codel' " + NOT + r"not 'codel' on a 'cbq' link"),
    P("scenario-codel-too-long", LINK, 'Scenario(links=(Link(rate_bps=1e6, classes=(QueueClass(aqm="codel"),)),), flows=(TcpFlow(),), duration_s=5000.0)', r"^duration_s: 5000\.0 " + NOT + r"a number < 4398\.05 with a CoDel queue"),
    P("queue-red-without-thresholds", LINK, 'QueueClass(aqm="red")', r"^QueueClass\.red: \(\) " + NOT + r"one RedThresholds for aqm 'red'\)"),
    P("queue-wred-one-threshold", LINK, 'QueueClass(aqm="wred", red=(RedThresholds(5, 10, 0.1),))', r"^QueueClass\.red: .*" + NOT + r"2 RedThresholds \(green, red\) or 3"),
    P("queue-thresholds-on-droptail", LINK, "QueueClass(red=(RedThresholds(5, 10, 0.1),))", r"^QueueClass\.red: .*" + NOT + r"\(\) for aqm 'droptail'"),
    P("queue-red-not-a-sequence", LINK, "QueueClass(red=5)", r"^QueueClass\.red: 5 " + NOT + r"a sequence of RedThresholds\)"),
    P("queue-red-plain-tuple", LINK, 'QueueClass(aqm="red", red=[(1, 2, 0.1)])', r"^QueueClass\.red\[0\]: \(1, 2, 0\.1\) " + NOT + r"a RedThresholds or a dict of its fields\)"),
    P("queue-red-weight-zero", LINK, "QueueClass(red_w_q=0)", r"^QueueClass\.red_w_q: 0\.0 " + NOT + r"a number in \(0, 1\]\)"),
    P("queue-share-above-one", LINK, "QueueClass(share=1.5)", r"^QueueClass\.share: 1\.5 " + NOT + r"None or a number in \(0, 1\]"),
    P("queue-name-empty", LINK, 'QueueClass(name="")', r"^QueueClass\.name: '' " + NOT + r"a non-empty string\)"),
    P("red-max-below-min", LINK, "RedThresholds(min_th=10, max_th=5, max_p=0.1)", r"^RedThresholds\.max_th: 5\.0 " + NOT + r"a number > min_th \(10\.0\)"),
    P("red-max-p-zero", LINK, "RedThresholds(min_th=5, max_th=10, max_p=0)", r"^RedThresholds\.max_p: 0\.0 " + NOT + r"a number in \(0, 1\]\)"),
    # --- Python: TCP flows and on/off sources ---------------------------------------------------
    P("flow-variant-unknown", FLOW, 'TcpFlow(variant="vegas")', r"^TcpFlow\.variant: 'vegas' " + NOT + r"one of 'reno', 'newreno', 'sack'\)"),
    P("flow-cc-unknown", FLOW, 'TcpFlow(congestion_control="bbr")', r"^TcpFlow\.congestion_control: 'bbr' " + NOT + r"one of 'newreno', 'cubic', 'dctcp'\)"),
    P("flow-ecn-not-bool", FLOW, 'TcpFlow(ecn="yes")', r"^TcpFlow\.ecn: 'yes' " + NOT),
    P("flow-cubic-beta-one", FLOW, 'TcpFlow(congestion_control="cubic", cubic_beta=1.0)', r"^TcpFlow\.cubic_beta: 1\.0 " + NOT + r"a number in \(0, 1\)"),
    P("flow-cubic-c-zero", FLOW, 'TcpFlow(congestion_control="cubic", cubic_c=0)', r"^TcpFlow\.cubic_c: 0\.0 " + NOT + r"a number in \(0, 1e6\]"),
    P("flow-cubic-param-without-cubic", FLOW, "TcpFlow(cubic_c=0.5)", r"^TcpFlow\.cubic_c: 0\.5 " + NOT + r"the default 0\.4 unless congestion_control is 'cubic'"),
    P("flow-cubic-detect-unknown", FLOW, 'TcpFlow(congestion_control="cubic", cubic_hystart_detect="train")', r"^TcpFlow\.cubic_hystart_detect: 'train' " + NOT + r"one of 'packet_train', 'delay', 'both'\)"),
    P("flow-cubic-clamp-uint8", FLOW, 'TcpFlow(congestion_control="cubic", cubic_cnt_clamp=300)', r"^TcpFlow\.cubic_cnt_clamp: 300 " + NOT + r"an integer in 0\.\.255 \(ns-3: a uint8\)\)"),
    P("flow-cubic-delays-backwards", FLOW, 'TcpFlow(congestion_control="cubic", cubic_hystart_delay_min_ms=5, cubic_hystart_delay_max_ms=2)', r"^TcpFlow\.cubic_hystart_delay_min_ms: 5\.0 " + NOT + r"at most cubic_hystart_delay_max_ms \(2\.0\)\)"),
    P("scenario-cubic-sets", FLOW, 'Scenario(links=(Link(rate_bps=1e6),), flows=tuple(TcpFlow(congestion_control="cubic", cubic_c=0.5 + k) for k in range(5)), duration_s=1)', r"^flows\[4\]\.cubic_c: 4\.5 " + NOT + r"at most 4 distinct sets of CUBIC parameters"),
    P("flow-route-empty", FLOW, "TcpFlow(route=())", r"^TcpFlow\.route: \(\) " + NOT + r"a sequence of 1\.\.4 link indices\)"),
    P("flow-route-repeats", FLOW, "TcpFlow(route=(0, 0))", r"^TcpFlow\.route: \(0, 0\) " + NOT + r"link indices without repeats\)"),
    P("flow-route-too-long", FLOW, "TcpFlow(route=(0, 1, 2, 3, 4))", r"^TcpFlow\.route: \(0, 1, 2, 3, 4\) " + NOT + r"a sequence of 1\.\.4"),
    P("flow-route-negative", FLOW, "TcpFlow(route=(-1,))", r"^TcpFlow\.route\[0\]: -1 " + NOT + r"a link index >= 0\)"),
    P("flow-segment-zero", FLOW, "TcpFlow(segment_bytes=0)", r"^TcpFlow\.segment_bytes: 0 " + NOT + r"an integer in 1\.\.65495\)"),
    P("flow-wire-too-big", FLOW, "TcpFlow(segment_bytes=65495, header_bytes=41)", r"^TcpFlow\.segment_bytes: 65495 " + NOT + r"segment_bytes \+ header_bytes \(41\) <= 65535\)"),
    P("flow-window-too-big", FLOW, "TcpFlow(max_window_pkts=65537)", r"^TcpFlow\.max_window_pkts: 65537 " + NOT + r"an integer in 1\.\.65536"),
    P("flow-init-window-above-max", FLOW, "TcpFlow(max_window_pkts=4, init_window_pkts=5)", r"^TcpFlow\.init_window_pkts: 5 " + NOT + r"an integer in 1\.\.4 \(at most max_window_pkts\)\)"),
    P("flow-ssthresh-one", FLOW, "TcpFlow(init_ssthresh_pkts=1)", r"TcpFlow\.init_ssthresh_pkts: 1 is not allowed \(expected None or an inte"),
    P("flow-access-buffer-zero", FLOW, "TcpFlow(access_buffer_pkts=0)", r"TcpFlow\.access_buffer_pkts: 0 is not allowed \(expected None \(unlimited"),
    P("flow-access-rate-negative", FLOW, "TcpFlow(access_rate_bps=-5.0)", r"^TcpFlow\.access_rate_bps: -5\.0 " + NOT + r"None \(rate of the route's first link\), 0 \(unpaced\) or a number > 0\)"),
    P("flow-delay-inf", FLOW, "TcpFlow(access_delay_ms=math.inf)", r"^TcpFlow\.access_delay_ms: inf " + NOT + r"a finite number >= 0\)"),
    P("flow-start-negative", FLOW, "TcpFlow(start_s=-1)", r"^TcpFlow\.start_s: -1\.0 " + NOT + r"a number >= 0\)"),
    P("flow-size-zero", FLOW, "TcpFlow(size_pkts=0)", r"TcpFlow\.size_pkts: 0 is not allowed \(expected None \(backlogged\) or an "),
    P("flow-delayed-ack-string", FLOW, 'TcpFlow(delayed_ack="yes")', r"^TcpFlow\.delayed_ack: 'yes' " + NOT + r"True or False\)"),
    P("flow-colour-unknown", FLOW, 'TcpFlow(colour="blue")', r"^TcpFlow\.colour: 'blue' " + NOT + r"None or one of 'green', 'yellow', 'red'\)"),
    P("flow-split-without-route2", FLOW, 'TcpFlow(split="random")', r"^TcpFlow\.route2: \(\) " + NOT + r"a second route: split is 'random'\)"),
    P("flow-split-unknown", FLOW, 'TcpFlow(route2=(1,), split="ecmp")', r"^TcpFlow\.split: 'ecmp' " + NOT + r"one of 'none', 'random', 'size', 'lifetime'\)"),
    P("flow-size-split-no-threshold", FLOW, 'TcpFlow(route2=(1,), split="size")', r"^TcpFlow\.split_pkts: None " + NOT + r"an integer >= 1: the threshold of the 'size' split\)"),
    P("flow-threshold-without-split", FLOW, "TcpFlow(split_pkts=10)", r"^TcpFlow\.split_pkts: 10 " + NOT + r"None: split is 'none'"),
    P("flow-nine-drops", FLOW, "TcpFlow(drop_seqs=tuple(range(9)))", r"TcpFlow\.drop_seqs: \(0, 1, 2, 3, 4, 5, 6, 7, 8\) is not allowed \(expecte"),
    P("flow-drops-scalar", FLOW, "TcpFlow(drop_seqs=5)", r"TcpFlow\.drop_seqs: 5 is not allowed \(expected at most 8 sequence numbe"),
    P("flow-route-string", FLOW, 'TcpFlow(route="0")', r"^TcpFlow\.route: '0' " + NOT + r"a sequence of 1\.\.4 link indices\)"),
    P("flow-telnet-negative", FLOW, "TcpFlow(telnet_interval_s=-1)", r"^TcpFlow\.telnet_interval_s: -1\.0 " + NOT + r"a number >= 0\)"),
    P("flow-delays-negative", FLOW, "TcpFlow().with_delays(1.0, -1.0, 1.0)", r"^TcpFlow\.egress_delay_ms: -1\.0 " + NOT + r"a number >= 0\)"),
    P("flow-syn-telnet", FLOW, "TcpFlow(syn=True, telnet_interval_s=1.0)", r"^TcpFlow\.syn: True " + NOT + r"False with telnet_interval_s"),
    P("flow-syn-no-header", FLOW, "TcpFlow(syn=True, header_bytes=0)", r"^TcpFlow\.syn: True " + NOT + r"False with header_bytes 0 \(the SYN is a header-only"),
    P("flow-syn-size-max", FLOW, "TcpFlow(syn=True, size_pkts=2**31 - 1)", r"^TcpFlow\.size_pkts: 2147483647 " + NOT + r"at most 2147483646 with syn"),
    P("flow-delay-growth-string", FLOW, 'TcpFlow(delay_growth="yes")', r"^TcpFlow\.delay_growth: 'yes' " + NOT),
    P("source-peak-zero", FLOW, "OnOffSource(peak_bps=0, t_on_ms=1, t_off_ms=1)", r"^OnOffSource\.peak_bps: 0\.0 " + NOT + r"a number > 0\)"),
    P("source-t-on-zero", FLOW, "OnOffSource(peak_bps=1e6, t_on_ms=0, t_off_ms=1)", r"OnOffSource\.t_on_ms: 0\.0 is not allowed \(expected a number of millisec"),
    P("source-t-off-negative", FLOW, "OnOffSource(peak_bps=1e6, t_on_ms=1, t_off_ms=-1)", r"OnOffSource\.t_off_ms: -1\.0 is not allowed \(expected 0 \(always on\) or a"),
    P("source-packet-too-big", FLOW, "OnOffSource(peak_bps=1e6, t_on_ms=1, t_off_ms=1, pkt_bytes=70000)", r"^OnOffSource\.pkt_bytes: 70000 " + NOT + r"an integer in 1\.\.65535\)"),
    P("source-onoff-unknown", FLOW, 'OnOffSource(peak_bps=1e6, t_on_ms=1, t_off_ms=1, onoff="pareto")', r"^OnOffSource\.onoff: 'pareto' " + NOT + r"one of 'exponential', 'fixed'\)"),
    P("source-name-empty", FLOW, 'OnOffSource(peak_bps=1e6, t_on_ms=1, t_off_ms=1, name="")', r"^OnOffSource\.name: '' " + NOT + r"a non-empty string\)"),
    # --- Python: markers and traffic --------------------------------------------------------------
    P("marker-kind-unknown", MARK, 'Marker(name="m", kind="leaky", cir_bps=1e6, cbs_bytes=1e4, flows=(0,))', r"^Marker\.kind: 'leaky' " + NOT + r"one of 'token_bucket', 'tsw2cm'"),
    P("marker-no-members", MARK, 'Marker(name="m", kind="token_bucket", cir_bps=1e6, cbs_bytes=1e4)', r"^Marker\.flows: \(\) " + NOT + r"at least one flow"),
    P("marker-member-twice", MARK, 'Marker(name="m", kind="token_bucket", cir_bps=1e6, cbs_bytes=1e4, flows=(0, 0))', r"^Marker\.flows: \(0, 0\) " + NOT + r"indices without repeats\)"),
    P("marker-cir-negative", MARK, 'Marker(name="m", kind="token_bucket", cir_bps=-1, cbs_bytes=1e4, flows=(0,))', r"^Marker\.cir_bps: -1\.0 " + NOT + r"a number > 0\)"),
    P("marker-cir-none", MARK, 'Marker(name="m", kind="token_bucket", cir_bps=None, cbs_bytes=1e4, flows=(0,))', r"^Marker\.cir_bps: None " + NOT + r"a number > 0\)"),
    P("marker-flows-scalar", MARK, 'Marker(name="m", kind="token_bucket", cir_bps=1e6, cbs_bytes=1e4, flows=5)', r"^Marker\.flows: 5 " + NOT + r"a sequence of indices\)"),
    P("marker-cbs-zero", MARK, 'Marker(name="m", kind="token_bucket", cir_bps=1e6, cbs_bytes=0, flows=(0,))', r"^Marker\.cbs_bytes: 0\.0 " + NOT + r"a number > 0\)"),
    P("marker-trtcm-without-pir", MARK, 'Marker(name="m", kind="trtcm", cir_bps=1e6, cbs_bytes=1e4, flows=(0,))', r"^Marker\.pir_bps: None " + NOT + r"a number >= cir_bps \(1000000\.0\) for kind 'trtcm'\)"),
    P("marker-pir-below-cir", MARK, 'Marker(name="m", kind="tsw3cm", cir_bps=1e6, pir_bps=5e5, cbs_bytes=1e4, flows=(0,))', r"^Marker\.pir_bps: 500000\.0 " + NOT + r"a number >= cir_bps \(1000000\.0\)"),
    P("marker-srtcm-without-ebs", MARK, 'Marker(name="m", kind="srtcm", cir_bps=1e6, cbs_bytes=1e4, flows=(0,))', r"^Marker\.pbs_bytes: None " + NOT + r"a number >= 0 \(the excess burst size, EBS\) for kind 'srtcm'\)"),
    P("marker-balancing-without-b1", MARK, 'Marker(name="m", kind="balancing", cir_bps=1e6, cbs_bytes=1e4, flows=(0,))', r"^Marker\.b1_bytes: None " + NOT + r"a number > 0 \(each connection's first bucket\) for kind 'balancing'\)"),
    P("marker-small-window-wrong-kind", MARK, 'Marker(name="m", kind="token_bucket", cir_bps=1e6, cbs_bytes=1e4, flows=(0,), small_window_pkts=3)', r"^Marker\.small_window_pkts: 3 " + NOT + r"None for kind 'token_bucket'"),
    P("marker-colour-aware-wrong-kind", MARK, 'Marker(name="m", kind="token_bucket", cir_bps=1e6, cbs_bytes=1e4, flows=(0,), colour_aware=True)', r"^Marker\.colour_aware: True " + NOT + r"False for kind 'token_bucket'"),
    P("marker-ref-rtt-wrong-kind", MARK, 'Marker(name="m", kind="tsw2cm", cir_bps=1e6, cbs_bytes=1e4, flows=(0,), ref_rtt_s=0.1)', r"^Marker\.ref_rtt_s: 0\.1 " + NOT + r"None for kind 'tsw2cm'"),
    P("marker-w-hi-below-w-lo", MARK, 'Marker(name="m", kind="token_bucket", cir_bps=1e6, cbs_bytes=1e4, flows=(0,), w_lo=2, w_hi=1)', r"^Marker\.w_hi: 1\.0 " + NOT + r"a number > w_lo \(2\.0\)\)"),
    P("marker-window-zero", MARK, 'Marker(name="m", kind="tsw2cm", cir_bps=1e6, cbs_bytes=1e4, flows=(0,), window_s=0)', r"^Marker\.window_s: 0\.0 " + NOT + r"a number > 0\)"),
    P("traffic-poisson-no-rate", MARK, 'Traffic(name="w", flow=TcpFlow(), size_set_pkts=(10,))', r"^Traffic\.mean_interarrival_s: None " + NOT + r"a number > 0 for kind 'poisson'\)"),
    P("traffic-kind-unknown", MARK, 'Traffic(name="w", flow=TcpFlow(), kind="burst")', r"^Traffic\.kind: 'burst' " + NOT + r"one of 'poisson', 'sessions', 'web'\)"),
    P("traffic-no-sizes", MARK, 'Traffic(name="w", flow=TcpFlow(), mean_interarrival_s=0.1)', r"^Traffic\.size_set_pkts: \(\) " + NOT + r"1\.\.32 transfer sizes in packets for size_dist 'set'\)"),
    P("traffic-sizes-scalar", MARK, 'Traffic(name="w", flow=TcpFlow(), mean_interarrival_s=0.1, size_set_pkts=5)', r"^Traffic\.size_set_pkts: 5 " + NOT + r"1\.\.32 transfer sizes"),
    P("traffic-size-dist-unknown", MARK, 'Traffic(name="w", flow=TcpFlow(), mean_interarrival_s=0.1, size_dist="zipf")', r"^Traffic\.size_dist: 'zipf' " + NOT + r"one of 'set', 'exponential', 'pareto', 'paretoII'\)"),
    P("traffic-pareto2-infinite-mean", MARK, 'Traffic(name="w", flow=TcpFlow(), mean_interarrival_s=0.1, size_dist="paretoII", size_alpha=1.0)', r"^Traffic\.size_alpha: 1\.0 " + NOT + r"a number > 1 for size_dist 'paretoII'"),
    P("traffic-size-bounds-backwards", MARK, 'Traffic(name="w", flow=TcpFlow(), mean_interarrival_s=0.1, size_dist="pareto", size_min_pkts=10, size_max_pkts=5)', r"^Traffic\.size_max_pkts: 5\.0 " + NOT + r"a number > size_min_pkts \(10\.0\)\)"),
    P("traffic-pool-zero", MARK, 'Traffic(name="w", flow=TcpFlow(), mean_interarrival_s=0.1, size_set_pkts=(10,), pool=0)', r"^Traffic\.pool: 0 " + NOT + r"an integer in 1\.\.60000\)"),
    P("traffic-first-start-poisson", MARK, 'Traffic(name="w", flow=TcpFlow(), mean_interarrival_s=0.1, size_set_pkts=(10,), first_start_s=1.0)', r"^Traffic\.first_start_s: 1\.0 " + NOT + r"None unless kind is 'sessions'\)"),
    P("traffic-telnet-template", MARK, 'Traffic(name="w", flow=TcpFlow(telnet_interval_s=1.0), mean_interarrival_s=0.1, size_set_pkts=(10,))', r"^Traffic\.flow\.telnet_interval_s: 1\.0 " + NOT + r"None: a transfer is bulk data"),
    P("traffic-flow-not-a-flow", MARK, 'Traffic(name="w", flow=3, mean_interarrival_s=0.1, size_set_pkts=(10,))', r"^Traffic\.flow: 3 " + NOT + r"a TcpFlow or a dict of its fields\)"),
    P("traffic-template-typo", MARK, 'Traffic(name="w", flow={"segmnt_bytes": 536}, mean_interarrival_s=0.1, size_set_pkts=(10,))', r"^Traffic\.flow\.segmnt_bytes: unknown field of TcpFlow \(did you mean 'segment_bytes'\?"),
    # --- Python: Scenario ---------------------------------------------------------------------------
    P("scenario-no-links", SCEN, "Scenario(links=(), flows=(TcpFlow(),), duration_s=1)", r"^links: \[\] " + NOT + r"at least one Link\)"),
    P("scenario-no-traffic", SCEN, "Scenario(links=(Link(1e6),), duration_s=1)", r"^flows: \[\] " + NOT + r"at least one TcpFlow, or an OnOffSource"),
    P("scenario-rate-slot-clock", SCEN, "Scenario(links=(Link(1e6), Link(1e15)), flows=(TcpFlow(),), duration_s=60)", r"^links\[1\]\.rate_bps: 1000000000000000\.0 " + NOT + r"a number > 0 and at most 3\.298e\+11 b/s, so that duration_s 60 is fewer than 2\^32 slots"),
    P("scenario-slot-s-clock", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=60, slot_s=1e-12)", r"^slot_s: 1e-12 " + NOT + r"a number >= 1\.397e-08 s, so that duration_s 60 is fewer than 2\^32 slots"),
    P("scenario-duration-zero", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=0)", r"^duration_s: 0\.0 " + NOT + r"a number > 0\)"),
    P("scenario-duration-nan", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=math.nan)", r"^duration_s: nan " + NOT + r"a finite number > 0\)"),
    P("scenario-duration-string", SCEN, 'Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s="1")', r"^duration_s: '1' " + NOT + r"a number > 0\)"),
    P("scenario-duration-none", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=None)", r"^duration_s: None " + NOT + r"a number > 0\)"),
    P("scenario-warmup-too-long", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, warmup_s=1)", r"^warmup_s: 1\.0 " + NOT + r"a number >= 0 and < duration_s \(1\.0\)\)"),
    P("scenario-slot-zero", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, slot_s=0)", r"^slot_s: 0\.0 " + NOT + r"None \(engine's choice\) or a number > 0\)"),
    P("scenario-rto-bounds-backwards", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, min_rto_s=1, max_rto_s=0.5)", r"^max_rto_s: 0\.5 " + NOT + r"a number >= min_rto_s \(1\.0\)\)"),
    P("scenario-init-rto-zero", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, init_rto_s=0)", r"^init_rto_s: 0\.0 " + NOT + r"a number > 0\)"),
    P("scenario-interval-too-long", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, interval_s=2)", r"^interval_s: 2\.0 " + NOT + r"None or a number > 0 and <= duration_s \(1\.0\)\)"),
    P("scenario-tie-break-unknown", SCEN, 'Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, tie_break="fifo")', r"^tie_break: 'fifo' " + NOT + r"one of 'random', 'index'\)"),
    P("scenario-trace-unknown-flow", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, trace_flows=(5,), trace_interval_s=0.1)", r"^trace_flows\[0\]: 5 " + NOT + r"a flow index in 0\.\.0\)"),
    P("scenario-trace-no-interval", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, trace_flows=(0,))", r"^trace_interval_s: None " + NOT + r"a number > 0 and <= duration_s \(1\.0\)\)"),
    P("scenario-trace-too-fine", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, trace_flows=(0,), trace_interval_s=1e-9)", r"^trace_interval_s: 1e-09 " + NOT + r"a sampling interval giving at most 100000 samples"),
    P("scenario-trace-too-big", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),) * 50, duration_s=100, trace_flows=tuple(range(50)), trace_interval_s=0.01)", r"^trace_flows: \(0, 1, .* " + NOT + r"traces of at most 1600000 bytes per replica \(this one: 2000200;"),
    P("scenario-queue-trace-too-fine", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, queue_trace_interval_s=1e-9)", r"^queue_trace_interval_s: 1e-09 " + NOT + r"a sampling interval giving at most 100000 samples"),
    P("scenario-queue-trace-too-big", SCEN, "Scenario(links=(Link(1e6),) * 3, flows=(TcpFlow(),), duration_s=100, queue_trace_interval_s=0.01)", r"^queue_trace_interval_s: 0\.01 " + NOT + r"traces of at most 1600000 bytes per replica \(this one: 1920192;"),
    P("scenario-queue-trace-unknown-link", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, queue_trace_interval_s=0.1, queue_trace_links=(1,))", r"^queue_trace_links\[0\]: 1 " + NOT + r"a link index in 0\.\.0\)"),
    P("scenario-queue-trace-links-without-interval", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, queue_trace_links=(0,))", r"^queue_trace_links: \(0,\) " + NOT + r"None without queue_trace_interval_s\)"),
    P("scenario-param-not-scalar", SCEN, 'Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, params={"x": [1, 2]})', r"^params\['x'\]: \[1, 2\] " + NOT + r"a plain scalar"),
    P("scenario-params-not-a-dict", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, params=[1])", r"^params: \[1\] " + NOT + r"a dict\)"),
    P("scenario-route-missing-link", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(route=(1,)),), duration_s=1)", r"^flows\[0\]\.route\[0\]: 1 " + NOT + r"a link index in 0\.\.0\)"),
    P("scenario-class-not-on-link", SCEN, 'Scenario(links=(Link(1e6),), flows=(TcpFlow(cls="af"),), duration_s=1)', r"^flows\[0\]\.cls: 'af' " + NOT + r"a class of every link of the route; link 0 has 'be'\)"),
    P("scenario-start-after-end", SCEN, "Scenario(links=(Link(1e6),), flows=(TcpFlow(start_s=2),), duration_s=1)", r"^flows\[0\]\.start_s: 2\.0 " + NOT + r"a number >= 0 and < duration_s \(1\.0\)\)"),
    P("scenario-buffer-below-a-packet", SCEN, 'Scenario(links=(Link(1e6, classes=(QueueClass("be", limit_bytes=100),)),), flows=(TcpFlow(),), duration_s=1)', r"^links\[0\]\.classes\[0\]\.limit_bytes: 100 " + NOT + r"an integer >= 576: one packet of flows\[0\]"),
    P("scenario-marker-off-route", SCEN, 'Scenario(links=(Link(1e6), Link(1e6)), flows=(TcpFlow(),), duration_s=1, markers=(Marker(name="m", kind="token_bucket", cir_bps=1e5, cbs_bytes=1e4, link=1, flows=(0,)),))', r"^markers\[0\]\.link: 1 " + NOT + r"a link on the route \(or route2\) of flows\[0\] \(0,\)\)"),
    P("scenario-marker-unknown-flow", SCEN, 'Scenario(links=(Link(1e6),), flows=(TcpFlow(),), duration_s=1, markers=(Marker(name="m", kind="token_bucket", cir_bps=1e5, cbs_bytes=1e4, flows=(3,)),))', r"^markers\[0\]\.flows\[0\]: 3 " + NOT + r"a flow index in 0\.\.0\)"),
    P("scenario-traffic-same-name", SCEN, 'Scenario(links=(Link(1e6),), duration_s=1, traffic=(Traffic(name="w", flow=TcpFlow(), mean_interarrival_s=0.1, size_set_pkts=(10,)),) * 2)', r"^traffic\[1\]\.name: 'w' " + NOT + r"a name no other traffic has\)"),
    P("scenario-traffic-stop-after-end", SCEN, 'Scenario(links=(Link(1e6),), duration_s=1, traffic=(Traffic(name="w", flow=TcpFlow(), mean_interarrival_s=0.1, size_set_pkts=(10,), t_stop_s=2),))', r"^traffic\[0\]\.t_stop_s: 2\.0 " + NOT + r"a number > 0 and <= duration_s \(1\.0\)"),
    P("from-dict-field-typo", SCEN, 'Scenario.from_dict({"links": [{"rate_bps": 1e6}], "flows": [{}], "duraton_s": 1})', r"^duraton_s: unknown field of Scenario \(did you mean 'duration_s'\?"),
    P("from-dict-no-duration", SCEN, 'Scenario.from_dict({"links": [{"rate_bps": 1e6}], "flows": [{}]})', r"^duration_s: missing \(required field of Scenario\)"),
    P("from-dict-flow-field-typo", SCEN, 'Scenario.from_dict({"links": [{"rate_bps": 1e6}], "flows": [{"segmnt_bytes": 536}], "duration_s": 1})', r"^flows\[0\]\.segmnt_bytes: unknown field of TcpFlow \(did you mean 'segment_bytes'\?"),
    P("from-dict-source-no-peak", SCEN, 'Scenario.from_dict({"links": [{"rate_bps": 1e6}], "sources": [{"t_on_ms": 1, "t_off_ms": 1}], "duration_s": 1})', r"^sources\[0\]\.peak_bps: missing \(required field of OnOffSource\)"),
    P("from-dict-flow-variant", SCEN, 'Scenario.from_dict({"links": [{"rate_bps": 1e6}], "flows": [{"variant": "cubic"}], "duration_s": 1})', r"^flows\[0\]\.variant: 'cubic' " + NOT + r"one of 'reno', 'newreno', 'sack'\)"),
    P("from-dict-not-a-dict", SCEN, "Scenario.from_dict([1, 2])", r"^scenario: \[1, 2\] " + NOT + r"a dict\)"),
    # --- Python: Grid, run, load ----------------------------------------------------------------
    P("grid-builder-not-callable", GRID, "Grid(42)", r"^builder: 42 " + NOT + r"a callable returning a Scenario\)"),
    P("grid-seeds-zero", GRID, "Grid(kaur_vin, seeds=0)", r"^seeds: 0 " + NOT + r"an integer >= 1 \(seeds 0\.\.n-1\)"),
    P("grid-seeds-empty", GRID, "Grid(kaur_vin, seeds=[])", r"^seeds: \[\] " + NOT),
    P("grid-seeds-repeated", GRID, "Grid(kaur_vin, seeds=[1, 1])", r"^seeds\[1\]: 1 " + NOT + r"a seed not already in the list\)"),
    P("grid-seed-fraction", GRID, "Grid(kaur_vin, seeds=[0, 1.5])", r"^seeds\[1\]: 1\.5 " + NOT + r"an integer in 0\.\."),
    P("grid-seeds-string", GRID, 'Grid(kaur_vin, seeds="3")', r"^seeds: '3' " + NOT),
    P("grid-seeds-bool", GRID, "Grid(kaur_vin, seeds=True)", r"^seeds: True " + NOT),
    P("grid-unknown-parameter", GRID, "Grid(kaur_vin, t_onms=[1.0, 2.0])", r"^t_onms: not a parameter of kaur_vin \(did you mean 't_on_ms'\?\); kaur_vin accepts: n_flows"),
    P("grid-seed-parameter", GRID, "Grid(kaur_vin, seed=3)", r"^seed: 3 is not allowed here \(expected seeds=\.\.\."),
    P("grid-empty-axis", GRID, "Grid(kaur_vin, t_on_ms=[])", r"^t_on_ms: \[\] " + NOT + r"at least one value on this axis\)"),
    P("grid-duplicate-value", GRID, "Grid(kaur_vin, t_on_ms=[4, 4.0])", r"^t_on_ms\[1\]: duplicate value 4\.0 \(same as t_on_ms\[0\]\)"),
    P("grid-bad-point", GRID, "Grid(kaur_vin, n_flows=[1, 2], t_on_ms=[1.0, -1.0])", r"^t_on_ms: -1\.0 " + NOT + r"a number > 0\) \(grid point 1: n_flows=1, t_on_ms=-1\.0; seed 0\)$"),
    P("grid-max-points-zero", GRID, "Grid(kaur_vin, t_on_ms=[4], max_points=0)", r"^max_points: 0 " + NOT + r"an integer >= 1, or None for no limit\)"),
    P("grid-above-max-points", GRID, "Grid(kaur_vin, t_on_ms=[1, 2, 3], max_points=2)", r"^grid: 3 points \(t_on_ms 3\) is above the limit of 2 points"),
    P("grid-zip-not-groups", GRID, 'Grid(kaur_vin, zip_axes="rtp_ms")', r"^zip_axes: 'rtp_ms' " + NOT + r"a list of \{name: \[values\]\} mappings"),
    P("grid-zip-unequal", GRID, 'Grid(kaur_vin, zip_axes=[{"rtp_ms": [6.0, 8.0], "buffer_bytes": [30000]}])', r"^zip_axes\[0\]: lists of unequal length \(rtp_ms: 2, buffer_bytes: 1\)"),
    P("grid-zip-seed", GRID, 'Grid(kaur_vin, zip_axes=[{"seed": [1, 2]}])', r"^zip_axes\[0\]\.seed: not allowed \(expected seeds=\.\.\."),
    P("grid-zip-also-fixed", GRID, 'Grid(kaur_vin, rtp_ms=8.0, zip_axes=[{"rtp_ms": [6.0], "buffer_bytes": [30000]}])', r"^zip_axes\[0\]\.rtp_ms: also given as a parameter"),
    P("grid-zip-scalar", GRID, 'Grid(kaur_vin, zip_axes=[{"rtp_ms": 6.0, "buffer_bytes": [30000]}])', r"^zip_axes\[0\]\.rtp_ms: 6\.0 " + NOT + r"a list of values \(zipped parameters move together"),
    P("grid-zip-empty-group", GRID, "Grid(kaur_vin, zip_axes=[{}])", r"^zip_axes\[0\]: \{\} " + NOT + r"at least one parameter name\)"),
    P("grid-zip-name-not-string", GRID, "Grid(kaur_vin, zip_axes=[{1: [1]}])", r"^zip_axes\[0\]: 1 " + NOT + r"parameter names \(strings\)\)"),
    P("grid-builder-returns-dict", GRID, 'Grid(lambda x=1: {"x": x})', r"^builder: returned dict for grid point 0: \(expected a Scenario\)|^builder: returned dict for grid point 0 \(expected a Scenario\)"),
    P("grid-point-out-of-range", GRID, "grid.scenario(5, 0)", r"^point: 5 " + NOT + r"an integer in 0\.\.0\)"),
    P("grid-point-fraction", GRID, "grid.scenario(0.5, 0)", r"^point: 0\.5 " + NOT + r"an integer in 0\.\.0\)"),
    P("grid-seed-negative", GRID, "grid.scenario(0, -1)", r"^seed: -1 " + NOT + r"an integer in 0\.\."),
    P("py-run-not-a-grid", GRID, "run(None)", r"^grid: None " + NOT + r"a diffsweep\.Grid, a SweepConfig"),
    P("py-run-missing-sweep-file", GRID, 'run(str(DIR / "missing.toml"))', r"missing\.toml: sweep file not found"),
    P("py-run-backend-unknown", GRID, 'run(grid, backend="gpu")', r"^backend: 'gpu' " + NOT + r"one of auto, cpu, cuda, cuda\+cpu\)"),
    P("auto-model-bad-key", GRID, 'with_env("DIFFSWEEP_AUTO_MODEL", "cpu_us=1", backend_choice.model)', r"^DIFFSWEEP_AUTO_MODEL: 'cpu_us=1' " + NOT + r"key=value pairs separated by commas, keys among cpu_us_per_slot, cuda_slot_us, cuda_slots_per_s"),
    P("auto-model-zero", GRID, 'with_env("DIFFSWEEP_AUTO_MODEL", "cuda_slot_us=0", backend_choice.model)', r"^DIFFSWEEP_AUTO_MODEL: 'cuda_slot_us=0' " + NOT + r"key=value pairs .*each value a number > 0\)"),
    P("py-run-chunk-size-zero", GRID, "run(grid, chunk_size=0)", r"^chunk_size: 0 " + NOT + r"an integer >= 1\)"),
    P("py-run-threads-negative", GRID, "run(grid, threads=-1)", r"^threads: -1 " + NOT + r"an integer from 0 \(all cores\) to 1024\)"),
    P("py-run-memory-budget-zero", GRID, "run(grid, memory_budget_bytes=0)", r"^memory_budget_bytes: 0 " + NOT + r"an integer >= 1\)"),
    P("py-run-table-typo", GRID, 'run(grid, tables=["flow"])', r"^tables: 'flow' " + NOT + r"names among replicas, flows"),
    P("py-run-target-ci-negative", GRID, "run(grid, target_ci=-1)", r"^target_ci: -1 " + NOT + r"a finite number > 0"),
    P("py-run-target-metric-typo", GRID, 'run(grid, target_ci=0.1, target_metric="tcp_goodput")', r"^target_metric: 'tcp_goodput' is not a metric nor a column of the replicas table \(did you mean 'tcp_goodput_bps'\?\)"),
    P("py-run-max-seeds-one", GRID, "run(grid, target_ci=0.1, max_seeds=1)", r"^max_seeds: 1 " + NOT + r"an integer >= 2\)"),
    P("py-run-ci-level-above-one", GRID, "run(grid, target_ci=0.1, ci_level=1.5)", r"^ci_level: 1\.5 " + NOT + r"0 < level < 1\)"),
    P("py-run-store-is-a-file", GRID, 'run(grid, store=DIR / "ok.toml")', r"^DIR/ok\.toml: exists and is not a folder; choose another output folder"),
    P("py-run-store-not-empty", GRID, 'run(grid, store=DIR / "nonempty")', r"^DIR/nonempty: the folder is not empty \(notes\.txt\) and has no manifest\.json"),
    P("py-run-store-other-sweep", GRID, 'run(grid, store=DIR / "folder")', r"^DIR/folder: this folder holds results of another sweep \('tiny', config hash HASH\)"),
    P("load-missing-folder", GRID, 'load(DIR / "nowhere")', r"^DIR/nowhere: no such results folder"),
    P("load-a-file", GRID, 'load(DIR / "ok.toml")', r"^DIR/ok\.toml: is a file, not a results folder"),
    P("load-no-manifest", GRID, 'load(DIR / "empty")', r"^DIR/empty: not a diffsweep results folder \(no manifest\.json\)"),
    P("load-unreadable-manifest", GRID, 'load(DIR / "junk")', r"^DIR/junk/manifest\.json: unreadable manifest \(.*\); the folder cannot be used"),
    P("load-manifest-without-hash", GRID, 'load(DIR / "nohash")', r"^DIR/nohash/manifest\.json: not a diffsweep manifest \(no config_hash\)"),
    P("load-sweep-not-utf8", GRID, 'load_sweep(DIR / "latin1.toml")', r"^DIR/latin1\.toml: not UTF-8 text"),
    P("load-sweep-quick-missing", GRID, 'load_sweep(DIR / "ok.toml", quick=True)', r"^quick: the sweep file has no \[quick\] section"),
    P("load-sweep-seeds-override", GRID, 'load_sweep(DIR / "ok.toml", seeds=[2, 2])', r"^seeds \(override\): \[2, 2\] " + NOT + r".*seed 2 appears twice"),
    # --- command line: run --------------------------------------------------------------------------
    C("run-file-missing", RUN, "run DIR/missing.toml --out DIR/out", r"DIR/missing\.toml: sweep file not found"),
    C("run-file-is-a-folder", RUN, "run DIR/empty --out DIR/out", r"DIR/empty: cannot read the sweep file \(Is a directory\)"),
    C("run-file-not-utf8", RUN, "run DIR/latin1.toml --out DIR/out", r"DIR/latin1\.toml: not UTF-8 text"),
    C("run-seeds-zero", RUN, "run DIR/ok.toml --out DIR/out --seeds 0", r"seeds \(override\): 0 " + NOT + r"an integer >= 1"),
    C("run-quick-without-section", RUN, "run DIR/ok.toml --out DIR/out --quick", r"quick: the sweep file has no \[quick\] section, so --quick cannot be used"),
    C("run-chunk-size-zero", RUN, "run DIR/ok.toml --out DIR/out --chunk-size 0", r"--chunk-size: 0 is not allowed \(expected an integer >= 1\)"),
    C("run-threads-negative", RUN, "run DIR/ok.toml --out DIR/out --threads -1", r"threads: -1 " + NOT + r"an integer from 0 \(all cores\) to 1024\)"),
    C("run-target-ci-negative", RUN, "run DIR/ok.toml --out DIR/out --target-ci -1", r"--target-ci: -1\.0 is not allowed \(expected a finite number > 0: a frac"),
    C("run-target-ci-nan", RUN, "run DIR/ok.toml --out DIR/out --target-ci nan", r"--target-ci: nan is not allowed \(expected a finite number > 0: a fract"),
    C("run-target-ci-inf", RUN, "run DIR/ok.toml --out DIR/out --target-ci inf", r"--target-ci: inf is not allowed \(expected a finite number > 0: a fract"),
    C("run-target-metric-typo", RUN, "run DIR/ok.toml --out DIR/out --target-ci 0.1 --target-metric goodput", r"target_metric: 'goodput' is not a metric nor a column of the replicas table"),
    C("run-max-seeds-one", RUN, "run DIR/ok.toml --out DIR/out --target-ci 0.1 --max-seeds 1", r"--max-seeds: 1 is not allowed \(expected an integer >= 2\)"),
    C("run-seeds-per-round-zero", RUN, "run DIR/ok.toml --out DIR/out --target-ci 0.1 --seeds-per-round 0", r"--seeds-per-round: 0 is not allowed \(expected an integer >= 1\)"),
    C("run-out-is-a-file", RUN, "run DIR/ok.toml --out DIR/ok.toml", r"DIR/ok\.toml: exists and is not a folder; choose another output folder"),
    C("run-out-under-a-file", RUN, "run DIR/ok.toml --out DIR/ok.toml/out", r"DIR/ok\.toml/out: cannot create the results folder \(Not a directory\); a part of the path is a file", code=1),
    C("run-out-not-empty", RUN, "run DIR/ok.toml --out DIR/nonempty", r"DIR/nonempty: the folder is not empty \(notes\.txt\) and has no manifest\.json, so it is not a diffsweep results folder"),
    C("run-out-other-sweep", RUN, "run DIR/ok.toml --out DIR/folder", r"DIR/folder: this folder holds results of another sweep \('tiny', config hash HASH\) than this run \('ok', config hash HASH\)"),
    C("run-out-bad-manifest", RUN, "run DIR/ok.toml --out DIR/junk", r"DIR/junk/manifest\.json: unreadable manifest"),
    C("run-seeds-not-a-number", RUN, "run DIR/ok.toml --out DIR/out --seeds ten", r"argument --seeds: invalid int value: 'ten'", argparse=True),
    C("run-backend-unknown", RUN, "run DIR/ok.toml --out DIR/out --backend gpu", r"argument --backend: invalid choice: 'gpu' \(choose from", argparse=True),
    C("run-memory-budget-words", RUN, "run DIR/ok.toml --out DIR/out --memory-budget lots", r"argument --memory-budget: 'lots' is not a size", argparse=True),
    C("run-memory-budget-zero", RUN, "run DIR/ok.toml --out DIR/out --memory-budget 0", r"argument --memory-budget: '0' is not a positive size", argparse=True),
    C("run-no-out", RUN, "run DIR/ok.toml", r"the following arguments are required: --out", argparse=True),
    C("run-unknown-option", RUN, "run DIR/ok.toml --out DIR/out --sed 3", r"unrecognized arguments: --sed 3", argparse=True),
    # --- command line: reproduce, demo -------------------------------------------------------------
    C("reproduce-unknown-paper", REPRO, "reproduce nobody --out DIR/r", r"argument paper: invalid choice: 'nobody' \(choose from", argparse=True),
    C("reproduce-unknown-figure", REPRO, "reproduce kaur-vin --figure 1 --out DIR/r", r"--figure: \['1'\] " + NOT + r"some of 2, 3"),
    C("reproduce-out-is-a-file", REPRO, "reproduce kaur-vin --figure 2 --out DIR/ok.toml", r"--out: DIR/ok\.toml is a file, not a folder \(expected a folder for the ", code=2),
    C("reproduce-seeds-not-a-number", REPRO, "reproduce kaur-vin --seeds x --out DIR/r", r"argument --seeds: invalid int value: 'x'", argparse=True),
    C("reproduce-backend-unknown", REPRO, "reproduce kaur-vin --backend gpu --out DIR/r", r"argument --backend: invalid choice: 'gpu'", argparse=True),
    C("demo-seeds-zero", REPRO, "demo --seeds 0", r"--seeds: 0 " + NOT + r"an integer from 1 to 250,000"),
    C("demo-duration-negative", REPRO, "demo --duration-s -2", r"--duration-s: -2\.0 " + NOT + r"a number of seconds > 0\)"),
    C("demo-duration-nan", REPRO, "demo --duration-s nan", r"--duration-s: nan " + NOT + r"a number of seconds > 0\)"),
    C("demo-duration-inf", REPRO, "demo --duration-s inf", r"--duration-s inf: duration_s: inf " + NOT + r"a finite number > 0\)"),
    C("no-command", REPRO, "", r"the following arguments are required: cmd", argparse=True),
    C("unknown-command", REPRO, "frobnicate", r"argument cmd: invalid choice: 'frobnicate'", argparse=True),
    # --- command line: show, plot, export --------------------------------------------------------------
    C("show-missing-folder", LOOK, "show DIR/nowhere", r"DIR/nowhere: no such results folder"),
    C("show-a-file", LOOK, "show DIR/ok.toml", r"DIR/ok\.toml: is a file, not a results folder"),
    C("show-no-manifest", LOOK, "show DIR/empty", r"DIR/empty: not a diffsweep results folder \(no manifest\.json\)"),
    C("show-unreadable-manifest", LOOK, "show DIR/junk", r"DIR/junk/manifest\.json: unreadable manifest"),
    C("show-manifest-without-hash", LOOK, "show DIR/nohash", r"DIR/nohash/manifest\.json: not a diffsweep manifest \(no config_hash\)"),
    C("show-metric-typo", LOOK, "show DIR/folder --metric goodput_bp", r"goodput_bp: not a metric nor a column of any table in the folder \(did you mean 'goodput_bps'\?"),
    C("show-metric-not-in-table", LOOK, "show DIR/folder --table queues --metric goodput_bps", r"goodput_bps: not a column of the queues table \(columns: "),
    C("show-metric-not-numeric", LOOK, "show DIR/folder --metric ef", r"--metric: 'ef' is not a metric \(a grid column: a parameter of the sweep"),
    C("show-table-unknown", LOOK, "show DIR/folder --table flow", r"argument --table: invalid choice: 'flow'", argparse=True),
    C("show-rows-not-a-number", LOOK, "show DIR/folder --rows many", r"argument --rows: invalid int value: 'many'", argparse=True),
    C("plot-missing-folder", LOOK, "plot DIR/nowhere --x a --y b", r"DIR/nowhere: no such results folder"),
    C("plot-x-unknown", LOOK, "plot DIR/folder --x t_on --y goodput_bps", r"t_on: not a column of the flows table \(did you mean 't_on_ms'\?\)"),
    C("plot-y-typo", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bp", r"goodput_bp: not a metric nor a column of any table in the folder \(did you mean 'goodput_bps'\?"),
    C("plot-y-not-numeric", LOOK, "plot DIR/folder --x t_on_ms --y variant", r"variant: not a numeric column of the flows table"),
    C("plot-hue-unknown", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --hue colour", r"colour: not a column of the flows table"),
    C("plot-out-under-a-file", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --hue ef --out DIR/ok.toml/fig.png", r"DIR/ok\.toml/fig\.png: cannot write the figure \(Not a directory\)", code=1),
    C("plot-no-y", LOOK, "plot DIR/folder --x t_on_ms", r"the following arguments are required: --y", argparse=True),
    C("plot-dpi-not-a-number", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --dpi high", r"argument --dpi: invalid int value: 'high'", argparse=True),
    C("export-missing-folder", LOOK, "export DIR/nowhere --format csv", r"DIR/nowhere: no such results folder"),
    C("export-no-manifest", LOOK, "export DIR/empty --format csv", r"DIR/empty: not a diffsweep results folder"),
    C("export-table-typo", LOOK, "export DIR/folder --format csv --tables flow --out DIR/x", r"tables: 'flow' " + NOT + r"names among replicas"),
    C("export-out-under-a-file", LOOK, "export DIR/folder --format csv --out DIR/ok.toml/x", r"DIR/ok\.toml/x: cannot write the csv files \(Not a directory\)", code=1),
    C("export-format-unknown", LOOK, "export DIR/folder --format xml", r"argument --format: invalid choice: 'xml'", argparse=True),
    C("export-no-format", LOOK, "export DIR/folder", r"the following arguments are required: --format", argparse=True),
    # --- issue 23, round two: inputs that crashed, hung or were silently wrong before ---------
    T("toml-seeds-ten-billion", TOP, "seeds = 10000000000", r"sweep 'bad': 10,000,000,000 replicas \(points x seeds\) is above the limit"),
    T("toml-duration-below-a-slot", TOP, "duration_s = 1e-300; warmup_s = 0", r"duration_s: 1e-300 is not allowed \(expected a number >= "),
    T("kv-t-on-below-a-microsecond", KV, "[fixed]; t_on_ms = 1e-300", r"fixed\.t_on_ms: 1e-300 is not allowed \(expected a number of milliseconds >= 0\.001"),
    T("kv-send-jitter-huge", KV, "[fixed]; send_jitter_s = 1e300", r"fixed\.send_jitter_s: 1e\+300 is not allowed \(expected a number of seconds in 0\.\.1"),
    T("kv-buffer-huge", KV, "[fixed]; buffer_bytes = 1e300", r"fixed\.buffer_bytes: \d+ is not allowed \(expected None or an integer in 1\.\.1073741822"),
    T("kv-rtp-beyond-the-engine", KV, "[fixed]; rtp_ms = 1e12", r"rtp_ms"),
    T("kv-access-buffer-zero", KV, "[fixed]; access_buffer_bytes = 0", r"fixed\.access_buffer_bytes: 0 is not allowed \(expected None \(= buffer_bytes\) or an integer in "),
    T("kv-access-buffer-negative", KV, "[fixed]; access_buffer_bytes = -1", r"fixed\.access_buffer_bytes: -1 is not allowed"),
    T("kv-link-rate-below-a-slot", KV, "[fixed]; link_rate_bps = 1e-300", r"duration_s: .* is not allowed \(expected a number >= .*one time slot"),
    T("habib-trace-string", HABIB, '[fixed]; trace = "no"', r"fixed\.trace: 'no' is not allowed \(expected true or false\)", builder="habib_2a"),
    P("grid-axis-two-dimensional", GRID, "Grid(scenarios.kaur_vin, t_on_ms=np.ones((2, 2)))", r"t_on_ms: 'an array of shape \(2, 2\)' is not allowed \(expected a 1-D array"),
    P("run-store-not-a-path", GRID, "run(grid, store=123, progress=False)", r"store: 123 is not allowed \(expected a folder path"),
    P("load-not-a-path", GRID, "load(123)", r"store: 123 is not allowed \(expected a folder path"),
    C("reproduce-threads-negative", REPRO, "reproduce kaur-vin --figure 2 --threads -1 --out DIR/r", r"--threads: -1 is not allowed \(expected an integer from 0 \(all cores\) to 1024\)"),
    C("builders-unknown-name", REPRO, "builders kaur_vn", r"builders: unknown builder 'kaur_vn' \(did you mean 'kaur_vin'\?\)"),
    C("builders-reference-typo", REPRO, "builders user_builders:two_rtt_dumbell", r"builders: \"user_builders:two_rtt_dumbell\": 'user_builders' has no attribute 'two_rtt_dumbell' \(did you mean 'two_rtt_dumbbell'\?\)"),
    C("builders-markdown-with-name", REPRO, "builders kaur_vin --markdown", r"--markdown: not allowed with NAME \('kaur_vin'\)"),
    C("show-rows-negative", LOOK, "show DIR/folder --rows -1", r"--rows: -1 is not allowed \(expected an integer >= 1\)"),
    C("plot-dpi-zero", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --dpi 0 --out DIR/p.png", r"--dpi: 0 is not allowed \(expected an integer from 10 to 1200\)"),
    C("plot-dpi-negative", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --dpi -5 --out DIR/p.png", r"--dpi: -5 is not allowed"),
    C("plot-dpi-huge", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --dpi 100000 --out DIR/p.png", r"--dpi: 100000 is not allowed"),
    C("plot-out-txt", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --out DIR/x.txt", r"--out: 'DIR/x\.txt' is not allowed \(expected a file name ending in \.png, \.pdf, \.svg\)"),
    C("plot-hue-is-x", LOOK, "plot DIR/folder --x ef --y goodput_bps --hue ef --out DIR/p.png", r"--hue: 'ef' is not allowed \(expected a column other than --x's"),
    # --- atlas (issue 25) ------------------------------------------------------------------
    C("atlas-unknown-paper", ATLAS, "atlas nobody C4", r"argument PAPER\|CLAIM: invalid choice: 'nobody'", argparse=True),
    C("atlas-no-claim", ATLAS, "atlas kaur-vin --axes send_jitter_s=0", r"claim: missing \(expected a claim id"),
    C("atlas-no-axes", ATLAS, "atlas kaur-vin C4", r"--axes: missing \(expected 1 to 3 NAME=VALUES"),
    C("atlas-unknown-claim", ATLAS, "atlas kaur-vin C9 --axes send_jitter_s=0 --out DIR/a", r"claim: 'C9' is not a claim of kaur-vin \(expected one of"),
    C("atlas-claim-not-mappable", ATLAS, "atlas kaur-vin K2.1 --axes send_jitter_s=0 --out DIR/a", r"claim: K2\.1 of kaur-vin declares no parameters to map over \(mappable claims of kaur-vin: C4, K5\.3"),
    C("atlas-axis-not-declared", ATLAS, "atlas kaur-vin C4 --axes n_flows=8,16 --out DIR/a", r"axes: 'n_flows' is not allowed for C4 \(expected one of send_jitter_s, buffer_bytes, tie_break\)"),
    C("atlas-axis-no-values", ATLAS, "atlas kaur-vin C4 --axes send_jitter_s --out DIR/a", r"--axes: 'send_jitter_s' is not allowed \(expected NAME=V1,V2"),
    C("atlas-axis-twice", ATLAS, "atlas kaur-vin C4 --axes send_jitter_s=0 send_jitter_s=1e-4 --out DIR/a", r"--axes: 'send_jitter_s' is given twice"),
    C("atlas-four-axes", ATLAS, "atlas kaur-vin C4 --axes a=1 b=1 c=1 d=1 --out DIR/a", r"axes: 4 given \(a, b, c, d\); an atlas has 1 to 3 axes"),
    C("atlas-value-out-of-range", ATLAS, "atlas kaur-vin C4 --axes send_jitter_s=0,0.5 --out DIR/a", r"axes\.send_jitter_s\[1\]: '0\.5' is not allowed \(expected a number in \[0, 0\.01\]"),
    C("atlas-value-not-a-number", ATLAS, "atlas kaur-vin C4 --axes buffer_bytes=big --out DIR/a", r"axes\.buffer_bytes\[0\]: 'big' is not allowed \(expected an integer in \[20000, 2000000\]"),
    C("atlas-choice-unknown", ATLAS, "atlas kaur-vin C4 --axes tie_break=fifo --out DIR/a", r"axes\.tie_break\[0\]: 'fifo' is not allowed \(expected one of 'index', 'random'"),
    C("atlas-log-range-bad", ATLAS, "atlas kaur-vin C4 --axes send_jitter_s=log:0:1e-3:4 --out DIR/a", r"axes\.send_jitter_s: 'log:0:1e-3:4' is not allowed \(expected log:LO:HI:N"),
    C("atlas-repeated-value", ATLAS, "atlas kaur-vin C4 --axes send_jitter_s=0,0.0 --out DIR/a", r"axes\.send_jitter_s: \[0\.0, 0\.0\] repeats a value"),
    C("atlas-too-many-cells", ATLAS, "atlas lee-jeong LT2.1 --axes rtt_spread=lin:0:3:21 cir_mbps=lin:1:9:21 --out DIR/a", r"axes: 441 cells \(21 x 21\); an atlas has at most 400"),
    C("atlas-builder-refuses-cell", ATLAS, "atlas kaur-vin K5.3 --axes n_flows=12 --quick --out DIR/a", r"n_flows: 12 is not allowed \(expected a multiple of k = 8.* \(atlas cell 0: n_flows=12; sweep k5_unequal_index\)"),
    C("atlas-max-seeds-below-first", ATLAS, "atlas lee-jeong LT2.1 --axes rtt_spread=1 --quick --max-seeds 2 --out DIR/a", r"max_seeds: 2 is not allowed \(expected an integer >= the first round's 4 seeds\)"),
    C("atlas-out-is-a-file", ATLAS, "atlas lee-jeong LT2.1 --axes rtt_spread=1 --quick --out DIR/ok.toml", r"--out: DIR/ok\.toml is a file, not a folder"),
    C("atlas-out-holds-other-things", ATLAS, "atlas lee-jeong LT2.1 --axes rtt_spread=1 --quick --out DIR/folder", r"--out: DIR/folder is not empty and holds no atlas \(atlas\.json\)"),
    C("atlas-threads-negative", ATLAS, "atlas lee-jeong LT2.1 --axes rtt_spread=1 --threads -1 --out DIR/a", r"--threads: -1 is not allowed \(expected an integer from 0 \(all cores\) to 1024\)"),
    P("atlas-python-axes-not-declared", ATLAS, "atlas('rossi', 'R5.1', {'buffer_pkts': [50]})", r"axes: 'buffer_pkts' is not allowed for R5\.1 \(expected one of rho, alpha_af, ftp_per_cloud, syn\)"),
    P("atlas-python-axes-empty", ATLAS, "atlas('rossi', 'R5.1', {})", r"axes: none given \(expected 1 to 3 NAME=VALUES\)"),
    C("plot-y-is-x", LOOK, "plot DIR/folder --x t_on_ms --y t_on_ms --out DIR/p.png", r"--y: 't_on_ms' is not allowed \(expected a measured column"),
    # --- grouping and filtering by the sweep's axes (issue 45) --------------------------------
    C("plot-pools-an-axis", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --out DIR/p.png", r"grouping by t_on_ms would pool the axis ef \(cbr, onoff\) into one interval over seeds .*--where AXIS=VALUE"),
    C("plot-facet-is-x", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --facet t_on_ms --out DIR/p.png", r"--facet: 't_on_ms' is not allowed \(expected an axis other than --x's and --hue's"),
    C("plot-y-is-facet", LOOK, "plot DIR/folder --x t_on_ms --y ef --facet ef --out DIR/p.png", r"--y: 'ef' is not allowed \(expected a measured column"),
    C("plot-where-axis-typo", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --where eff=cbr --out DIR/p.png", r"--where: 'eff' is not an axis or a column of the folder \(did you mean 'ef'\?\)"),
    C("plot-where-value-not-there", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --where ef=udp --out DIR/p.png", r"--where: ef=udp matches no row \(ef takes cbr, onoff\)"),
    C("plot-where-no-value", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --where ef --out DIR/p.png", r"--where: 'ef' is not allowed \(expected AXIS=VALUE"),
    C("plot-where-twice", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --where ef=cbr --where ef=onoff --out DIR/p.png", r"--where: 'ef' is given twice"),
    C("plot-facet-unknown", LOOK, "plot DIR/folder --x t_on_ms --y goodput_bps --facet buffer --out DIR/p.png", r"buffer: not a column of the flows table"),
    C("show-where-axis-typo", LOOK, "show DIR/folder --where t_on=1", r"--where: 't_on' is not an axis or a column of the folder \(did you mean 't_on_ms'\?\)"),
    C("show-where-value-not-there", LOOK, "show DIR/folder --where t_on_ms=2", r"--where: t_on_ms=2 matches no row \(t_on_ms takes 1, 10\)"),
    P("where-column-typo", GRID, 'load(DIR / "folder").where(t_on=1.0)', r"^where: no column 't_on' in any table \(did you mean 't_on_ms'\?\)"),
    P("where-value-not-there", GRID, 'load(DIR / "folder").where(t_on_ms=2.0)', r"^where: t_on_ms=2 matches no row \(t_on_ms takes 1, 10\)"),
    # --- issue 45: faults that were crashes or internal errors, and their kin ---------------
    C("run-threads-huge", RUN, "run DIR/ok.toml --out DIR/out --threads 1000000", r"--threads: 1000000 " + NOT + r"an integer from 0 \(all cores\) to 1024\)"),
    C("reproduce-threads-huge", REPRO, "reproduce kaur-vin --figure 2 --threads 5000 --out DIR/r", r"--threads: 5000 " + NOT + r"an integer from 0 \(all cores\) to 1024\)"),
    C("atlas-threads-huge", ATLAS, "atlas lee-jeong LT2.1 --axes rtt_spread=1 --threads 5000 --out DIR/a", r"--threads: 5000 " + NOT + r"an integer from 0 \(all cores\) to 1024\)"),
    P("py-run-threads-huge", GRID, "run(grid, threads=10**6)", r"^threads: 1000000 " + NOT + r"an integer from 0 \(all cores\) to 1024\)"),
    P("py-simulate-threads-huge", GRID, "simulate([grid.scenario(0, 0)], [0], threads=10**6)", r"^threads: 1000000 " + NOT),
    P("py-run-lanes-three", GRID, "run(grid, lanes=3)", r"^lanes: 3 " + NOT + r"None, or a power of two from 1 to 32"),
    P("py-simulate-lanes-fraction", GRID, "simulate([grid.scenario(0, 0)], [0], lanes=2.5)", r"^lanes: 2\.5 " + NOT + r"None, or a power of two"),
    C("run-scheduler-not-an-address", RUN, "run DIR/ok.toml --out DIR/out --scheduler notanaddress", r"--scheduler: 'notanaddress' " + NOT + r"a Dask scheduler address: tcp://HOST:PORT"),
    C("run-scheduler-empty", RUN, "run DIR/ok.toml --out DIR/out --scheduler ''", r"--scheduler: '' " + NOT + r"a Dask scheduler address"),
    C("run-scheduler-unknown-scheme", RUN, "run DIR/ok.toml --out DIR/out --scheduler ftp://host:1", r"--scheduler: 'ftp://host:1' " + NOT + r"a Dask scheduler address.*unknown address scheme 'ftp'"),
    P("py-run-client-is-an-address", GRID, "run(grid, client='tcp://127.0.0.1:8786')", r"^client: 'tcp://127\.0\.0\.1:8786' " + NOT + r"a distributed\.Client"),
    C("run-target-metric-grid-column", RUN, "run DIR/folder.toml --out DIR/out --target-ci 0.1 --target-metric t_on_ms", r"target_metric: 't_on_ms' is not a metric \(a grid column: a parameter of the sweep, the same for every seed\); expected a measured column of the replicas table: tcp_goodput_bps"),
    P("py-run-target-metric-seed", GRID, 'run(grid, target_ci=0.1, target_metric="seed")', r"^target_metric: 'seed' is not a metric \(an identifier of the rows\)"),
    C("show-metric-seed", LOOK, "show DIR/folder --metric seed", r"--metric: 'seed' is not a metric \(an identifier of the rows\); expected a measured column of the replicas table: .*tcp_goodput_bps"),
    C("show-metric-point", LOOK, "show DIR/folder --metric point", r"--metric: 'point' is not a metric \(an identifier of the rows\)"),
    C("show-metric-grid-column", LOOK, "show DIR/folder --metric t_off_ms", r"--metric: 't_off_ms' is not a metric \(a grid column: a parameter of the sweep, the same for every seed\)"),
    C("show-metric-flow-index", LOOK, "show DIR/folder --table flows --metric flow", r"--metric: 'flow' is not a metric \(an identifier of the rows\); expected a measured column of the flows table: .*goodput_bps"),
    C("plot-y-point", LOOK, "plot DIR/folder --x t_on_ms --y point --out DIR/p.png", r"--y: 'point' is not a metric \(an identifier of the rows\); expected a measured column of the replicas table: "),
    C("plot-y-seed", LOOK, "plot DIR/folder --x t_on_ms --y seed --out DIR/p.png", r"--y: 'seed' is not a metric \(an identifier of the rows\)"),
    C("plot-y-grid-column", LOOK, "plot DIR/folder --x t_on_ms --y ef_rate_bps --out DIR/p.png", r"--y: 'ef_rate_bps' is not a metric \(a grid column"),
    P("grid-builder-raises", GRID, "Grid(user_builder, rate_mbps=[40.0, 0.0])", r"^builder bad_inputs\.user_builder raised ZeroDivisionError at grid point 1 \(rate_mbps=0\.0, seed 0\): float division by zero$", exc="BuilderError"),
    P("grid-builder-seed-matters-raises", GRID, "Grid(user_builder_hook, rate_mbps=[40.0], seeds=2).scenario(0, 1)", r"^builder bad_inputs\.user_builder_hook\.seed_matters raised KeyError at grid point 0 \(rate_mbps=40\.0, seed 0\): 'nope'$", exc="BuilderError"),
    C("run-lock-damaged", RUN, "run DIR/ok.toml --out DIR/badlock", r"DIR/badlock: the lock file DIR/badlock/\.diffsweep\.lock is damaged \(not the JSON a run writes: 'garbage\{'\), so the run holding the folder cannot be named\. If no diffsweep run is writing into DIR/badlock, delete DIR/badlock/\.diffsweep\.lock or rerun with --break-lock"),
    T("toml-axis-values-same-slots", AXES, "[fixed]; link_rate_bps = 100e3; bottleneck_delay_ms = 0.25; [axes]; rtp_ms = [0.5, 8.0]", r"axes\.rtp_ms: 0\.5 and 8\.0 are the same point to the engine \(grid points 0 and 1: the flows' round trips \(0\.5 ms and 8 ms for flow 0\) both run as 46\.08 ms, whole slots of 46\.08 ms\); each point would be run twice"),
    C("run-dry-run-values-same-slots", RUN, "run DIR/sameslot.toml --out DIR/out --dry-run", r"axes\.rtp_ms: 0\.5 and 8\.0 are the same point to the engine"),
    P("py-run-values-same-slots", GRID, "run(Grid(kaur_vin, n_flows=1, duration_s=2.0, warmup_s=0.5, link_rate_bps=100e3, bottleneck_delay_ms=0.25, rtp_ms=[0.5, 30.0]))", r"^rtp_ms: 0\.5 and 30\.0 are the same point to the engine"),
    C("run-max-seeds-huge", RUN, "run DIR/ok.toml --out DIR/out --target-ci 0.1 --max-seeds 1000000000", r"max_seeds: 1000000000 " + NOT + r"an integer from 2 to 2,000,000: 1 point x max_seeds stays within 2,000,000 replicas; or force=True \(or --force\) to go ahead\)"),
    C("demo-seeds-huge", REPRO, "demo --seeds 1000000000000", r"--seeds: 1000000000000 " + NOT + r"an integer from 1 to 250,000: 8 points x seeds within 2,000,000 replicas\)"),
    C("run-lock-empty", RUN, "run DIR/ok.toml --out DIR/emptylock", r"DIR/emptylock: the lock file DIR/emptylock/\.diffsweep\.lock is damaged \(it is empty\)"),


    # --- sensitivity ---------------------------------------------------------------------
    C("sens-unknown-factor", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors t_onn_ms=1:2 --metric flows.goodput_bps", r"factors: 't_onn_ms' is not a parameter of builder kaur_vin \(did you mean 't_on_ms'\?\)"),
    C("sens-range-reversed", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors t_on_ms=400:0.4:log --metric flows.goodput_bps", r"factors\.t_on_ms: '400:0\.4:log' is not allowed \(expected LO < HI"),
    C("sens-range-empty", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:8 --metric flows.goodput_bps", r"factors\.rtp_ms: '8:8' is not allowed \(expected LO < HI"),
    C("sens-log-range-from-zero", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors send_jitter_s=0:1e-3:log --metric flows.goodput_bps", r"expected 0 < LO < HI for a log range"),
    C("sens-range-not-numbers", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:eighty --metric flows.goodput_bps", r"factors\.rtp_ms: '8:eighty' is not allowed \(expected LO:HI or LO:HI:log"),
    C("sens-one-level", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8 --metric flows.goodput_bps", r"factors\.rtp_ms: '8' is not allowed \(expected a range LO:HI or at least two levels"),
    C("sens-factor-twice", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 rtp_ms=8:20 --metric flows.goodput_bps", r"--factors: 'rtp_ms' is given twice"),
    C("sens-factor-is-seed", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors seed=0:9 --metric flows.goodput_bps", r"factors\.seed: 'seed' is not allowed \(the seeds are the replications"),
    C("sens-factor-also-set", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors n_flows=1,8 --metric flows.goodput_bps", r"--set: 'n_flows' is also a factor"),
    C("sens-factorial-three-levels", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors ef=cbr,onoff,none --method factorial --metric flows.goodput_bps", r"factors\.ef: 'cbr,onoff,none' is not allowed with --method factorial \(expected a range LO:HI or exactly two levels"),
    C("sens-unknown-set", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --set duraton_s=3 --metric flows.goodput_bps", r"--set: 'duraton_s' is not a parameter of builder kaur_vin \(did you mean 'duration_s'\?\)"),
    C("sens-unknown-builder", SENS, "sensitivity kaur_vn --factors rtp_ms=8:80 --metric flows.goodput_bps --out DIR/s", r"base: unknown builder 'kaur_vn' \(did you mean 'kaur_vin'\?"),
    C("sens-unknown-paper-metric", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --metric kaur-vin:los", r"metric: unknown metric 'kaur-vin:los' \(did you mean 'kaur-vin:loss'\?\)"),
    C("sens-unknown-table", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --metric flow.goodput_bps", r"metric: unknown table 'flow' in 'flow\.goodput_bps' \(did you mean 'flows'\?\)"),
    C("sens-unknown-column", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --metric flows.goodput", r"metric: 'flows.goodput': flows has no column 'goodput' measured by the engine \(did you mean 'goodput_bps'\?\)"),
    C("sens-unknown-aggregate", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --metric flows.goodput_bps:average", r"metric: 'flows\.goodput_bps:average': unknown aggregate 'average'"),
    C("sens-metric-needs-inner-axis", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --metric kaur-vin:loss", r"metric: kaur-vin:loss needs the inner axis ef = \['cbr', 'onoff'\]"),
    C("sens-metric-of-another-paper", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --metric habib:f1_f2_goodput_ratio", r"metric: habib:f1_f2_goodput_ratio is a number of habib's scenarios \(builders habib_2a\); the base's builder is kaur_vin"),
    C("sens-design-too-large", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 t_on_ms=0.4:400:log --n 4096 --max-replicas 10000 --metric flows.goodput_bps", r"design: 16,384 design points x 1 inner point\(s\) x 2 seeds = 32,768 replicas is above --max-replicas 10,000"),
    C("sens-sobol-n-not-power-of-two", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --n 100 --metric flows.goodput_bps", r"n: 100 is not allowed \(expected a power of 2 for sobol: .* 64 or 128\)"),
    C("sens-fraction-without-factorial", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --fraction 1 --metric flows.goodput_bps", r"fraction: 1 is not allowed with --method sobol"),
    C("sens-fraction-no-generators", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 t_on_ms=1:2 --method factorial --fraction 1 --metric flows.goodput_bps", r"fraction: 2\^\(2-1\) is not allowed \(designs with generators:"),
    C("sens-n-with-factorial", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --method factorial --n 8 --metric flows.goodput_bps", r"n: 8 is not allowed with --method factorial \(a 2\^\(k-p\) design has its runs"),
    C("sens-max-seeds-below-seeds", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --out DIR/s --factors rtp_ms=8:80 --seeds 4 --max-seeds 2 --target-ci 0.1 --metric flows.goodput_bps", r"max_seeds: 2 is not allowed \(expected an integer >= the first round's 4 seeds\)"),
    C("sens-out-is-a-file", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --factors rtp_ms=8:80 --metric flows.goodput_bps --out DIR/ok.toml", r"--out: DIR/ok\.toml is a file, not a folder \(expected a folder for the sensitivity study\)"),
    C("sens-out-holds-other-things", SENS, "sensitivity kaur_vin --set duration_s=1 warmup_s=0.1 n_flows=1 --factors rtp_ms=8:80 --metric flows.goodput_bps --out DIR/folder", r"--out: DIR/folder is not empty and holds no sensitivity study \(sensitivity\.json\)"),
    P("sens-python-constant-metric", SENS, "sensitivity(None, {'a': (0.0, 1.0), 'b': (0.0, 1.0)}, method='morris', function=lambda a, b: 2.0, log=None)", r"metric: <lambda> is constant \(2 at every design point and seed\): there is no variation"),
    P("sens-python-factor-range-tuple", SENS, "sensitivity('kaur_vin', {'rtp_ms': (80, 8)}, 'flows.goodput_bps')", r"factors\.rtp_ms: '\(80, 8\)' is not allowed \(expected LO < HI"),
    P("sens-python-no-factors", SENS, "sensitivity('kaur_vin', {}, 'flows.goodput_bps')", r"factors: none given"),
    # --- packet traces (issue 53): diffsweep trace, plot-trace, diffsweep.packet_trace -----
    C("trace-missing-source", TRACE, "trace DIR/nowhere --point 0 --seed 0 -o DIR/t.tr", r"DIR/nowhere: no such results folder or sweep file \(expected a folder of diffsweep run --out DIR, or a sweep \.toml file\)"),
    C("trace-not-a-results-folder", TRACE, "trace DIR/empty --point 0 --seed 0 -o DIR/t.tr", r"DIR/empty: not a diffsweep results folder \(no manifest\.json\)"),
    C("trace-point-out-of-range", TRACE, "trace DIR/folder --point 9 --seed 0 -o DIR/t.tr", r"--point: '9' " + NOT + r"a point of the sweep: 0\.\.3\)"),
    C("trace-point-not-a-number", TRACE, "trace DIR/folder --point first --seed 0 -o DIR/t.tr", r"--point: 'first' " + NOT + r"a point of the sweep: 0\.\.3\)"),
    C("trace-seed-not-in-grid", TRACE, "trace DIR/folder --point 0 --seed 5 -o DIR/t.tr", r"--seed: '5' " + NOT + r"one of the sweep's seeds: 0, 1\)"),
    C("trace-link-unknown", TRACE, "trace DIR/folder --point 0 --seed 0 --link 7 -o DIR/t.tr", r"--link: '7' " + NOT + r"a link index of point 0's scenario: 0\)"),
    C("trace-link-a-name", TRACE, "trace DIR/folder --point 0 --seed 0 --link bottleneck -o DIR/t.tr", r"--link: 'bottleneck' " + NOT + r"a link index of point 0's scenario"),
    C("trace-format-unknown", TRACE, "trace DIR/folder --point 0 --seed 0 --format pcapng -o DIR/t.tr", r"argument --format: invalid choice: 'pcapng'", argparse=True),
    C("trace-max-bytes-below-one-event", TRACE, "trace DIR/folder --point 0 --seed 0 --max-bytes 10 -o DIR/t.tr", r"--max-bytes: 10 " + NOT + r"an integer number of bytes >= 32, one event"),
    C("trace-until-not-positive", TRACE, "trace DIR/folder --point 0 --seed 0 --until-s 0 -o DIR/t.tr", r"--until-s: 0\.0 " + NOT + r"a time in seconds > 0"),
    C("trace-no-out", TRACE, "trace DIR/folder --point 0 --seed 0", r"the following arguments are required: -o/--out", argparse=True),
    C("trace-out-under-a-file", TRACE, "trace DIR/folder --point 0 --seed 0 -o DIR/ok.toml/t.tr", r"DIR/ok\.toml/t\.tr: cannot write the trace \(Not a directory\)", code=1),
    P("py-trace-seed-not-in-grid", TRACE, "packet_trace(DIR / 'folder', 0, 7)", r"^--seed: 7 " + NOT + r"one of the sweep's seeds: 0, 1\)"),
    P("py-trace-format-unknown", TRACE, "packet_trace(DIR / 'folder', 0, 0, fmt='tcpdump')", r"^--format: 'tcpdump' " + NOT + r"one of ns2, pcap\)"),
    P("py-trace-max-bytes-float", TRACE, "packet_trace(DIR / 'folder', 0, 0, max_event_bytes=1e6)", r"^max_event_bytes: 1000000\.0 " + NOT + r"an integer number of bytes"),
    C("plot-trace-missing-file", TRACE, "plot-trace DIR/none.tr", r"DIR/none\.tr: no such trace file"),
    C("plot-trace-not-a-trace", TRACE, "plot-trace DIR/ok.toml -o DIR/p.png", r"DIR/ok\.toml: line 1 is not an ns-2 trace line \(expected 12 fields"),
    C("plot-trace-out-txt", TRACE, "plot-trace DIR/ok.toml -o DIR/p.txt", r"--out: 'DIR/p\.txt' " + NOT + r"a file name ending in \.png, \.pdf, \.svg\)"),
]
# the documentation lists areas in AREAS order: records appended at the end join their area
CATALOGUE.sort(key=lambda b: AREAS.index(b.area))


# --------------------------------------------------------------------------------------------
# the base sweeps a "toml" record is merged into, and the scratch folder
# --------------------------------------------------------------------------------------------
_SHORT = {"seeds": "1", "duration_s": "1.0", "warmup_s": "0.1"}
#: builder -> {table ("" = top level) -> {key -> TOML value text}}
BASES: dict[str, dict[str, dict[str, str]]] = {
    "kaur_vin": {"": dict(_SHORT), "fixed": {"n_flows": "1"}},
    "habib_2a": {"": dict(_SHORT), "fixed": {"n_micro": "2"}},
    "habib_2b": {"": dict(_SHORT), "fixed": {"n_micro": "2"}},
    "lee_jeong": {"": dict(_SHORT), "fixed": {"n_best_effort": "1"}},
    "matta_guo": {"": {"seeds": "1"}, "fixed": {"duration_s": "1.0", "n_flows": "2"}},
    "matta_guo_web": {"": {"seeds": "1"}, "fixed": {"duration_s": "1.0", "web_sessions": "2"}},
    "rossi": {"": {"seeds": "1"}, "fixed": {"t_stop_s": "0.5", "t_halt_s": "1.0"}},
    "todays_kaur_vin": {"": dict(_SHORT), "fixed": {"n_flows": "1"}},
    "dumbbell": {"": dict(_SHORT), "fixed": {"n_flows": "1"}},
    "parking_lot": {"": dict(_SHORT), "fixed": {"n_links": "2"}},
}

#: the valid sweep DIR/ok.toml, and DIR/folder.toml whose results are in DIR/folder
OK_TOML = 'name = "ok"\nbuilder = "kaur_vin"\nseeds = 1\nduration_s = 1.0\nwarmup_s = 0.1\n' \
          '[fixed]\nn_flows = 1\n'
FOLDER_TOML = 'name = "tiny"\nbuilder = "kaur_vin"\nseeds = 2\nduration_s = 1.0\n' \
              'warmup_s = 0.1\n[fixed]\nn_flows = 1\n[axes]\nef = ["cbr", "onoff"]\n' \
              't_on_ms = [1.0, 10.0]\n'

#: DIR/sameslot.toml: two round trips that a 100 kb/s link's 46.08-ms slot runs alike
SAMESLOT_TOML = 'name = "sameslot"\nbuilder = "kaur_vin"\nseeds = 1\nduration_s = 2.0\n' \
                'warmup_s = 0.5\n[fixed]\nn_flows = 1\nlink_rate_bps = 100e3\n' \
                'bottleneck_delay_ms = 0.25\n[axes]\nrtp_ms = [0.5, 8.0]\n'


def sweep_text(bad: Bad) -> str:
    """The sweep file of a "toml" record: its snippet merged into ``BASES[bad.builder]``."""
    if bad.raw:
        return bad.input
    tables = {k: dict(v) for k, v in BASES[bad.builder].items()}
    tables[""] = {"name": '"bad"', "builder": f'"{bad.builder}"', **tables[""]}
    arrays: list[tuple[str, dict[str, str]]] = []
    current = tables[""]
    for line in (s.strip() for s in bad.input.split(";")):
        if line.startswith("[["):
            arrays.append((line.strip("[] "), {}))
            current = arrays[-1][1]
        elif line.startswith("["):
            current = tables.setdefault(line.strip("[] "), {})
        elif line.startswith("-"):
            current.pop(line[1:].strip())
        else:
            key, _, value = line.partition("=")
            current[key.strip()] = value.strip()
    out = [f"{k} = {v}" for k, v in tables.pop("").items()]
    for name, keys in [*tables.items(), *((f"[{n}]", t) for n, t in arrays)]:
        out += ["", f"[{name}]", *(f"{k} = {v}" for k, v in keys.items())]
    return "\n".join(out) + "\n"


def setup(root: Path) -> None:
    """The scratch folder DIR the records refer to: ok.toml (a valid sweep), latin1.toml (not
    UTF-8), empty/ (no manifest), junk/ (an unreadable manifest), nohash/ (a manifest without
    config_hash), nonempty/ (a folder with a file), folder/ (the results of folder.toml)."""
    from diffsweep.cli import app as cli

    root.mkdir(parents=True, exist_ok=True)
    (root / "ok.toml").write_text(OK_TOML)
    (root / "latin1.toml").write_bytes('name = "café"\nbuilder = "kaur_vin"\n'.encode("latin-1"))
    for name, content in (("empty", None), ("junk", "{not json"), ("nohash", "{}"),
                          ("nonempty", None)):
        (root / name).mkdir(exist_ok=True)
        if content is not None:
            (root / name / "manifest.json").write_text(content)
    (root / "nonempty" / "notes.txt").write_text("mine\n")
    for name, content in (("badlock", "garbage{"), ("emptylock", "")):  # damaged lock files
        (root / name).mkdir(exist_ok=True)
        (root / name / ".diffsweep.lock").write_text(content)
    (root / "folder.toml").write_text(FOLDER_TOML)
    (root / "sameslot.toml").write_text(SAMESLOT_TOML)
    if not (root / "folder").exists():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            rc = cli.main(["run", str(root / "folder.toml"), "--out", str(root / "folder"),
                           "--quiet", "--backend", "cpu"])
        assert rc == 0, "the results folder of folder.toml could not be made"


_NAMESPACE: dict | None = None


def user_builder(rate_mbps=40.0, seed=0):
    """A user's own builder with a bug: it divides by ``rate_mbps`` (the records' builder
    that raises something other than ConfigError)."""
    from diffsweep.scenario import builders as scenarios

    slot_ms = 0.576 * 8 / rate_mbps
    return scenarios.kaur_vin(n_flows=1, duration_s=1.0, warmup_s=0.1,
                              link_rate_bps=rate_mbps * 1e6, bottleneck_delay_ms=slot_ms / 2)


def user_builder_hook(rate_mbps=40.0, seed=0):
    """A user's builder whose ``seed_matters`` hook fails."""
    return user_builder(rate_mbps, seed)


def _seed_matters_fails(**params):
    raise KeyError("nope")


user_builder_hook.seed_matters = _seed_matters_fails
# named as the suite imports this file, also when it runs as a script (--write-docs)
user_builder.__module__ = user_builder_hook.__module__ = "bad_inputs"


def with_env(name: str, value: str, fn):
    """``fn()`` with the environment variable ``name`` set to ``value`` (restored after)."""
    import os

    old = os.environ.get(name)
    os.environ[name] = value
    try:
        return fn()
    finally:
        if old is None:
            del os.environ[name]
        else:
            os.environ[name] = old


def namespace(root: Path) -> dict:
    """What a "python" record's expression may use."""
    global _NAMESPACE
    if _NAMESPACE is None:
        import math

        import numpy as np

        import diffsweep
        from diffsweep.engine import backend_choice
        from diffsweep.scenario import builders as scenarios
        from diffsweep.sweep.config import load_sweep, loads_sweep
        from diffsweep.scenario import Marker, RedThresholds, Traffic

        ns = {name: getattr(diffsweep, name) for name in diffsweep.__all__}
        ns.update(math=math, np=np, Marker=Marker, RedThresholds=RedThresholds, Traffic=Traffic,
                  load_sweep=load_sweep, loads_sweep=loads_sweep, with_env=with_env,
                  backend_choice=backend_choice, user_builder=user_builder,
                  user_builder_hook=user_builder_hook)
        ns.update({name: getattr(scenarios, name) for name in dir(scenarios)})
        ns["grid"] = diffsweep.Grid(ns["kaur_vin"], seeds=1, n_flows=1, duration_s=1.0,
                                    warmup_s=0.1)
        _NAMESPACE = ns
    return {**_NAMESPACE, "DIR": root}


# --------------------------------------------------------------------------------------------
# applying a record
# --------------------------------------------------------------------------------------------
@dataclass
class Outcome:
    """What an input did: ``got`` is the exit status or the exception class name (None: it
    was accepted); ``message`` the error line (commands) or str(exception) (calls), normalised
    (``normalise``); ``stderr`` everything a command wrote there."""

    got: int | str | None
    message: str
    stderr: str = ""
    stdout: str = ""


def normalise(text: str, root: Path) -> str:
    """Scratch paths as DIR, the checkout as REPO, hashes as HASH, addresses as 0x..."""
    for path, name in ((root, "DIR"), (REPO, "REPO")):
        for form in {str(path), os.path.realpath(path)}:
            text = text.replace(form, name)
    text = re.sub(r"\b(?=[0-9a-f]*[a-f])[0-9a-f]{12,64}\b", "HASH", text)
    return re.sub(r"\b0x[0-9a-fA-F]{6,}\b", "0x...", text)


def _cli(argv: list[str]) -> tuple[int, str, str]:
    from diffsweep.cli import app as cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli.main(argv)
        except SystemExit as e:  # argparse
            rc = e.code if isinstance(e.code, int) else 1
    return rc, out.getvalue(), err.getvalue()


def _error_line(stderr: str) -> str:
    """The command's error: its one ``diffsweep: error:`` line (argparse: its last line)."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("diffsweep: error: ")]
    if len(errors) == 1:
        return errors[0]
    return lines[-1] if lines else ""


def apply(bad: Bad, root: Path) -> Outcome:
    """Give ``bad`` to diffsweep (in this process) with the scratch folder ``root``."""
    if bad.kind == "python":
        try:
            eval(compile(bad.input, f"<{bad.id}>", "eval"), namespace(root))
        except Exception as e:  # what it raises is the outcome
            return Outcome(type(e).__name__, normalise(str(e), root))
        return Outcome(None, "")
    if bad.kind == "toml":
        argv = ["run", str(root / "bad.toml"), "--out", str(root / "out")]
    else:
        argv = [a.replace("DIR", str(root)) for a in shlex.split(bad.input)]
    rc, out, err = _cli(argv)
    return Outcome(rc, normalise(_error_line(err), root), normalise(err, root),
                   normalise(out, root))


def prepare(bad: Bad, root: Path) -> None:
    """Write what a record needs before it is applied (a "toml" record's file)."""
    if bad.kind == "toml":
        (root / "bad.toml").write_text(sweep_text(bad))


def tree(root: Path) -> list[str]:
    """Every file and folder under ``root`` (relative), with file sizes."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        out += [os.path.join(rel, d) + "/" for d in dirnames]
        out += [f"{os.path.join(rel, f)} {os.path.getsize(os.path.join(dirpath, f))}"
                for f in filenames]
    return sorted(out)


# --------------------------------------------------------------------------------------------
# the documentation
# --------------------------------------------------------------------------------------------
INTRO = """\
# Bad inputs and their messages

Generated by `python tests/bad_inputs.py --write-docs` from the catalogue in
`tests/bad_inputs.py`; do not edit by hand. `tests/test_bad_inputs.py` applies every input and
fails while this table differs from what the inputs produce: after adding a record (or changing
a message), regenerate it (`PYTHONPATH=python python tests/bad_inputs.py --write-docs`).

Each row is one input a user can give, and what diffsweep answers. Sweep-file rows are settings
merged into a small valid sweep of that builder (`;` separates lines, `-key` removes a key of
that sweep; `⏎` ends a line of a whole file), run as `diffsweep run DIR/bad.toml --out DIR/out`; command-line rows are run as shown;
Python rows are expressions, with `grid = Grid(kaur_vin, seeds=1, n_flows=1, duration_s=1.0,
warmup_s=0.1)`. `DIR` stands for a scratch folder holding `ok.toml` (a valid sweep),
`latin1.toml` (not UTF-8), `empty/` (no manifest), `junk/` (an unreadable manifest), `nohash/`
(a manifest without a config hash), `nonempty/` (a folder with a file), `badlock/` and
`emptylock/` (a damaged and an empty lock file `.diffsweep.lock`), `folder.toml` (a sweep named
`tiny`, axes `ef` and `t_on_ms`) and `folder/` (its results), `sameslot.toml` (axis `rtp_ms =
[0.5, 8.0]` on a 100 kb/s link, whose slot is 46.08 ms); `HASH` stands for a config hash.
`user_builder` is a user's builder that divides by its `rate_mbps` (bad_inputs.py). A command refuses with exit
status 2 for a bad input (1 when the file system refuses) and prints one line,
`diffsweep: error: ...`, without a traceback (`--debug` shows it); argparse's own errors print
the usage first. No refused run leaves anything in its output folder.
"""


def _cell(text: str) -> str:
    text = text.replace("|", "\\|")
    tick = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{tick}{pad}{text}{pad}{tick}"


def _uncell(cell: str) -> str:
    cell = cell.strip()
    if cell.startswith("``"):
        cell = cell[3:-3]
    elif cell.startswith("`"):
        cell = cell[1:-1]
    return cell.replace("\\|", "|")


HEADER = "| id | input | where | outcome | message |\n|---|---|---|---|---|\n"


def row(bad: Bad, message: str) -> str:
    return (f"| {bad.id} | {_cell(bad.shown)} | {bad.where} | {bad.outcome} | "
            f"{_cell(message)} |\n")


#: issue 45's hunt for the kin of each fault: what was looked at and what became of it (shown at
#: the end of docs/bad-inputs.md)
KIN = """\

## Kin of issue 45's faults: what was hunted and what became of it

- **Integer options without an upper bound** (`--threads 1000000`: libgomp failed, an empty
  folder left). `--threads` of `run`, `reproduce` and `atlas`, `run(threads=)` and
  `simulate(threads=)`: 0 to 1024 (`run_args.MAX_THREADS`). `run(lanes=)` / `simulate(lanes=)`:
  a power of two up to 32 (was the engine's ValueError after packing, or pybind11's "Unable
  to cast" for 2.5). `--max-seeds` with `--target-ci`: at most 2,000,000 replicas / points
  unless `--force` (a billion ran until it was killed). `demo --seeds 10^12`: 1 to 250,000
  (was refused under a "--duration-s 60:" prefix, with a `--force` demo does not have).
  `repair --sweep S --seeds 10^12`: refused from the count (was an internal MemoryError).
  Left as they are, tried:
  `--seeds-per-round 1000000000` (capped by `--max-seeds`), `--chunk-size 10^12` and
  `--memory-budget 1e30` (maxima, not amounts: the run is the same). Left, read only:
  `--jobs` (the process pool is capped by the number of figure tasks). Left, not tried:
  `atlas --max-seeds` (no upper bound; a cell's seeds double per round while undecided).
- **Options taking an address or a path** (`--scheduler notanaddress`: an internal error).
  `--scheduler` malformed, empty or of an unknown scheme: refused before the run is announced;
  `run(client="tcp://...")` (a string, not a Client): refused (was "'str' object has no
  attribute 'scatter'" mid-run). `DIFFSWEEP_CACHE_DIR` unwritable: the estimate is made, the
  probe not kept. `--out` of `run`, `plot`, `export`, `atlas`: already in this catalogue.
- **Commands taking a column name** (`show --metric seed`, `plot --y point`: internal errors).
  `show --metric`, `plot --y`: identifiers (point, seed, replica, flow, link, cls_index, source,
  interval, traffic) and grid columns refused, the measured columns listed. `--target-metric`
  / `target_metric=`: a grid column was accepted (its interval is 0 at once: "met"), now refused
  as not a metric, as are point and seed. `plot --x` / `--hue` and `Results.where`: the grouping
  rework of issue 45 (not here).
- **Places a user's callable is called** (a builder's exception: a raw traceback). The builder,
  its `seed_matters` and `reseed` hooks: `BuilderError`, one line naming the builder, the
  point's parameters and seed, its exception and message (exit 1), the builder's exception as
  `__cause__`. Left: `run(progress=callable)`: its exception reaches the Python caller as it
  is, the folder untouched (tried with a KeyError: no folder made).
- **Small state files read back** (a damaged lock: "pid None on host None"). The lock file:
  damaged (empty, not JSON, no pid or host) said so with its path and what to do, read twice
  0.2 s apart (a lock being written is not damaged). `estimate-probes.json` (new): damaged,
  ignored and written again. Already handled, read: `manifest.json` ("unreadable manifest"),
  chunks (moved to `corrupt/`), `atlas.json` ("is damaged"), a report's record and
  `verdicts.json` (taken as absent: redrawn), a reproduction's marker (falls back to the report).
- **Times the slots round** (`rtp_ms = 0.5` ran as 46 ms). Warned: round trips (a traffic
  generator's transfers' too, since 2026-11-29), `duration_s`, `warmup_s` moved more than 10%,
  windows under 100 slots; refused: points equal to the engine. Not warned: `interval_s` and
  flow `start_s` (rounded to whole slots too), timers (fractional slots, not rounded). Found by
  the warning in a packaged sweep: `habib/ht1` flow 200's round trip of 15 ms ran as 8.512 ms
  (one slot); `habib/ht1` and `ht2` now set a 0.5-ms slot (docs/model.md, "Time").
"""


def render(messages: dict[str, str]) -> str:
    """docs/bad-inputs.md from the records' actual messages (id -> normalised message)."""
    parts = [INTRO]
    counts = {a: sum(b.area == a for b in CATALOGUE) for a in AREAS}
    parts.append(f"\n{len(CATALOGUE)} inputs:\n\n")
    parts += [f"- [{a}](#{_anchor(a)}): {counts[a]}\n" for a in AREAS]
    for area in AREAS:
        parts.append(f"\n## {area}\n\n{HEADER}")
        parts += [row(b, messages[b.id]) for b in CATALOGUE if b.area == area]
    parts.append(KIN)
    parts.append(ISSUE53)
    return "".join(parts)


ISSUE53 = """
## Issue 53's escapes: fixed so far
- **`--help` printed "95%%"** (`diffsweep atlas`, `plot`, `show`): argparse %-formats an
  option's help but not a parser's description, so the doubled sign written for the one showed
  in the other. The descriptions now say "95%"; `tests/test_ux_cli.py::
  test_help_prints_percent_signs_once` reads every subcommand's `--help` (it failed on three).
- **The no-CUDA error told command-line users "use backend='cpu'"** (`diffsweep run
  --backend cuda` without a CUDA engine or device): it now names both, "use the CPU
  (--backend cpu; backend='cpu' from Python)"; `tests/test_ux_cli.py::
  test_the_no_cuda_error_speaks_the_command_line` (both cases; failed on both).
- **`show --metric jain_index` and `plot --y jain_index` answered "not a column of any table
  (did you mean 'cls_index'?)"**: the numbers a researcher reads first are named metrics now
  (`diffsweep.analysis.registry`, `diffsweep metrics`, docs/metric-names.md), with an
  expression form and `@diffsweep.metric`; a name that is neither a metric nor a column gets
  "did you mean 'jain_index'?" over both, before anything is printed
  (`tests/test_metric_registry.py::test_plot_export_and_errors`).
- **`sensitivity dumbbell ... --metric kaur-vin:jain_index` was the only fairness metric and
  refused** ("a number of kaur-vin's scenarios"): `--metric jain_index` works on any scenario,
  and the refusal says so ("for any scenario: --metric jain_index").
- **`sensitivity --dry-run` skipped the metric check** (`--metric replicas.jain --dry-run`
  exited 0, the run refused it) and its "allowed" list offered grid columns: a column is
  checked against the engine's columns of its table when parsed, so the dry run refuses what
  the run would ("did you mean the metric 'jain_index'?"), and grid columns are never offered
  (`tests/test_metric_registry.py::test_sensitivity_on_a_named_metric_and_the_dry_run_checks_it`).
- **`stats.summarize` on `jain_index` gave ci_high 1.002**: a metric with a range (Jain, the
  min-max ratio, loss and utilisation in [0, 1], or a user's `bounds=`) gets its interval on
  the logit scale inside it, in `summarize`, `show`, `plot` and claims alike
  (`tests/test_metric_registry.py::test_summaries_of_bounded_metrics_stay_in_range`, which
  failed before).
- **`--target-ci` could aim only at a replicas-table column**: `--target-metric jain_index`
  (or an expression, or `module:function`) adds seeds until Jain's interval is narrow enough
  (`test_target_ci_on_jain_index`; with a user's metric on a Dask cluster:
  `test_user_metric_and_claim_on_a_dask_cluster`).
- **A rate that made the slot too fine was refused as `duration_s`** (`bottleneck_bps = 1e15`,
  builder dumbbell: "duration_s: 60.0 is not allowed (expected fewer than 2^32 slots of
  8.32e-12 s ...)"). The slot is one packet's transmission time at the fastest rate (a link's or a sender's
  access link's), so a huge
  rate makes 60 s more than the 32-bit slot clock holds. A Link built inside a builder's
  `renamed_errors` now remembers the builder's name for its rate, and when the slot is under
  1 ns the refusal leads with what set it (the builder's rate parameter, `slot_s`, or
  `links[i].rate_bps`), giving its allowed range and the other way out (a shorter
  `duration_s`); a longer slot leads with `duration_s` and gives the rate's range.
  `tests/bad_inputs.py` records `db-bottleneck-slot-clock`, `kv-link-rate-slot-clock`,
  `scenario-rate-slot-clock`, `scenario-slot-s-clock` (all failed before).
- **A sweep file that starts with a UTF-8 byte-order mark** was "TOML syntax error: Invalid
  statement (at line 1, column 1)". The file is now decoded as `utf-8-sig`, so the mark is
  dropped; `tests/test_ux.py::test_sweep_file_with_a_byte_order_mark` (run, show, resume from
  the CLI; failed before).
- **A finished folder on read-only storage could not be rerun** (the lock file could not be
  created; exit 1). Rerunning a complete folder now prints "DIR: nothing to compute (the
  folder is read-only ...)" and exits 0 without the lock. With replicas left to compute it is
  one line naming the folder and saying it is read-only, exit 2, nothing changed.
  `tests/test_ux_store.py::test_a_read_only_finished_folder_is_shown_and_rerun` (chmod -R a-w,
  or a read-only bind mount as root; failed before).
- **A resumed run's killed predecessor stayed "running or killed"** in `show`. A run with no
  end is now "running or killed" only while it is the last run and its lock is held (not by a
  dead process of this host). Otherwise it is "killed (it wrote no end)", with "; its
  replicas were finished by run N" once a later run has finished.
  `tests/test_runner.py::test_show_says_a_killed_run_was_finished_by_the_next` (real SIGKILL;
  failed before).
- **`plot` drew a half-written folder silently** (exit 0, an x axis that stopped where the
  missing points began). `plot` and `export --allow-partial` now print `diffsweep: warning:
  DIR: partial results: K of N points complete, M of E replicas missing; rerun `...``. The
  figure's title says "partial: K of N points (M replicas missing)", and Python's
  `folder.plot`/`folder.export` raise the same line as a UserWarning
  (`Results.meta["completeness"]`).
  `tests/test_ux_store.py::test_plot_and_export_of_an_unfinished_folder_warn` (failed before).
- **`pip install .` compiled the CUDA engine wherever `nvcc` was, GPU or not** (the README's
  first command on the 2-core VM without a GPU; issue 53 reported 312 s against the README's
  ~111 s): `DIFFSWEEP_CUDA=AUTO` now builds it only where `nvcc` is found and the toolkit's
  CUDA runtime sees a device (a configure-time `cudaGetDeviceCount` probe), `ON` wherever
  `nvcc` is (`pip install . -C cmake.define.DIFFSWEEP_CUDA=ON`), `OFF` never, and CMake says
  which and why; the test suite compiles it with `ON` where `nvcc` is
  (`tests/test_cuda_compiles.py::test_the_cuda_engine_compiles`).
  `tests/test_cuda_compiles.py::test_auto_builds_no_cuda_engine_where_no_device_is_visible`
  failed before (the old AUTO built it).
- **`-DDIFFSWEEP_CUDA=yes` (any value but OFF) was taken for AUTO**: it is refused, naming
  AUTO, ON, OFF; `tests/test_cuda_compiles.py::test_a_bad_value_is_refused_naming_the_allowed_ones`
  (failed before).
- **The no-CUDA error and `diffsweep info` gave "no nvcc at build time" as the only reason**
  (now also: no device at build time) and no way to ask: both name
  `pip install . -C cmake.define.DIFFSWEEP_CUDA=ON`; `tests/test_ux_cli.py::
  test_the_no_cuda_error_speaks_the_command_line[not-built]` and
  `test_info_says_how_to_build_the_cuda_engine` (both failed before).- **RED thresholds above the buffer were accepted silently** (`aqm = "red"` with
  `buffer_pkts = 10`: ns-2.35's automatic thresholds are 6.25 / 18.75 mean-size packets).
  Thresholds are now checked against the buffer in the queue's own unit, for every builder
  (`QueueClass`: a byte limit counts `limit_bytes / red_mean_pkt_bytes` packets, a packet limit
  `limit_pkts x red_mean_pkt_bytes` bytes, as red.cc's qlim; RED, RIO and WRED alike): a
  min_th at or above the buffer is a ConfigError (`QueueClass.red[0].min_th: ...`; in the
  dumbbell `red_min_th_pkts: 6.25 is not allowed (expected a number < buffer_pkts (5) ...)`,
  `rio_thresholds[k]` for RIO/WRED), a max_th above it one `RedThresholdWarning` line naming
  both (`red_max_th_pkts 18.75 is above buffer_pkts (10): ...`). No packaged sweep (47 sweep
  files, full and `[quick]`, every point) is refused or warns.
  `tests/test_dumbbell_escapes.py::test_red_auto_thresholds_above_a_small_buffer_warn_naming_both`,
  `test_red_min_th_at_or_above_the_buffer_is_refused` (3 cases), `test_rio_thresholds_against_the_buffer`,
  `test_queue_class_checks_thresholds_in_its_own_unit` (all failed before).
- **Window-limited runs said nothing** (two 100-ms flows at ns-2's `window_` 20 got an identical
  3.2 Mb/s of 10 Mb/s under drop-tail and RED, no loss). `diffsweep.run` now warns (a
  UserWarning; `diffsweep run` prints it as `diffsweep: warning: ...`, one line) when more than
  half the flow rows are window-limited, goodput >= 95% of `max_window_pkts x segment_bytes x 8
  / rtt_mean_s` (an estimate from the averages, said so): "8 of 8 TCP flows (100%), in 4 of 4
  replicas, are window-limited ...; raise max_window_pkts (ns-2's window_, default 20)".
  `test_a_window_limited_run_warns_and_one_that_is_not_does_not`,
  `test_diffsweep_run_says_the_window_limit_on_stderr` (failed before).
- **No per-flow start times** (only `start_spread_s`'s uniform draw). The dumbbell has
  `start_s`: one time for every flow or a list of n_flows times (a sweep axis wraps a per-flow
  list, `start_s = [[0, 20]]`), each >= 0 and < duration_s / 2, errors naming `start_s[i]`; the
  seed then draws nothing. `test_start_s_one_value_a_list_and_its_checks`,
  `test_flows_start_when_start_s_says` (flow 1 started at 20 s of 50 delivers 30/50 of flow 0's
  bytes; failed before).
- **`red_bytes` switched ns-2's `bytes_` and `queue_in_bytes_` together**; red.cc keeps them
  apart. `QueueClass.red_queue_in_bytes` (None: as `red_bytes`, so every existing scenario
  keeps its digest and bits) and the dumbbell's `red_queue_in_bytes` (None: as `red_bytes`)
  now set queue_in_bytes_ (average, thresholds, buffer in bytes) apart from bytes_ (count in
  bytes, p scaled by size: modify_p); the engine reads them as `RedParams.qib` and `.bytes`.
  `tests/cpp/test_red.cpp::test_bytes_split` (hand-computed: p_a 0.0454... with the queue in
  packets, 0.1 unscaled with it in bytes; 2 of its checks fail on the old header),
  `test_red_bytes_and_queue_in_bytes_are_two_settings`,
  `test_the_engine_averages_packets_when_only_bytes_is_set` (failed before).
- **`queues.drops` counts buffer overflows only**, which misled a user summing drops. The
  queues table has `all_drops`: every packet the class discarded (overflows + RED/RIO/WRED
  early drops + RED's forced drops beyond max_th), exact from the engine's counters (the sum
  over colours of early and forced drops, which hold the overflows).
  `test_all_drops_counts_every_discard_of_the_class` (equals the flows' drops summed per
  replica; failed before).
"""


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9 _-]", "", title.lower()).replace(" ", "-")


def parse_doc(text: str) -> dict[str, tuple[str, str, str, str]]:
    """docs/bad-inputs.md -> {id: (input, where, outcome, message)}, in table order."""
    rows = {}
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith("| id |"):
            continue
        cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        rid = cells[0].strip()
        rows[rid] = (_uncell(cells[1]), cells[2].strip(), cells[3].strip(), _uncell(cells[4]))
    return rows


def run_all(root: Path) -> dict[str, Outcome]:
    setup(root)
    results = {}
    for bad in CATALOGUE:
        prepare(bad, root)
        results[bad.id] = apply(bad, root)
        for leftover in ("out", "r", "x", "bad.toml"):
            p = root / leftover
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
    return results


def main(argv: list[str]) -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write-docs", action="store_true", help=f"write {DOC.relative_to(REPO)}")
    p.add_argument("--check", action="store_true",
                   help="run every record and list those whose outcome is not the expected one")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bad-inputs-") as tmp:
        # --dry-run's probe is kept in a cache folder: this run's own, not the user's
        os.environ.setdefault("DIFFSWEEP_CACHE_DIR", str(Path(tmp) / "cache"))
        results = run_all(Path(tmp) / "DIR")
    wrong = [(b, results[b.id]) for b in CATALOGUE
             if results[b.id].got != b.expect or not re.search(b.match, results[b.id].message)]
    for b, o in wrong:
        print(f"{b.id}: expected {b.expect} /{b.match}/\n    got {o.got}: {o.message}\n"
              f"    stderr: {o.stderr.strip()!r}", file=sys.stderr)
    if args.write_docs:
        DOC.write_text(render({k: v.message for k, v in results.items()}))
        print(f"{DOC.relative_to(REPO)}: {len(CATALOGUE)} inputs"
              + (f" ({len(wrong)} not as the catalogue expects)" if wrong else ""))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "python"))  # this checkout's diffsweep
    sys.exit(main(sys.argv[1:]))
