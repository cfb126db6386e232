"""FMU export: a port-Hamiltonian system as an FMI 3.0 or 2.0 Functional Mock-up Unit,
Model Exchange or Co-Simulation, with C code generated from the model (docs/export.md).

- :mod:`.model` — what is exported (names, values, units, the symbolic model);
- :mod:`.ccode` — the model's functions in C (SymPy's C99 printer, ``cse``);
- :mod:`.layout` — value references shared by the XML and the C code;
- :mod:`.description` — ``modelDescription.xml`` and ``buildDescription.xml``;
- :mod:`.units` — SI units as FMI base-unit exponents;
- :mod:`.build` — the compiler and the zip;
- ``templates/`` — the C runtime: the FMI functions and the co-simulation step;
- :mod:`.api` — :func:`export_fmu`.
"""

from __future__ import annotations

from .api import ExportedFmu, export_fmu

__all__ = ["export_fmu", "ExportedFmu"]
