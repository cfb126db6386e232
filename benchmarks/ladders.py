"""The test systems of the assembly benchmarks, written once (the tests load this module
too, through ``tests/network/ladder_builders.py``):

- an **RLC ladder** of ``n`` sections — a series R and L on a 1-junction, then a shunt C
  on a 0-junction — driven by a voltage source and terminated by a resistor, as one
  bond graph (:func:`ladder_bondgraph`) and as a component network whose junctions are
  joined by name (:func:`ladder_network`); ``2n`` states (L fluxes, C charges);
- a **mass–spring–damper chain** of ``n`` sections between a force source and a wall,
  as a network of library components (:func:`chain_network`) and as one bond graph
  with each mass on a 1-junction and spring ∥ damper on a 0–1–0 bridge between masses
  (Karnopp, Margolis & Rosenberg, *System Dynamics*, §4.2) (:func:`chain_bondgraph`).

SI units: R in Ω, L in H, C in F; m in kg, k in N/m, b in N·s/m.
"""

from __future__ import annotations

from porthamiltonian.bondgraph import BondGraph
from porthamiltonian.library import electrical as E
from porthamiltonian.library import mechanical as M
from porthamiltonian.network import Network

__all__ = ["ladder_bondgraph", "ladder_network", "chain_bondgraph", "chain_network"]


def ladder_bondgraph(n: int, R: float = 1.0, L: float = 1e-3, C: float = 1e-6) -> BondGraph:
    """The RLC ladder as one bond graph: elements ``u``, ``s<k>``/``R<k>``/``L<k>`` (the
    series 1-junction), ``p<k>``/``C<k>`` (the shunt 0-junction), ``RL``."""
    bg = BondGraph(f"ladder{n}", parameters={"R": R, "L": L, "C": C})
    bg.add("u", "Se")
    prev = "u"
    for k in range(n):
        bg.add(f"s{k}", "1")
        bg.add(f"R{k}", "R", r="R")
        bg.add(f"L{k}", "I", i="L")
        bg.add(f"p{k}", "0")
        bg.add(f"C{k}", "C", c="C")
        for a, b in ((prev, f"s{k}"), (f"s{k}", f"R{k}"), (f"s{k}", f"L{k}"),
                     (f"s{k}", f"p{k}"), (f"p{k}", f"C{k}")):
            bg.connect(a, b)
        prev = f"p{k}"
    bg.add("RL", "R", r="R")
    bg.connect(prev, "RL")
    return bg


def ladder_network(n: int, R: float = 1.0, L: float = 1e-3, C: float = 1e-6) -> Network:
    """The same ladder as a network; the junctions are named ``s<k>`` and ``p<k>`` like
    the bond graph's, and the states ``L<k>.phi``, ``C<k>.q``."""
    net = Network("ladder")
    net.add("u", E.VoltageSource())
    for k in range(n):
        net.add(f"R{k}", E.Resistor(R=R))
        net.add(f"L{k}", E.Inductor(L=L))
        net.add(f"C{k}", E.Capacitor(C=C))
        net.junction("1", "u.p" if k == 0 else f"p{k - 1}", f"R{k}.p", f"L{k}.p", name=f"s{k}")
        net.junction("0", f"s{k}", f"C{k}.p", name=f"p{k}")
    net.add("RL", E.Resistor(R=R))
    net.junction("1", f"p{n - 1}", "RL.p")
    return net


def chain_network(n: int, m: float = 1.0, k: float = 2.0, b: float = 0.1) -> Network:
    """The chain as a network: ``F`` (force source), ``m<i>``, ``k<i>``, ``d<i>``, ``wall``;
    spring and damper ``i`` join mass ``i`` to mass ``i + 1`` (the last to the wall)."""
    net = Network("chain")
    net.add("F", M.ForceSource())
    for i in range(n):
        net.add(f"m{i}", M.Mass(m=m))
        net.add(f"k{i}", M.Spring(k=k))
        net.add(f"d{i}", M.Damper(b=b))
    net.add("wall", M.Fixed())
    net.junction("1", "F.p", "m0.p", "k0.a", "d0.a")
    for i in range(1, n):
        net.junction("1", f"k{i-1}.b", f"d{i-1}.b", f"m{i}.p", f"k{i}.a", f"d{i}.a")
    net.junction("1", f"k{n-1}.b", f"d{n-1}.b", "wall.p")
    return net


def chain_bondgraph(n: int, m: float = 1.0, k: float = 2.0, b: float = 0.1) -> BondGraph:
    """The chain as one bond graph: mass ``i`` is ``I`` element ``m<i>`` on 1-junction
    ``v<i>``; spring ``k<i>`` (C) and damper ``d<i>`` (R) share 1-junction ``r<i>``,
    bridged by 0-junction ``n<i>``; the wall is ``Sf`` ``ground`` (zero velocity)."""
    bg = BondGraph("chain", parameters={"m": m, "k": k, "b": b})
    bg.add("F", "Se")
    for i in range(n):
        for name, kind, par in ((f"v{i}", "1", {}), (f"m{i}", "I", {"i": "m"}),
                                (f"n{i}", "0", {}), (f"r{i}", "1", {}),
                                (f"k{i}", "C", {"c": "1/k"}), (f"d{i}", "R", {"r": "b"})):
            bg.add(name, kind, **par)
    bg.add("ground", "Sf")
    bg.add("vw", "0")
    bg.connect("F", "v0")
    for i in range(n):
        for a, c in ((f"v{i}", f"m{i}"), (f"v{i}", f"n{i}"), (f"n{i}", f"r{i}"),
                     (f"r{i}", f"k{i}"), (f"r{i}", f"d{i}")):
            bg.connect(a, c)
        bg.connect(f"n{i}", f"v{i + 1}" if i + 1 < n else "vw")
    bg.connect("ground", "vw")
    return bg
