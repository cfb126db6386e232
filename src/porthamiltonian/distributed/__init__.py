"""Distributed-parameter port-Hamiltonian systems in one space dimension.

Models (each returns a :class:`DistributedModel` whose ``.system`` is a sparse PHS with
named boundary ports): :func:`wave`, :func:`string`, :func:`rod`,
:func:`transmission_line`, :func:`heat`, :func:`timoshenko`, :func:`planar_beam`
(geometrically exact; sparse numeric with a state-affine J(x), or symbolic for small
meshes), :func:`spatial_beam` (3-D geometrically exact, sparse numeric, straight or
curved reference).  The discretization is a
partitioned finite-element method of selectable degree (:mod:`.fem`).
"""

from .boundary import Condition
from .fem import EffortField, FlowField, Param, discretize
from .heat import heat
from .line import transmission_line
from .mesh import Mesh, make_mesh
from .model import DistributedModel
from .planar_beam import planar_beam
from .spatial_beam import spatial_beam
from .timoshenko import timoshenko
from .wave import rod, string, wave

__all__ = [
    "Condition", "DistributedModel", "EffortField", "FlowField", "Mesh", "Param",
    "discretize", "heat", "make_mesh", "planar_beam", "rod", "spatial_beam", "string",
    "timoshenko",
    "transmission_line", "wave",
]
