"""Model files: reading YAML/JSON, checking them, and the :class:`Model` they give.

See :mod:`porthamiltonian.io.model` for the format and the conventions.
"""

from __future__ import annotations

from .model import SECTIONS, Model, load_dict, load_model, register_section, validate_model
from .schema import Checker, Section

__all__ = [
    "Model",
    "load_model",
    "load_dict",
    "validate_model",
    "register_section",
    "SECTIONS",
    "Checker",
    "Section",
]
