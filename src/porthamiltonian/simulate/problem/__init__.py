"""What is simulated: the :class:`~.problem.Problem` (a compiled system with its input,
initial state and span, ODE or DAE), the dynamics of an ODE (:mod:`.dynamics`), input
signals (:mod:`.inputs`, :mod:`.tabulated`), piecewise-constant modulation of the
structure (:mod:`.modulation`) and state events (:mod:`.events`)."""
