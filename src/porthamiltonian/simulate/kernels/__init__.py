"""The compiled engine: a model's steps generated from its symbolic form and compiled
by Numba (see docs/simulation.md, "The engine").

- :mod:`.codegen` — the model's functions (H, ∇H, ∇²H, structure, Jacobian) as source;
- :mod:`.steps` — the steps (midpoint, discrete gradients, Gauss) over those functions,
  compiled once per machine;
- :mod:`.build` — the model module written to the kernel cache, compiled once per
  structure; ``python -m porthamiltonian.simulate.kernels`` builds the steps ahead;
- :mod:`.stepper` — the compiled stepper the ODE loop drives, and when it is used.
"""
