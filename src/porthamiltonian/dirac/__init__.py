"""Linear Dirac structures on named scalar ports.

A Dirac structure ``D`` on ``n`` scalar ports is a subspace of ``Rⁿ × Rⁿ`` (flows
``f``, efforts ``e``) with ``eᵀ f = 0`` on ``D`` and ``dim D = n``; power ``eᵀ f``
is counted *into* the structure.  See :class:`DiracStructure` and docs/dirac.md.

Modules: ``_structure`` (the class, checks, equality, ports), ``_forms``
(input-output, image and constraint forms), ``_compose`` (composition, direct sum,
tensor product), ``_library`` (junctions, transformer, gyrator), ``_checks`` (the
Dirac conditions), ``_protocol`` (what those helpers read from a structure, so they
need not import the class: the imports run ``_linalg`` → ``_protocol`` → helpers →
``_structure``), ``_linalg`` (numeric, sparse and symbolic rank / elimination helpers),
``_integrability`` (Courant-tensor closedness of a state-modulated structure, the
Jacobi identity of a skew ``J(x)``).
"""

from __future__ import annotations

from ._forms import DiracConstraints, InputOutputForm
from ._integrability import IntegrabilityResult, courant_tensor, is_integrable, jacobi_identity
from ._structure import DiracStructure

__all__ = ["DiracStructure", "InputOutputForm", "DiracConstraints", "IntegrabilityResult",
           "is_integrable", "jacobi_identity", "courant_tensor"]
