r"""Boundary parts and points as ports of an :math:`H^1` field.

Each boundary part of a :class:`~.domain.Domain` takes, for each continuous field
(a velocity, a temperature, a rotation rate), one condition:

============ ===================================== =====================================
condition    imposed                               port (input → output)
============ ===================================== =====================================
``free``     effort flux = 0 (natural)             none
``force``    effort flux = ``u``, uniform on the   traction (N/m, W/m² …) →
             part (natural)                        :math:`\int_\Gamma e\,ds` (m²/s …)
``nodal``    a point effort on every node of the   nodal force (N …) → nodal flow
             part (natural)                        (m/s …); for boundary control
``fixed``    flow = 0 (essential: dofs removed)    none
``velocity`` flow = ``u``, uniform on the part     flow (m/s …) → total reaction (N …)
             (essential)
============ ===================================== =====================================

A point port (``points={"tip": (x, y)}``) is a point effort at a location: the
input is a force (N), the output the flow there, :math:`e(x_0)`.  In every case
``u·y`` is the power delivered *into* the domain (docs/design.md).

A node shared by two parts follows the stronger condition: ``fixed`` before
``velocity`` before the natural ones; between two ``velocity`` parts, the first
listed keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps

from ...errors import ModelError
from .domain import Domain, require_skfem
from .pfem import PortBlock

__all__ = ["CONDITIONS", "field_ports", "conditions_by_part"]

CONDITIONS = ("free", "force", "nodal", "fixed", "velocity")


def conditions_by_part(domain: Domain, boundary: Mapping[str, str] | str,
                       words: Mapping[str, str] | Sequence[str], model: str
                       ) -> dict[str, str]:
    """``{part: condition}`` from one condition for every part or a mapping, each part
    checked against the domain and each word against ``words``; a mapping ``words``
    also translates (a model's word → a condition of this module)."""
    if isinstance(boundary, str):
        boundary = {p: boundary for p in domain.parts}
    if not isinstance(boundary, Mapping):
        raise ModelError(f"{model}: boundary must be a condition name or a mapping "
                         "{part: condition}")
    out = {}
    for part, word in boundary.items():
        domain.part(part)
        if word not in words:
            raise ModelError(f"{model}: boundary part {part!r}: condition {word!r} is not one "
                             f"of {', '.join(words)}")
        out[part] = words[word] if isinstance(words, Mapping) else word
    return out


def _dofs(basis: Any, facets: np.ndarray) -> np.ndarray:
    return np.unique(basis.get_dofs(facets).flatten())


def field_ports(domain: Domain, basis: Any, field: str, conditions: Mapping[str, str],
                *, effort: str, flow: str, units: tuple[str, str, str, str] = ("", "", "", ""),
                points: Mapping[str, Sequence[float]] | None = None, model: str = "model",
                ) -> tuple[list[PortBlock], np.ndarray]:
    """The ports and fixed dofs of one :math:`H^1` field (module docstring).

    ``conditions`` maps part names to condition names (parts not named are
    ``free``); ``effort`` / ``flow`` prefix the port names (``F_top`` in,
    ``v_top`` out); ``units`` are those of (traction, integrated flow, point force,
    flow).  Returns ``(ports, fixed dofs)``.
    """
    sk = require_skfem()
    for part, cond in conditions.items():
        domain.part(part)
        if cond not in CONDITIONS:
            raise ModelError(f"{model}: boundary part {part!r}: condition {cond!r} is not one of "
                             f"{', '.join(CONDITIONS)}")
    taken = np.zeros(basis.N, dtype=bool)
    fixed = [_dofs(basis, domain.part(p)) for p, c in conditions.items() if c == "fixed"]
    fixed_dofs = np.unique(np.concatenate(fixed)) if fixed else np.zeros(0, np.int64)
    taken[fixed_dofs] = True
    traction, integrated, force, flow_unit = units
    ports: list[PortBlock] = []
    for part, cond in conditions.items():
        facets = domain.part(part)
        if cond == "velocity":
            dofs = _dofs(basis, facets)
            dofs = dofs[~taken[dofs]]
            if dofs.size == 0:
                raise ModelError(f"{model}: boundary part {part!r} has no node left to drive "
                                 "(all are fixed or driven by another part)")
            taken[dofs] = True
            ports.append(PortBlock(f"{flow}_{part}", f"{effort}_{part}", field,
                                   sps.csr_array(np.ones((dofs.size, 1))), dofs,
                                   flow_unit, force, f"{flow} imposed on {part}"))
    for part, cond in conditions.items():
        facets = domain.part(part)
        if cond == "force":
            fb = sk.FacetBasis(domain.mesh, basis.elem, facets=facets)

            @sk.LinearForm
            def trace(v: Any, w: Any) -> Any:
                return v

            B = sk.asm(trace, fb).reshape(-1, 1)
            ports.append(PortBlock(f"{effort}_{part}", f"{flow}_{part}", field,
                                   sps.csr_array(B), None, traction, integrated,
                                   f"uniform {effort} on {part}"))
        elif cond == "nodal":
            dofs = _dofs(basis, facets)
            dofs = dofs[~taken[dofs]]
            B = sps.csr_array((np.ones(dofs.size), (dofs, np.arange(dofs.size))),
                              shape=(basis.N, dofs.size))
            ports.append(PortBlock(f"{effort}_{part}", f"{flow}_{part}", field, B, None,
                                   force, flow_unit, f"point {effort} at each node of {part}"))
    for name, xy in (points or {}).items():
        x0 = np.asarray(xy, dtype=float).reshape(domain.dim, 1)
        try:
            probe = basis.probes(x0)
        except Exception as exc:  # skfem cannot locate the point
            raise ModelError(f"{model}: point {name!r} at {tuple(x0.ravel())} is not in the "
                             "domain") from exc
        B = sps.csr_array(probe).T
        if abs(B.sum() - 1.0) > 1e-8:
            raise ModelError(f"{model}: point {name!r} at {tuple(x0.ravel())} is not in the "
                             "domain")
        ports.append(PortBlock(f"{effort}_{name}", f"{flow}_{name}", field, B, None, force,
                               flow_unit, f"point {effort} at {name}"))
    return ports, fixed_dofs
