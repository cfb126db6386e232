"""The compiled midpoint step of rigid mechanisms (:mod:`porthamiltonian.mechanics.kernels`,
:mod:`~porthamiltonian.mechanics.fused`) against the generic NumPy step: the same
Newton matrix, the same trajectories, multipliers and energy bookkeeping to round-off,
for every joint kind with springs, dampers and inputs, a closed chain and a long chain
(banded reduced matrix)."""

import numpy as np
import pytest

from porthamiltonian import jit, simulate
from porthamiltonian.mechanics.assembly import MechanismDAE
from porthamiltonian.mechanics.joints import KINDS
from porthamiltonian.simulate.dae.midpoint import DAEMidpoint
from porthamiltonian.simulate.problem.inputs import make_signal

from .mechanics_models import four_bar, serial_chain, two_joints

pytestmark = pytest.mark.skipif(not jit.enabled(), reason="Numba switched off")

ACTUATED = [k for k in KINDS if KINDS[k]]


def _actuated(kind: str):
    mech = two_joints(kind)
    dof = mech.joints["j"].dof
    mech.add_actuator("j", stiffness=[3.0] * dof, damping=[0.4] * dof, setpoint=[0.2] * dof)
    mech.add_actuator("k", damping=[0.3] * dof)
    return mech


def _both(mech, t_end, dt, q0=None, v0=None, u=None):
    """The same run with the compiled and the NumPy engines."""
    fast = mech.assemble(q0)
    assert fast.engine == "compiled"
    slow = MechanismDAE(mech, fast.rows, engine="numpy")
    x0 = mech.initial_state(q0, v0)
    return [simulate(d, (0.0, t_end), x0, u=u, method="midpoint", dt=dt) for d in (fast, slow)]


def _agree(a, b, rel=1e-10):
    scale = np.abs(b.x).max()
    assert np.abs(a.x - b.x).max() <= rel * scale
    assert np.abs(a.lam - b.lam).max(initial=0.0) <= rel * np.abs(b.lam).max(initial=1.0)
    np.testing.assert_allclose(a.H, b.H, rtol=0, atol=rel * max(np.abs(b.H).max(), 1.0))
    np.testing.assert_allclose(a.work_supplied, b.work_supplied, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.work_dissipated, b.work_dissipated, rtol=0, atol=1e-12)
    assert np.abs(a.power_residual).max() < 1e-11 * max(np.abs(b.H).max(), 1.0)


@pytest.mark.parametrize("kind", ACTUATED)
def test_newton_matrix_equals_the_generic_step_jacobian(kind):
    """Solving with the compiled (pose-eliminated, banded) factors gives the Newton step
    of the generic dense Jacobian, at a random raw state (R not orthonormal) with random
    multipliers and inputs."""
    from porthamiltonian.mechanics import kernels as K
    from porthamiltonian.mechanics.fused import FusedMidpoint

    mech = _actuated(kind)
    dae = mech.assemble()
    rng = np.random.default_rng(7)
    x = mech.initial_state() + 0.1 * rng.standard_normal(dae.n)
    u = rng.standard_normal(dae.m)
    h = 0.01
    w = 0.01 * rng.standard_normal(dae.n + dae.k)
    signal = make_signal(dict(zip(dae.inputs, u, strict=True)), dae.inputs)
    generic = DAEMidpoint(MechanismDAE(mech, dae.rows, engine="numpy"), signal)
    F, Jac = generic._equations(0.0, x, h)
    expected = np.linalg.solve(np.asarray(Jac(w)), F(w))
    fused = FusedMidpoint(dae, signal)
    assert K.factor(x, w, h, u, fused.nb, fused.ns, *fused.data, fused.pstart, fused.pbody,
                    fused.iperm, fused.kl, fused.ku, fused.band, fused.ipiv, fused.Aqi,
                    fused.C, fused.Aoq) == K.OK
    r = np.empty(dae.n + dae.k)
    K.residual(x, w, h, u, fused.nb, fused.ns, *fused.data, r)
    np.testing.assert_allclose(r, F(w), rtol=0, atol=1e-13 * np.abs(F(w)).max())
    dw = np.empty_like(r)
    K._solve(r, fused.nb, fused.ns, fused.pstart, fused.pbody, fused.iperm, fused.kl,
             fused.ku, fused.band, fused.ipiv, fused.Aqi, fused.C, fused.Aoq, dw)
    np.testing.assert_allclose(dw, expected, rtol=0, atol=1e-10 * np.abs(expected).max())


@pytest.mark.parametrize("kind", ACTUATED)
def test_actuated_joints_same_trajectory_both_engines(kind):
    """Springs, dampers and a torque input on every joint kind: states, multipliers,
    energy and the work supplied/dissipated agree to round-off, ΔH = supplied −
    dissipated per step."""
    mech = _actuated(kind)
    dof = mech.joints["j"].dof
    names = [f"j.tau[{i}]" for i in range(dof)]

    u = {n: (lambda t, i=i: 0.5 * np.sin(3.0 * t + i)) for i, n in enumerate(names)}

    a, b = _both(mech, 0.3, 5e-3, q0={"j": [0.3] * dof}, v0={"k": [0.5] * dof}, u=u)
    _agree(a, b)
    assert np.abs(a.work_dissipated).sum() > 1e-3  # the dampers did work


