"""The generic verdict rules of diffsweep.analysis.claims: every rating uses the 95% interval, never the
mean alone, and says what it saw in words."""
from __future__ import annotations

from diffsweep.analysis.claims import (HOLDS, NM, NOT, PARTLY, flat_status, flat_words, level_ci,
                                       sign_status, sign_words)


def ci(mean, lo, hi, n=4):
    return {"mean": mean, "ci95": [lo, hi], "n": n}


def test_level_is_rated_on_the_interval():
    # mean 0.3 is above the 0.25 threshold, but the interval reaches down to 0.05
    assert level_ci(ci(0.3, 0.05, 0.55), 0.25, 0.10) == PARTLY
    assert level_ci(ci(0.3, 0.26, 0.34), 0.25, 0.10) == HOLDS
    assert level_ci(ci(0.05, 0.01, 0.09), 0.25, 0.10) == NOT
    assert level_ci(ci(0.05, 0.01, 0.12), 0.25, 0.10) == PARTLY
    # lower is better (e.g. a loss that should be insignificant)
    assert level_ci(ci(0.03, 0.01, 0.049), 0.05, 0.10, higher_is_better=False) == HOLDS
    assert level_ci(ci(0.03, 0.01, 0.07), 0.05, 0.10, higher_is_better=False) == PARTLY
    assert level_ci(ci(0.2, 0.12, 0.3), 0.05, 0.10, higher_is_better=False) == NOT
    # one seed: no interval, so never "holds"
    assert level_ci(ci(0.4, None, None, n=1), 0.25, 0.10) == PARTLY
    assert level_ci(ci(None, None, None, n=0), 0.25, 0.10) == NM


def test_flat_is_an_equivalence_test_on_the_interval():
    assert flat_status(ci(0.01, -0.05, 0.07), 0.1, 0.2) == HOLDS
    assert flat_status(ci(0.01, -0.15, 0.17), 0.1, 0.2) == PARTLY
    # a mean near 0 with a wide interval is not "no change"
    assert flat_status(ci(0.01, -0.5, 0.52), 0.1, 0.2) == NOT
    assert "no appreciable change" in flat_words(ci(0.01, -0.05, 0.07), 0.1, 0.2)


def test_sign_words_match_sign_status():
    cases = {HOLDS: ci(0.2, 0.1, 0.3), PARTLY: ci(0.2, -0.1, 0.5), NOT: ci(-0.2, -0.3, -0.1)}
    words = {HOLDS: "significantly above 0", PARTLY: "not significantly",
             NOT: "not above 0"}
    for st, c in cases.items():
        assert sign_status(c, +1) == st
        assert words[st] in sign_words(c, +1)
