"""The compiled engine: a model's steps generated from its symbolic form and compiled
by Numba (see docs/simulation.md, "The engine").

- :mod:`.codegen` — the model's functions (H, ∇H, ∇²H, structure, Jacobian) as source;
- :mod:`.template` — the steps (midpoint, discrete gradients, Gauss) over those functions;
- :mod:`.build` — module written to the kernel cache, compiled once per structure;
- :mod:`.stepper` — the compiled stepper the ODE loop drives, and when it is used.
"""
