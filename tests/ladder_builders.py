"""The RLC ladder and the mass–spring–damper chain of the assembly benchmarks, loaded
from ``benchmarks/ladders.py`` so that tests and benchmarks build the same systems from
one copy of the code (the benchmarks folder is not a package)."""

from __future__ import annotations

import importlib.util

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("benchmark_ladders",
                                               ROOT / "benchmarks" / "ladders.py")
assert _spec is not None and _spec.loader is not None
_ladders = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ladders)

ladder_bondgraph = _ladders.ladder_bondgraph
ladder_network = _ladders.ladder_network
chain_bondgraph = _ladders.chain_bondgraph
chain_network = _ladders.chain_network

__all__ = ["ladder_bondgraph", "ladder_network", "chain_bondgraph", "chain_network"]
