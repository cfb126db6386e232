"""Errors located in a model file: the file (and section) put before the message."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import ModelError

__all__ = ["located"]


@contextmanager
def located(model: Any, section: str = "") -> Iterator[None]:
    """Prefix the model file (and section) to the message and problems of a ModelError."""
    where = f"{model.path or model.name}: {section}"
    try:
        yield
    except ModelError as err:
        raise type(err)(f"{where}{err}", problems=[f"{where}{p}" for p in err.problems]) \
            from None
