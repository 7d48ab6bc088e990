# SPDX-License-Identifier: Apache-2.0
"""The Python examples in docs/ run as written: each ```python block of the listed pages, with the
test's SparkSession as ``spark`` and the example's ``/tmp/pyhudi-example`` folder moved to a
temporary one."""

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = ["python-api.md", "archival.md"]
EXAMPLE_ROOT = "/tmp/pyhudi-example"


def _blocks(page):
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(), flags=re.S)


@pytest.mark.parametrize("page", PAGES)
def test_examples_run(spark, tmp_path, page):
    blocks = _blocks(page)
    assert blocks, f"{page} has no python example"
    scope = {"spark": spark}
    for code in blocks:
        assert EXAMPLE_ROOT in code or "path" in scope, "examples write under /tmp/pyhudi-example"
        exec(compile(code.replace(EXAMPLE_ROOT, str(tmp_path)), f"docs/{page}", "exec"), scope)
