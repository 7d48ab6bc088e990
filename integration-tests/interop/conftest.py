# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the interop suite: Apache Hudi processes started once per run, per version."""

from pathlib import Path
from typing import Callable, Dict, Iterator

import pytest
from hudi_client import HudiWorker


@pytest.fixture(scope="session")
def hudi(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], HudiWorker]]:
    """``hudi(version)``: that Apache Hudi version's worker, started on first use."""
    workers: Dict[str, HudiWorker] = {}
    logs = tmp_path_factory.mktemp("hudi-logs")

    def get(version: str) -> HudiWorker:
        if version not in workers:
            workers[version] = HudiWorker(version, Path(logs) / f"hudi-{version}.log")
        return workers[version]

    yield get
    for w in workers.values():
        w.stop()
