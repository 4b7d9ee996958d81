#!/usr/bin/env bash
# Installs ns-3.44 as a user of it would from PyPI and compiles the scenarios against it.
#
#   NS3_ENV=/path/to/venv ./setup.sh     (default: $HOME/.local/ns3env)
#
# The `ns3` wheel (3.44.post0) carries ns-3's C++ headers (site-packages/ns3/include) and its
# shared libraries (site-packages/ns3/lib64): a venv with the wheel is the whole install.
# dumbbell.cc is compiled with g++ against them, with an rpath to lib64 so the binary runs
# without LD_LIBRARY_PATH. Idempotent: an existing venv with the wheel is used as it is, and
# the binary is rebuilt only when dumbbell.cc is newer. Binary: build/dumbbell (BUILD=dir).
set -euo pipefail
cd "$(dirname "$0")"
NS3_ENV=${NS3_ENV:-$HOME/.local/ns3env}
BUILD=${BUILD:-build}
PY=${PYTHON:-python3}

if ! "$NS3_ENV/bin/python" -c "import importlib.metadata as m; assert m.version('ns3') == '3.44.post0'" 2>/dev/null; then
  echo "installing ns3==3.44.post0 into $NS3_ENV" >&2
  "$PY" -m venv "$NS3_ENV"
  "$NS3_ENV/bin/pip" install -q "ns3==3.44.post0"
fi
NS3=$("$NS3_ENV/bin/python" -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('ns3').origin or list(importlib.util.find_spec('ns3').submodule_search_locations)[0]))" 2>/dev/null || true)
# the package directory holds include/ and lib64/ (the wheel is a namespace-less data package)
[ -d "$NS3/include/ns3" ] || NS3=$(ls -d "$NS3_ENV"/lib/python3*/site-packages/ns3 | head -1)
[ -d "$NS3/include/ns3" ] && [ -d "$NS3/lib64" ] || { echo "no ns3/include or ns3/lib64 under $NS3_ENV" >&2; exit 1; }

mkdir -p "$BUILD"
LIBS="core network internet point-to-point applications traffic-control stats"
for prog in dumbbell; do
  if [ ! -x "$BUILD/$prog" ] || [ "$prog.cc" -nt "$BUILD/$prog" ] || [ "$0" -nt "$BUILD/$prog" ]; then
    echo "g++ $prog.cc -> $BUILD/$prog" >&2
    # shellcheck disable=SC2046
    g++ -std=c++20 -O2 -o "$BUILD/$prog" "$prog.cc" -I"$NS3/include" -L"$NS3/lib64" \
        -Wl,-rpath,"$NS3/lib64" $(for l in $LIBS; do echo "-lns3.44-$l"; done)
  fi
done
echo "$BUILD/dumbbell (ns-3.44 from $NS3)"
