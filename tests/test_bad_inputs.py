"""Every bad input of the catalogue (tests/bad_inputs.py) is refused as the catalogue says, in
one line naming the field or option, leaving nothing behind; and docs/bad-inputs.md shows the
message each one actually produces (issue 23)."""
import re

import pytest

import bad_inputs as bi

REGENERATE = "regenerate it: PYTHONPATH=python python tests/bad_inputs.py --write-docs"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """The scratch folder DIR of the records (bad_inputs.setup)."""
    d = tmp_path_factory.mktemp("bad-inputs") / "DIR"
    bi.setup(d)
    return d


@pytest.fixture(scope="module")
def doc():
    assert bi.DOC.is_file(), f"{bi.DOC} is missing; {REGENERATE}"
    return bi.parse_doc(bi.DOC.read_text())


def _remove(root, paths):
    import shutil
    for rel in sorted(paths, key=len, reverse=True):
        p = root / rel.rsplit(" ", 1)[0].rstrip("/")
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        elif p.exists():
            p.unlink()


@pytest.mark.parametrize("bad", bi.CATALOGUE, ids=[b.id for b in bi.CATALOGUE])
def test_bad_input(bad, root, doc):
    bi.prepare(bad, root)
    before = bi.tree(root)
    try:
        got = bi.apply(bad, root)
    finally:
        after = bi.tree(root)
        _remove(root, set(after) - set(before))  # a failure here leaves the next ones alone
        (root / "bad.toml").unlink(missing_ok=True)
    what = f"{bad.shown}\n  stderr: {got.stderr!r}"
    assert got.got == bad.expect, f"expected {bad.expect}, got {got.got}: {what}"
    assert re.search(bad.match, got.message), f"/{bad.match}/ not in {got.message!r}: {what}"
    assert "\n" not in got.message and got.message.strip() == got.message
    if bad.kind != "python":
        assert "Traceback" not in got.stderr and "internal error" not in got.stderr, what
        lines = [ln for ln in got.stderr.splitlines() if ln.strip()]
        assert lines and lines[-1] == got.message, what
        if bad.argparse:  # usage, then argparse's one error line
            assert lines[0].startswith("usage: diffsweep"), what
            assert re.match(r"diffsweep( \w+)?: error: ", got.message), what
        else:
            assert [ln for ln in lines if "error" in ln] == [got.message], what
            assert got.message.startswith("diffsweep: error: "), what
    # nothing left behind: no results folder, no file, the existing folders untouched
    assert after == before, f"left behind: {sorted(set(after) ^ set(before))}"
    assert bad.id in doc, f"{bad.id} is not in {bi.DOC.name}; {REGENERATE}"
    assert doc[bad.id][3] == got.message, f"{bi.DOC.name} shows another message; {REGENERATE}"


def test_catalogue_records():
    ids = [b.id for b in bi.CATALOGUE]
    assert len(ids) >= 90
    assert len(set(ids)) == len(ids), "ids must be unique"
    inputs = [(b.kind, b.builder, b.input) for b in bi.CATALOGUE]
    assert len(set(inputs)) == len(inputs), "each record is another input"
    for b in bi.CATALOGUE:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", b.id), b.id
        assert b.area in bi.AREAS, b.id
        assert b.kind in ("toml", "cli", "python"), b.id
        re.compile(b.match)
        assert isinstance(b.expect, int if b.kind != "python" else str), b.id
        if b.kind == "toml":
            assert b.builder in bi.BASES, b.id
            assert b.raw or b.input.strip()
    assert {b.area for b in bi.CATALOGUE} == set(bi.AREAS)


def test_base_sweeps_are_valid():
    """Every record's sweep fails because of its snippet, not its base."""
    from diffsweep.sweep.config import loads_sweep

    for builder in bi.BASES:
        text = bi.sweep_text(bi.T("base", bi.TOP, "description = \"base\"", "", builder=builder))
        loads_sweep(text).make_grid()


def test_doc_is_up_to_date(doc):
    """docs/bad-inputs.md lists every record, in order, as the catalogue renders it (the
    messages themselves are compared by test_bad_input)."""
    assert list(doc) == [b.id for b in bi.CATALOGUE], REGENERATE
    text = bi.DOC.read_text()
    assert bi.render({k: v[3] for k, v in doc.items()}) == text, REGENERATE
    for bad in bi.CATALOGUE:
        assert doc[bad.id][:3] == (bad.shown, bad.where, bad.outcome), REGENERATE
    assert "/tmp" not in text and str(bi.REPO) not in text and not re.search(r"0x[0-9a-f]{6,}",
                                                                             text)
