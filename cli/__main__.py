"""``python -m cli`` runs the ``strata`` command."""

from cli.main import run

run()
