"""Linear analysis of port-Hamiltonian systems (Duindam et al. 2009, App. A.2).

Linearization at an operating point (:mod:`.linear`), transfer functions
(:mod:`.transfer`), frequency response and Bode diagrams (:mod:`.frequency`), step and
impulse responses (:mod:`.time_response`), port impedance and admittance
(:mod:`.impedance`), poles, zeros and modes (:mod:`.modes`), undamped natural
frequencies (:mod:`.natural`), passivity
(:mod:`.passivity`) and conversion to SciPy / python-control (:mod:`.convert`).
See ``docs/analysis.md``.
"""

from __future__ import annotations

from .convert import to_control, to_scipy
from .frequency import FrequencyResponse, bode, frequency_range, frequency_response
from .impedance import PortFunction, admittance, impedance
from .linear import LinearSystem, linear_system, linearize, operating_point
from .modes import Mode, modes, poles, zeros
from .natural import natural_frequencies, natural_modes
from .passivity import PassivityReport, is_passive, passivity
from .time_response import TimeResponse, impulse_response, step_response
from .transfer import TransferFunction, transfer_function

__all__ = [
    "LinearSystem", "linear_system", "linearize", "operating_point",
    "TransferFunction", "transfer_function",
    "FrequencyResponse", "frequency_response", "bode", "frequency_range",
    "TimeResponse", "step_response", "impulse_response",
    "PortFunction", "impedance", "admittance",
    "Mode", "poles", "zeros", "modes", "natural_frequencies", "natural_modes",
    "PassivityReport", "passivity", "is_passive",
    "to_scipy", "to_control",
]
