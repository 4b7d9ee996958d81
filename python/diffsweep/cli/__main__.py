"""``python -m diffsweep.cli ...``: the ``diffsweep`` command line."""
from diffsweep.cli.app import entry

if __name__ == "__main__":
    entry()
