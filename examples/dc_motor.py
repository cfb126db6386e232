"""DC motor assembled from three port-Hamiltonian systems (the main demo).

Run:  python examples/dc_motor.py [plot.png]

Electrical RL circuit ⋈ gyrator (motor constant K) ⋈ rotor with friction, joined
by power-conserving feedback.  The derived equations are the textbook ones,
L di/dt = V − R i − K ω and J ω' = K i − b ω, and the 12 V step response settles
at ω = K V / (R b + K²).
"""

import sys

from porthamiltonian.demo import run

if __name__ == "__main__":
    run(out=sys.argv[1] if len(sys.argv) > 1 else "dc_motor.png")
