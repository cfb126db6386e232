"""Explicit systems (ODEs): the one-step methods (:mod:`.midpoint`,
:mod:`.discrete_gradient`, :mod:`.gauss`, :mod:`.explicit`) on their base class
(:mod:`.base`), the stepping loop (:mod:`.loop`, step control in :mod:`.stepping`), the
block loop of LTI systems (:mod:`.lti`, :mod:`.lti_loop`) and SciPy's ``solve_ivp``
(:mod:`.scipy_ivp`)."""
