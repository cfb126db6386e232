"""Port-based component networks (issue 5, parts 1–2).

:class:`Network` joins :class:`Component` objects — port-Hamiltonian systems with
named power ports (:class:`Port`) — into one PHS (or DescriptorPHS).  Modules:
``ports`` (ports and domains), ``component`` (components, wrappers of PHS and bond
graphs), ``network`` (the network and its junctions), ``assemble`` (the sparse
assembly).  Model files: :mod:`porthamiltonian.io.network_section`.  See docs/network.md.
"""

from __future__ import annotations

from .component import Component, Context, Law, PHSComponent
from .network import Network
from .ports import DOMAINS, Port

__all__ = ["Network", "Component", "PHSComponent", "Port", "DOMAINS", "Law", "Context"]
