# SPDX-License-Identifier: Apache-2.0
"""The tests' side of :mod:`hudi_worker`: starts an Apache Hudi Spark process and talks to it."""

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any, Dict, List, Optional, Sequence

REPO = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).resolve().parent / "hudi_worker.py"
PREFIX = "@@hudi "


def interop_python() -> str:
    """The interpreter of the PySpark 3.5 environment (``dev/run-tests.sh`` creates it)."""
    python = os.environ.get("PYHUDI_INTEROP_PYTHON", str(REPO / ".venv-interop" / "bin" / "python"))
    if not Path(python).exists():
        raise RuntimeError(
            f"No PySpark 3.5 environment for the Apache Hudi interop tests at {python}; create it with "
            "`dev/python-env.sh .venv-interop requirements/interop.txt --no-pyhudi` or set PYHUDI_INTEROP_PYTHON"
        )
    return python


class HudiError(AssertionError):
    """Apache Hudi failed a command; the message carries its exception and stack trace."""


class HudiWorker:
    """One Apache Hudi ``version`` in its own Spark driver, alive until :meth:`stop`."""

    def __init__(self, version: str, log_path: Path, timeout: float = 600.0) -> None:
        self.version = version
        self.timeout = timeout
        python = interop_python()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_", "PYSPARK_", "PYTHONPATH"))}
        env.update(PYSPARK_PYTHON=python, PYSPARK_DRIVER_PYTHON=python, TZ="UTC")
        self.log: IO[str] = open(log_path, "w")
        self.proc = subprocess.Popen(
            [python, str(WORKER), version],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
        )
        self.answers: "queue.Queue[Optional[Dict[str, Any]]]" = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.spark_version = self._answer("start")["ready"]

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith(PREFIX):
                self.answers.put(json.loads(line[len(PREFIX) :]))
        self.answers.put(None)

    def _answer(self, what: str) -> Dict[str, Any]:
        try:
            answer = self.answers.get(timeout=self.timeout)
        except queue.Empty:
            raise HudiError(
                f"Apache Hudi {self.version} gave no answer to {what} in {self.timeout} s (log: {self.log.name})"
            ) from None
        if answer is None:
            raise HudiError(f"Apache Hudi {self.version} exited during {what} (log: {self.log.name})")
        if not answer.get("ok"):
            raise HudiError(f"Apache Hudi {self.version} failed {what}: {answer['error']}\n{answer.get('trace', '')}")
        return answer

    def _call(self, cmd: Dict[str, Any]) -> Dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return self._answer(f"{cmd['op']} {cmd.get('path', '')}")

    def write(
        self, path: Path, schema: str, rows: Sequence[Dict[str, Any]], options: Dict[str, str], mode: str = "append"
    ) -> None:
        self._call(
            {"op": "write", "path": str(path), "schema": schema, "rows": list(rows), "options": options, "mode": mode}
        )

    def read(self, path: Path, options: Optional[Dict[str, str]] = None) -> List[Dict[str, Any]]:
        rows: List[Dict[str, Any]] = self._call({"op": "read", "path": str(path), "options": options or {}})["rows"]
        return rows

    def avro(self, file: Path, record: str) -> Dict[str, Any]:
        """A timeline Avro file decoded by Apache Hudi's generated class ``record`` (e.g.
        ``HoodieSavepointMetadata``), as a dict."""
        decoded: Dict[str, Any] = self._call({"op": "avro", "file": str(file), "record": record})["record"]
        return decoded

    def archived(self, path: Path) -> Dict[str, Any]:
        """The table's archived timeline as Apache Hudi loads it: ``instants`` ([time, action,
        state]) and ``details`` (time -> commit JSON, where this version hands them out)."""
        answer: Dict[str, Any] = self._call({"op": "archived", "path": str(path)})
        return answer

    def stop(self) -> None:
        try:
            if self.proc.poll() is None and self.proc.stdin is not None:
                self.proc.stdin.write(json.dumps({"op": "stop"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=60)
        except Exception:
            self.proc.kill()
        finally:
            self.log.close()


if __name__ == "__main__":  # a manual smoke run: python hudi_client.py 1.2.0 /tmp/t
    w = HudiWorker(sys.argv[1], Path("/tmp/hudi-worker.log"))
    print(w.spark_version)
    w.stop()
