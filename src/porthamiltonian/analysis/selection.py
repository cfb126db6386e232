"""Which inputs and outputs an analysis looks at.

Inputs are chosen by name (the base name of a multi-dimensional port selects all its
components, ``"F"`` → ``F[0], F[1]``) or index.  Outputs may be port outputs, states,
or co-energy variables ``"dH/d<state>"`` (∂H/∂x_i: a capacitor voltage, a velocity);
they resolve to tokens ``("y" | "x" | "z", position)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..errors import ModelError
from ..naming import resolve

#: Prefix of a co-energy output selector: ``"dH/dp"`` is ∂H/∂p.
COENERGY = "dH/d"

Selector = str | int | Sequence[str | int] | None


def positions(sel: Selector, names: Sequence[str], what: str) -> list[int]:
    if sel is None:
        return list(range(len(names)))
    items = [sel] if isinstance(sel, (str, int, np.integer)) else list(sel)
    out: list[int] = []
    for item in items:
        if isinstance(item, (int, np.integer)):
            if not 0 <= int(item) < len(names):
                raise ModelError(f"{what} index {item} out of range: the system has "
                                 f"{len(names)} {what}s ({', '.join(names)})")
            out.append(int(item))
        else:
            out.extend(resolve(str(item), names, what))
    return out


def output_tokens(sel: Selector, outputs: Sequence[str], states: Sequence[str],
                   has_h: bool) -> list[tuple[str, int]]:
    """Resolve output selectors to ``("y" | "x" | "z", position)`` tokens."""
    if sel is None:
        return [("y", i) for i in range(len(outputs))]
    items = [sel] if isinstance(sel, (str, int, np.integer)) else list(sel)
    tokens: list[tuple[str, int]] = []
    for item in items:
        if isinstance(item, (int, np.integer)):
            tokens += [("y", i) for i in positions(int(item), outputs, "output")]
        elif item in outputs or any(o.startswith(f"{item}[") for o in outputs):
            tokens += [("y", i) for i in resolve(item, outputs, "output")]
        elif item.startswith(COENERGY):
            if not has_h:
                raise ModelError(f"output {item!r}: this system has no Hamiltonian; select "
                                 "outputs or states")
            tokens += [("z", i) for i in resolve(item[len(COENERGY):], states, "state")]
        elif item in states or any(s.startswith(f"{item}[") for s in states):
            tokens += [("x", i) for i in resolve(item, states, "state")]
        else:
            raise ModelError(
                f"unknown output {item!r}: choose an output ({', '.join(outputs)}), a "
                f"state ({', '.join(states[:8])}{'…' if len(states) > 8 else ''}) or "
                f"'{COENERGY}<state>' for a co-energy variable"
            )
    return tokens


def state_row(lin: Any, kind: str, i: int) -> np.ndarray:
    if kind == "x":
        row = np.zeros(lin.n_states)
        row[i] = 1.0
        return row
    Q = lin.Q
    return (Q[[i], :].toarray() if sps.issparse(Q) else np.asarray(Q)[i]).ravel()
