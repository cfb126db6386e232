"""When the numeric mechanism assemblies use dense arrays and when sparse ones.

One threshold, shared by the rigid assembly (:mod:`.assembly`) and the flexible one
(:mod:`.flexible`, which extends a rigid assembly and must agree with it).
"""

from __future__ import annotations

__all__ = ["DENSE_BELOW"]

#: models with fewer unknowns (states + multipliers) are evaluated with dense arrays
DENSE_BELOW = 240
