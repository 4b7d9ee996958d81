"""A researcher's own metric and claim, as a user's module would hold them: tests/
test_metric_registry.py names them as ``user_metrics:red_share`` and ``user_metrics:SHORT_FAIRER``
(tests/ is on the path, as a user's module is on PYTHONPATH). Not a test file."""
import diffsweep


@diffsweep.metric(unit="fraction", bounds=(0.0, 1.0))
def first_flow_share(res):
    """Share of the replica's TCP goodput that flow 0 got."""
    f = res.flows
    g = f.groupby(["point", "seed"])["goodput_bps"]
    first = f[f["flow"] == 0].groupby(["point", "seed"])["goodput_bps"].sum()
    return first / g.sum()


def not_marked(res):
    return res.replicas.set_index(["point", "seed"])["tcp_goodput_bps"]


FAIRER = diffsweep.claim(id="red-fairer", text="RED shares the link at least as fairly as "
                         "drop-tail", metric="jain_index", kind="compare", axis="aqm", a="red",
                         b="droptail", within=0.05)
