"""``python -m cli`` runs the ``strata`` command."""

import sys

from cli.main import main

sys.exit(main())
