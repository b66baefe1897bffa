"""The ``strata`` command line, on top of every other package (see :mod:`cli.main`)."""
