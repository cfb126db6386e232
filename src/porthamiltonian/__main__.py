"""``python -m porthamiltonian`` runs the command line."""

from .cli import main

raise SystemExit(main())
