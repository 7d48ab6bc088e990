"""``python -m pyhudi.cli``."""

from pyhudi.cli import main

raise SystemExit(main())