def test_serial_chain_same_trajectory_both_engines():
    a, b = _both(serial_chain(3), 0.5, 1e-3, q0={"j0": 0.4, "j2": -0.3})
    _agree(a, b)
    assert np.abs(a.power_residual).max() < 1e-14


def test_four_bar_same_trajectory_both_engines():
    """A closed chain: redundant closure rows dropped, the loop kept to round-off."""
    mech = four_bar()
    a, b = _both(mech, 0.3, 2e-3, v0={"O": 6.0})
    _agree(a, b)
    dae = mech.assemble()
    gap = max(np.abs(dae.position_residual(x)).max() for x in a.x)
    assert gap < 1e-13


def test_long_chain_band_solver():
    """40 rods: the reduced matrix is banded (bandwidth independent of N) and the run
    equals the sparse NumPy path."""
    from porthamiltonian.mechanics.fused import FusedMidpoint

    mech = serial_chain(40)
    dae = mech.assemble()
    fused = FusedMidpoint(dae, make_signal(None, []))
    assert fused.kl <= 30 and fused.ku <= 30
    a, b = _both(mech, 0.05, 1e-3, q0={"j0": 0.3})
    _agree(a, b)


def test_engine_numpy_disables_the_compiled_step():
    dae = MechanismDAE(serial_chain(2), engine="numpy")
    assert dae.fused_midpoint(make_signal(None, [])) is None
    with pytest.raises(Exception, match="engine"):
        MechanismDAE(serial_chain(2), engine="fortran")


@pytest.mark.parametrize("kind", ["revolute", "prismatic", "cylindrical"])
def test_recorded_point_values_both_engines(kind):
    """energy, power balance, outputs and B(x)ᵀz(x) at a random raw state."""
    mech = _actuated(kind)
    fast = mech.assemble()
    slow = MechanismDAE(mech, fast.rows, engine="numpy")
    rng = np.random.default_rng(3)
    x = mech.initial_state() + 0.1 * rng.standard_normal(fast.n)
    u = rng.standard_normal(fast.m)
    assert fast.energy(x) == pytest.approx(slow.energy(x), rel=1e-13)
    pa, pb = fast.power_balance(x, u), slow.power_balance(x, u)
    for name in ("stored", "supplied", "dissipated"):
        assert getattr(pa, name) == pytest.approx(getattr(pb, name), rel=1e-12, abs=1e-13)
    np.testing.assert_allclose(fast.output(x, u), slow.output(x, u), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(fast.constraint(x), slow.constraint(x), rtol=0, atol=1e-13)


BLOCK_FIELDS = ("t", "x", "lam", "u", "y", "H", "stored", "work_supplied", "work_dissipated",
                "power_residual", "constraint_residual", "node_constraint")


def _blocks_and_steps(monkeypatch, dae, x0, t_end, **kw):
    """The same run with blocks of steps (``FusedMidpoint.advance``, the default) and
    step by step (without it)."""
    from porthamiltonian.mechanics.fused import FusedMidpoint

    a = simulate(dae, (0.0, t_end), x0, method="midpoint", **kw)
    with monkeypatch.context() as m:
        m.delattr(FusedMidpoint, "advance")
        b = simulate(dae, (0.0, t_end), x0, method="midpoint", **kw)
    return a, b


@pytest.mark.parametrize("grid", [{"dt": 5e-3}, {"dt": 5e-3, "save_every": 4},
                                  {"dt": 5e-3, "t_eval": [0.0, 0.0123, 0.1, 0.25, 0.3]}])
def test_blocks_of_steps_equal_single_steps_bit_for_bit(monkeypatch, grid):
    """Many steps per compiled call (kernels.march: guess history, Newton policy and
    bookkeeping in Numba; saved points recorded per block) give exactly the per-step run,
    with springs, dampers, an input signal, thinned and landing grids."""
    mech = _actuated("revolute")
    dae = mech.assemble({"j": [0.3]})
    x0 = mech.initial_state({"j": [0.3]}, {"k": [0.5]})
    u = {"j.tau[0]": lambda t: 0.5 * np.sin(3.0 * t)}
    a, b = _blocks_and_steps(monkeypatch, dae, x0, 0.3, u=u, **grid)
    for name in BLOCK_FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.newton_iterations == b.newton_iterations > 0
    assert np.abs(a.work_supplied).max() > 0  # the input did work


def test_a_failed_newton_step_inside_a_block_is_halved_as_per_step(monkeypatch):
    """Full Newton limited to 4 iterations at dt = 50 ms fails at some steps: the block
    stops there, the step is halved through ``step`` (as per step) and the run is the
    per-step run exactly."""
    from porthamiltonian.mechanics.fused import FusedMidpoint

    mech = serial_chain(3)
    dae = mech.assemble({"j0": 0.4})
    x0 = mech.initial_state({"j0": 0.4, "j2": -0.3})
    halves: list[float] = []
    step = FusedMidpoint.step

    def counted(self, t, x, h):
        halves.append(h)
        return step(self, t, x, h)

    opts = {"dt": 0.05, "max_newton": 4, "simplified_newton": False}
    with monkeypatch.context() as m:
        m.setattr(FusedMidpoint, "step", counted)
        a, b = _blocks_and_steps(monkeypatch, dae, x0, 0.5, **opts)
    in_blocks = halves[:halves.index(0.05)]  # the block run's calls of step: halves only
    assert in_blocks and max(in_blocks) < 0.05
    for name in BLOCK_FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.newton_iterations == b.newton_iterations
