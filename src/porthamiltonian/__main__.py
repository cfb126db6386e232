"""``python -m porthamiltonian`` runs the command line (:mod:`porthamiltonian.cli`)."""

from .cli import main

raise SystemExit(main())
