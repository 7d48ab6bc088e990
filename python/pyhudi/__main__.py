"""``python -m pyhudi``: the ``pyhudi`` command (see :mod:`pyhudi.cli`)."""

from pyhudi.cli import main

raise SystemExit(main())
