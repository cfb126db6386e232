"""Model files: reading YAML/JSON, checking them, and the :class:`Model` they give.

See :mod:`porthamiltonian.io.model` for the format and the conventions,
:mod:`porthamiltonian.io.build` for compiling a model to the IR (``build_system``), and
:mod:`porthamiltonian.io.simulation` for running a model's ``simulate:`` section.
"""

from __future__ import annotations

from .model import SECTIONS, Model, load_dict, load_model, register_section, validate_model
from .schema import Checker, Section
from .simulation import simulate_model, simulation_arguments

__all__ = [
    "Model",
    "load_model",
    "load_dict",
    "validate_model",
    "simulate_model",
    "simulation_arguments",
    "register_section",
    "SECTIONS",
    "Checker",
    "Section",
]
