"""Closed-form derivatives of the force elements' terms (mechanics.forces) against
central differences, the assembled Newton matrix ∂f/∂x of the stiff flyball governor
(IFToMM A05) against central differences of f, and its per-step power balance."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from mechanics_models import raw_poses
from threadpoolctl import threadpool_limits

from porthamiltonian.io import load_model, simulate_model
from porthamiltonian.io.mechanism_run import _mechanism
from porthamiltonian.mechanics.forces import Bushing, ForceElement, SpringDamper, WrenchPort

MODELS = Path(__file__).resolve().parents[2] / "examples" / "models"
A05 = MODELS / "iftomm_a05_flyball_governor.yaml"


def _central(fun, arr: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """∂fun/∂arr by central differences (step 1e-6), (*shape, *arr.shape)."""
    out = np.zeros((*shape, *arr.shape))
    for idx in np.ndindex(*arr.shape):
        ap, am = arr.copy(), arr.copy()
        ap[idx] += 1e-6
        am[idx] -= 1e-6
        out[(..., *idx)] = (fun(ap) - fun(am)) / 2e-6
    return out


ELEMENTS = [
    SpringDamper("sd", "a", "b", [0.1, 0.2, 0], [0, 0.1, 0.3], stiffness=3.0, damping=2.5,
                 rest_length=0.4),
    SpringDamper("sd0", "a", "b", [0.1, -0.2, 0], [0.3, 0.1, 0.3], damping=4.0),
    Bushing("bu", "a", "b", [0.1, 0, 0.2], [0, 0.2, -0.1], stiffness=1.0,
            damping=[1, 2, 3, 4, 5, 6]),
    WrenchPort("wp", "a", "b", [0.1, 0, 0.2], [0, 0.2, -0.1]),
    WrenchPort("ww", "a", "b", [0.1, 0, 0.2], [0, 0.2, -0.1], axes="world"),
]


@pytest.mark.parametrize("element", ELEMENTS, ids=lambda e: e.name)
def test_term_jacobian_is_the_derivative_of_the_term(element: ForceElement) -> None:
    """The closed forms of ∂term/∂q (the columns' derivatives through n = d/|d| and
    R₂ᵀR₁) and ∂term/∂T equal central differences of the term to 1e-7 relative, at
    raw non-orthonormal poses and random twists, efforts and inputs."""
    rng = np.random.default_rng(7)
    for _ in range(3):
        q, T, w = raw_poses(rng, 1e-2), rng.normal(size=(2, 6)), rng.normal(size=(2, 6))
        u = rng.normal(size=len(element.inputs))
        dq, dT = element.term_jacobian(q, T, w, u)
        fq = _central(lambda a, T=T, w=w, u=u: element.term(a, T, w, u), q, (2, 6))
        fT = _central(lambda a, q=q, w=w, u=u: element.term(q, a, w, u), T, (2, 6))
        scale = np.abs(fq).max()
        assert scale > 0.1                                       # a term that varies
        assert np.abs(dq - fq).max() <= 1e-7 * scale
        assert np.abs(dT - fT).max() <= 1e-7 * max(1.0, np.abs(fT).max())


def _a05_dae() -> tuple[object, np.ndarray]:
    """The governor's DAE and a state 0.05 s into the run (rods and slider moving)."""
    model = load_model(A05)
    with threadpool_limits(limits=1):
        res = simulate_model(model, t_end=0.05)
    return _mechanism(model).assemble(), np.asarray(res.x[-1])


def test_a05_newton_matrix_is_the_derivative_of_f() -> None:
    """∂f/∂x of the governor (rigid part + the two stiff spring–dampers, both ends on
    moving bodies: their pose and momentum columns through T = M⁻¹p) equals central
    differences of f at fixed (w, λ, u), to 1e-7 of its largest entry."""
    dae, x = _a05_dae()
    rng = np.random.default_rng(11)
    w = dae.z(x) + 0.1 * rng.normal(size=dae.n)
    lam, u = rng.normal(size=dae.k), np.zeros(dae.m)
    A = np.asarray(dae.f_x(x, w, lam, u))
    fd = np.zeros_like(A)
    for j in range(dae.n):
        h = 1e-6 * max(1.0, abs(x[j]))
        xp, xm = x.copy(), x.copy()
        xp[j] += h
        xm[j] -= h
        fd[:, j] = (dae.f(xp, w, lam, u) - dae.f(xm, w, lam, u)) / (2 * h)
    scale = np.abs(fd).max()
    assert scale > 1e3                                            # the stiff dampers
    assert np.abs(A - fd).max() <= 1e-7 * scale


def test_a05_power_balance_per_step() -> None:
    """ΔH = h(uᵀy − z̄ᵀ𝓡z̄) per step to round-off (the discrete gradient; no inputs, so
    ΔH is minus the dampers' work), and the dampers take energy at every step."""
    model = load_model(A05)
    with threadpool_limits(limits=1):
        res = simulate_model(model, t_end=0.04)
    assert len(res.t) == 21
    dH = np.diff(res.H)
    assert np.all(dH < 0)
    assert np.abs(res.power_residual).max() <= 1e-12 * res.H[0]
