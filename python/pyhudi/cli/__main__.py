# SPDX-License-Identifier: Apache-2.0
"""``python -m pyhudi.cli``."""

from pyhudi.cli import main

raise SystemExit(main())
