r"""pyMOR's ``PHLTIModel`` to and from the library.

pyMOR (``pymor.models.iosys.PHLTIModel``) uses the layout of the benchmark collection,

.. math::
    E\dot x = (J - R)Qx + (G - P)u, \qquad y = (G + P)^\top Qx + (S - N)u,
    \qquad \Gamma = \begin{bmatrix} J & G \\ -G^\top & N \end{bmatrix} = -\Gamma^\top,

so its ``N`` is the library's :math:`-M` and the matrices map one to one onto
:class:`~porthamiltonian.linear_ph.LinearPH`.  Its operators are ``NumpyMatrixOperator``\ s
(dense or SciPy sparse) or, for the defaults, ``ZeroOperator`` (``P, S, N``) and
``IdentityOperator`` (``E, Q``); ``PHLTIModel.to_matrices()`` returns ``None`` for those,
which become zeros and identities here.  pyMOR has no names for states and ports: the
library's defaults (``x0``, …, ``u0``, …) come back.  A DescriptorPHS goes to pyMOR with
its multipliers as states (singular ``E``, :mod:`porthamiltonian.linear_ph`).

pyMOR is an optional extra: ``pip install 'porthamiltonian[mor]'``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps

from .._matrices import to_dense
from ..descriptor import DescriptorPHS
from ..errors import ModelError
from ..linear_ph import LinearPH, is_identity, linear_ph
from ..phs import PHS

__all__ = ["to_pymor", "from_pymor"]

INSTALL = "pip install 'porthamiltonian[mor]' (or pip install pymor)"


def _iosys() -> Any:
    try:
        from pymor.models import iosys
    except ImportError as exc:
        raise ModelError(f"pyMOR is an optional extra and is not installed: {INSTALL}") from exc
    return iosys


def to_pymor(system: Any) -> Any:
    """A ``pymor.models.iosys.PHLTIModel`` of a linear PHS, DescriptorPHS or LinearPH.

    Zero ``P, S, N`` and identity ``E, Q`` are passed as ``None`` (pyMOR's zero and
    identity operators, cheaper in its algorithms); sparse matrices stay sparse.
    """
    iosys = _iosys()
    lin = linear_ph(system)
    mats: dict[str, Any] = {}
    for key, M in lin.matrices().items():
        M = sps.csc_array(M) if sps.issparse(M) else np.asarray(M, dtype=float)
        if key in ("P", "S", "N") and _is_zero(M):
            M = None
        elif (key == "E" and not lin.descriptor) or (key == "Q" and is_identity(M)):
            M = None
        mats[key] = M
    return iosys.PHLTIModel.from_matrices(**mats, name=lin.name or None)


def from_pymor(model: Any, *, check: bool = True) -> PHS | DescriptorPHS:
    """The library's model of a pyMOR ``PHLTIModel`` (matrices as they are) or of a
    passive ``LTIModel`` (written in pH form by
    :func:`~porthamiltonian.export.passive.from_state_space`, which needs a minimal
    model with an invertible ``E``).  A parametric model must be given ``mu`` first
    (``model.with_(…)`` or evaluate its operators)."""
    iosys = _iosys()
    if getattr(model, "parameters", None):
        raise ModelError(f"the pyMOR model depends on the parameters {dict(model.parameters)};"
                         " fix their values first (e.g. assemble the operators at mu)")
    if isinstance(model, iosys.PHLTIModel):
        return _lin_from_phlti(model).to_system(check=check)
    if isinstance(model, iosys.LTIModel):
        from .passive import from_state_space

        if model.sampling_time:
            raise ModelError(f"the pyMOR model is discrete-time (sampling_time = "
                             f"{model.sampling_time}); a pH model is continuous-time")
        A, B, C, D, E = (None if M is None else to_dense(M) for M in model.to_matrices())
        return from_state_space(A, B, C, D, E=E, name=_name(model))
    raise ModelError(f"from_pymor needs a pyMOR PHLTIModel or LTIModel, not a "
                     f"{type(model).__name__}")


def _lin_from_phlti(model: Any) -> LinearPH:
    J, R, G, P, S, N, E, Q = model.to_matrices()
    n, m = J.shape[0], G.shape[1]
    sparse = sps.issparse(J)

    def keep(M: Any, default: Any) -> Any:
        if M is None:
            return default
        return sps.csr_array(M) if sparse else to_dense(M)

    eye = sps.eye_array(n, format="csr") if sparse else np.eye(n)
    zero = (lambda r, c: sps.csr_array((r, c))) if sparse else (lambda r, c: np.zeros((r, c)))
    for key, M in (("J", J), ("R", R), ("G", G), ("P", P), ("S", S), ("N", N), ("E", E),
                   ("Q", Q)):
        if M is not None and np.iscomplexobj(M.data if sps.issparse(M) else M):
            raise ModelError(f"pyMOR's {key} is complex; the library's pH models are real")
    return LinearPH(E=keep(E, eye), J=keep(J, None), R=keep(R, None), Q=keep(Q, eye),
                    G=keep(G, None), P=keep(P, zero(n, m)), S=keep(S, zero(m, m)),
                    N=keep(N, zero(m, m)), name=_name(model))


def _name(model: Any) -> str:
    name = str(getattr(model, "name", "") or "")
    return "" if name in ("PHLTIModel", "LTIModel") else name  # pyMOR's default name


def _is_zero(M: Any) -> bool:
    return (M.count_nonzero() == 0) if sps.issparse(M) else not np.any(M)

