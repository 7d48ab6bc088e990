"""Tour of pyhudi's reads on two tables of the conformance corpus.

    python examples/demo.py [CORPUS_DIR]

CORPUS_DIR holds cow/ and mor/ with the zipped tables (default: <repo>/../shared/hudi-tables/v6).
The tables are unzipped into a temporary folder; nothing is written next to the corpus.
Needs an installed pyhudi (with its jar) and PySpark 4.
"""

import argparse
import sys
import tempfile
import zipfile
from datetime import datetime
from pathlib import Path
from typing import List, Tuple

from pyspark.sql import DataFrame, SparkSession

import pyhudi
from pyhudi import QueryType

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "hudi-tables" / "v6"
TABLES = ("mor/v6_trips_8i1u", "cow/v6_simplekeygen_nonhivestyle")


def unzip_table(corpus: Path, name: str, target: Path) -> Path:
    with zipfile.ZipFile(corpus / f"{name}.zip") as zf:
        zf.extractall(target)
    return target / name.split("/")[1]


def completed_instants(table: Path) -> List[Tuple[str, str]]:
    """(instant, action) of the completed commits, oldest first, from ``.hoodie/``."""
    actions = ("commit", "deltacommit", "replacecommit")
    found = [
        tuple(f.name.split(".", 1))
        for f in (table / ".hoodie").iterdir()
        if f.is_file() and f.name.count(".") == 1 and f.name.split(".")[1] in actions
    ]
    return sorted(found)  # type: ignore[return-value]


def show(title: str, df: DataFrame, max_columns: int = 7) -> None:
    """Print the rows with the commit time and the first data columns."""
    data_columns = [c for c in df.columns if not c.startswith("_hoodie_")]
    meta = ["_hoodie_commit_time"] if "_hoodie_commit_time" in df.columns else []
    view = df.select(*meta, *data_columns[:max_columns]).orderBy(*data_columns[:1])
    rows = view.count()
    print(f"\n== {title}: {rows} rows")
    view.show(max(rows, 1), truncate=24)


def tour(spark: SparkSession, name: str, path: Path) -> None:
    instants = completed_instants(path)
    is_mor = name.startswith("mor/")
    print(f"\n######## {name} ({'merge-on-read' if is_mor else 'copy-on-write'})")
    print("completed instants: " + ", ".join(f"{i} ({a})" for i, a in instants))

    show("snapshot", pyhudi.read(spark, path))
    if is_mor:
        show("read_optimized (base files only)", pyhudi.read(spark, path, QueryType.READ_OPTIMIZED))
    for instant, _ in instants:
        show(f"time travel: as of {instant}", pyhudi.read(spark, path, as_of=instant))
    if len(instants) >= 2:
        (first, _), (second, _) = instants[0], instants[1]
        # A datetime works too: instants are wall-clock times (yyyyMMddHHmmssSSS).
        begin = datetime.strptime(first, "%Y%m%d%H%M%S%f")
        show(
            f"incremental: changes after {first} up to {second}",
            pyhudi.read(spark, path, QueryType.INCREMENTAL, begin=begin, end=second),
        )


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    corpus = parser.parse_args(argv).corpus
    missing = [n for n in TABLES if not (corpus / f"{n}.zip").is_file()]
    if missing:
        print(f"{corpus}: missing {', '.join(m + '.zip' for m in missing)}", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="pyhudi-demo-") as tmp:
        paths = {name: unzip_table(corpus, name, Path(tmp)) for name in TABLES}
        builder = (
            SparkSession.builder.master("local[2]")
            .appName("pyhudi-demo")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.session.timeZone", "UTC")
        )
        spark = pyhudi.configure_spark(builder).getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
        try:
            print(f"pyhudi {pyhudi.__version__}, Spark {spark.version}, jar {pyhudi.jar_path()}")
            for name, path in paths.items():
                tour(spark, name, path)
        finally:
            spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
