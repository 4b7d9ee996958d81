"""Suite-wide setup."""
import atexit
import os
import shutil
import signal
import tempfile
import warnings

import pytest

# --dry-run keeps its probe of the machine in a cache folder (diffsweep.engine.sizing.probe_cache_path):
# the suite's in a folder of its own, removed at its end, not the user's ~/.cache
if "DIFFSWEEP_CACHE_DIR" not in os.environ:
    os.environ["DIFFSWEEP_CACHE_DIR"] = tempfile.mkdtemp(prefix="diffsweep-test-cache-")
    atexit.register(shutil.rmtree, os.environ["DIFFSWEEP_CACHE_DIR"], True)

# The Ctrl-C tests start CLI processes and send them SIGINT. A process inherits an ignored
# SIGINT (a shell runs background jobs so: `bash .ci/run &`), and Python then installs no
# KeyboardInterrupt handler, so those children would run to the end. Give the suite, and so
# its children, the normal Ctrl-C.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="module")
def dask_client():
    """A Dask LocalCluster of two one-thread worker processes, per test module (a test may
    kill a worker)."""
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=50)
        client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
