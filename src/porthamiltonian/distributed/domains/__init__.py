"""Distributed port-Hamiltonian systems on 2-D and 3-D domains (scikit-fem meshes).

Domains: :func:`rectangle`, :func:`box`, :func:`disk`, :func:`load_mesh` (gmsh and
other files through meshio).  Models (each returns a :class:`DomainModel` whose
``.system`` is a sparse PHS or DescriptorPHS with ports on named boundary parts and
points): :func:`wave` / :func:`membrane`, :func:`heat` (with decay rates),
:func:`maxwell_tm` / :func:`maxwell_te` (2-D cavities), :func:`mindlin` /
:func:`kirchhoff` (plates).  The discretization is the partitioned
finite-element method (:mod:`.pfem`) with the spaces of :mod:`.spaces`.
"""

from .domain import Domain, box, disk, load_mesh, rectangle
from .heat import HeatModel, heat
from .kirchhoff import kirchhoff
from .maxwell import maxwell_te, maxwell_tm
from .mindlin import mindlin
from .model import DomainModel
from .wave import membrane, wave

__all__ = ["Domain", "DomainModel", "HeatModel", "box", "disk", "heat", "kirchhoff",
           "load_mesh", "maxwell_te", "maxwell_tm", "membrane", "mindlin", "rectangle", "wave"]
