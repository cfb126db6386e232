"""Shared by the Exudyn comparisons of the planar beam: a cantilever of Exudyn's 2-D
geometrically exact beam elements (``ObjectBeamGeometricallyExact2D``), clamped at x = 0."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def clamped_beam(mbs: Any, elements: int, length: float, rhoA: float, rhoI: float,
                 EI: float, EA: float, GA: float,
                 root_angle: Callable[[float], float] | None = None) -> list[Any]:
    """Add ``elements`` equal elements along the x-axis to ``mbs`` and clamp the first
    node (x, y and rotation); ``root_angle(t)`` (rad) drives the clamp's rotation instead
    of holding it at 0.  Returns the node numbers, root first."""
    from exudyn.itemInterface import (
        CoordinateConstraint,
        MarkerNodeCoordinate,
        NodePointGround,
        NodeRigidBody2D,
        ObjectBeamGeometricallyExact2D,
    )

    le = length / elements
    nodes = [mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[i * le, 0.0, 0.0]))
             for i in range(elements + 1)]
    for i in range(elements):
        mbs.AddObject(ObjectBeamGeometricallyExact2D(
            nodeNumbers=[nodes[i], nodes[i + 1]], length=le, massPerLength=rhoA,
            crossSectionInertia=rhoI, bendingStiffness=EI, axialStiffness=EA,
            shearStiffness=GA))
    ground = mbs.AddMarker(MarkerNodeCoordinate(
        nodeNumber=mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0])), coordinate=0))
    for c in range(3):  # x, y and the rotation of the first node
        marker = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nodes[0], coordinate=c))
        extra = {} if c < 2 or root_angle is None else {
            "offsetUserFunction": lambda mbs, t, item, offset: float(root_angle(t))}
        mbs.AddObject(CoordinateConstraint(markerNumbers=[ground, marker], **extra))
    return nodes
