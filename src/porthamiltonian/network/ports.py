r"""Power ports of network components.

A power port carries an effort :math:`e` and a flow :math:`f` whose product is a
power (W).  Every port of a component is described by

* its **domain** (which fixes the physical meaning and the SI units of ``e`` and
  ``f``, table :data:`DOMAINS`; the names of :data:`porthamiltonian.quantities.DOMAINS`,
  such as ``rotational``, are accepted too);
* its **dimension** (a multi-dimensional port is ``dim`` scalar ports);
* its **orientation**: ``"in"`` (the default, passive sign convention) means that
  :math:`e^\top f` is the power flowing *into* the component; ``"out"`` that it is
  the power flowing *out of* it (sources, as the bond-graph half-arrow pointing
  out of Se and Sf, docs/design.md);
* its **causality**: which of ``e`` and ``f`` is an input of the component's PHS
  (``"effort"``: the component receives the effort and returns the flow).

Inside the network every port is normalised to the passive convention: the flow
:math:`f_\mathrm{in} = f` (orientation ``"in"``) or :math:`-f` (``"out"``), so that
:math:`e^\top f_\mathrm{in}` is always the power into the component.  With the
component's input ``u`` and output ``y`` of that port, :math:`u^\top y =
e^\top f_\mathrm{in}` (docs/design.md: ``uᵀy`` is the power delivered into the system).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ModelError
from ..quantities import Quantity, domain

#: domain -> (effort name, effort unit, flow name, flow unit)
DOMAINS: dict[str, tuple[str, str, str, str]] = {
    "electrical": ("voltage", "V", "current", "A"),
    "translation": ("force", "N", "velocity", "m/s"),
    "rotation": ("torque", "N·m", "angular velocity", "rad/s"),
    "hydraulic": ("pressure", "Pa", "volume flow", "m³/s"),
    "thermal": ("temperature", "K", "entropy flow", "W/K"),
    "chemical": ("chemical potential", "J/mol", "molar flow", "mol/s"),
    "magnetic": ("magnetomotive force", "A", "flux rate", "V"),
    "generic": ("effort", "-", "flow", "-"),
}


#: names of :data:`porthamiltonian.quantities.DOMAINS` where this table says otherwise
_ALIASES = {"translational": "translation", "rotational": "rotation", "mechanical": "translation",
            "electric": "electrical"}


def network_domain(name: str) -> str:
    """The key of :data:`DOMAINS` for a domain name of :mod:`porthamiltonian.quantities`
    (``"rotational"`` → ``"rotation"``); other names unchanged."""
    return _ALIASES.get(name, name)


def port_quantities(port: Port) -> tuple[Quantity, Quantity]:
    """(input, output) :class:`~porthamiltonian.quantities.Quantity` of a port: the
    effort and the flow of its domain, in the order of its causality."""
    d = domain(port.domain)
    return (d.effort, d.flow) if port.causality == "effort" else (d.flow, d.effort)


@dataclass(frozen=True)
class Port:
    """A named power port of a component.

    Parameters
    ----------
    name:
        Port name within its component (``"p"``, ``"shaft"``).
    domain:
        A key of :data:`DOMAINS`; only ports of the same domain can be connected.
    causality:
        ``"effort"`` if the component's PHS takes the port's effort as input (and
        returns its flow), ``"flow"`` for the converse.
    orientation:
        ``"in"``: ``e·f`` is the power into the component (passive convention);
        ``"out"``: the power out of it.
    dim:
        Number of scalar efforts (and flows).
    inputs:
        Names of the component PHS inputs of this port (default: the port name,
        or ``name[0]`` … for ``dim > 1``).
    """

    name: str
    domain: str = "generic"
    causality: str = "effort"
    orientation: str = "in"
    dim: int = 1
    inputs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "domain", network_domain(self.domain))
        if self.domain not in DOMAINS:
            raise ModelError(
                f"port {self.name!r}: unknown domain {self.domain!r}; use one of "
                f"{', '.join(DOMAINS)}"
            )
        if self.causality not in ("effort", "flow"):
            raise ModelError(
                f"port {self.name!r}: causality must be 'effort' or 'flow' (the variable "
                f"the component receives), got {self.causality!r}"
            )
        if self.orientation not in ("in", "out"):
            raise ModelError(
                f"port {self.name!r}: orientation must be 'in' (power into the component) "
                f"or 'out', got {self.orientation!r}"
            )
        if not isinstance(self.dim, int) or self.dim < 1:
            raise ModelError(f"port {self.name!r}: dim must be a positive integer")
        if not self.inputs:
            names = (self.name,) if self.dim == 1 else tuple(
                f"{self.name}[{k}]" for k in range(self.dim))
            object.__setattr__(self, "inputs", names)
        if len(self.inputs) != self.dim:
            raise ModelError(
                f"port {self.name!r}: {len(self.inputs)} inputs named for dimension {self.dim}"
            )

    @property
    def effort(self) -> tuple[str, str]:
        """(name, SI unit) of the effort."""
        d = DOMAINS[self.domain]
        return d[0], d[1]

    @property
    def flow(self) -> tuple[str, str]:
        """(name, SI unit) of the flow."""
        d = DOMAINS[self.domain]
        return d[2], d[3]

    @property
    def sign(self) -> int:
        """``+1`` for orientation ``"in"``, ``-1`` for ``"out"``: ``f_in = sign · f``."""
        return 1 if self.orientation == "in" else -1

    def describe(self) -> str:
        e, eu = self.effort
        f, fu = self.flow
        return (f"{self.name}: {self.domain}, {e} [{eu}] / {f} [{fu}], dim {self.dim}, "
                f"{self.causality} in, power {'into' if self.sign > 0 else 'out of'} "
                "the component")
