"""``python -m qiza`` runs the ``qiza`` command."""

import sys

from qiza.cli import main

sys.exit(main())
