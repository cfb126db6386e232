"""The value references of an FMU's variables, one table for the XML and the C code.

FMI identifies a variable by its value reference (FMI 3.0 §2.4.7, FMI 2.0 §2.2.7); the
model description (:mod:`.description`) and the C runtime (``phx_config.h``, written
here) must agree on them, so both are made from :class:`Layout`::

    0                 time
    1 … n             states x
    n+1 … 2n          their derivatives dx/dt (declared for Model Exchange)
    2n+1 …            parameters, then inputs u, outputs y,
    then              H, the supplied power uᵀy, the dissipated power d, the energy
                      residual of the last communication step (Co-Simulation)
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import FmuModel

__all__ = ["Layout", "config_h", "METHODS"]

#: co-simulation steps: name → code in the C runtime (phx.h)
METHODS = {"midpoint": 0, "discrete_gradient": 1}


@dataclass(frozen=True)
class Layout:
    """Value references of ``n`` states, ``m`` ports and ``n_params`` parameters."""

    n: int
    m: int
    n_params: int

    time = 0
    x = 1

    @property
    def dx(self) -> int:
        return 1 + self.n

    @property
    def p(self) -> int:
        return 1 + 2 * self.n

    @property
    def u(self) -> int:
        return self.p + self.n_params

    @property
    def y(self) -> int:
        return self.u + self.m

    @property
    def H(self) -> int:
        return self.y + self.m

    @property
    def supplied(self) -> int:
        return self.H + 1

    @property
    def dissipated(self) -> int:
        return self.H + 2

    @property
    def residual(self) -> int:
        return self.H + 3


def config_h(model: FmuModel, layout: Layout, *, token: str, method: str, dt: float,
             nq: int) -> str:
    """``phx_config.h``: sizes, value references and the co-simulation defaults."""
    refs = {"TIME": layout.time, "X": layout.x, "DX": layout.dx, "P": layout.p,
            "U": layout.u, "Y": layout.y, "H": layout.H, "SUPPLIED": layout.supplied,
            "DISSIPATED": layout.dissipated, "RESIDUAL": layout.residual}
    lines = ["/* Sizes and value references of this FMU (generated; see phx.h). */",
             "#ifndef PHX_CONFIG_H", "#define PHX_CONFIG_H",
             f"#define PHX_N {model.n}", f"#define PHX_M {model.m}",
             f"#define PHX_NP {len(model.parameters)}", f"#define PHX_NQ {nq}",
             f"#define PHX_METHOD {METHODS[method]}", f"#define PHX_DT {float(dt)!r}",
             # the token is made of hex digits and dashes only: safe in a C string
             f'#define PHX_TOKEN "{token}"']
    lines += [f"#define PHX_VR_{k} {v}u" for k, v in refs.items()]
    lines.append("#endif")
    return "\n".join(lines) + "\n"
