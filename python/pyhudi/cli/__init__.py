# SPDX-License-Identifier: Apache-2.0
"""``pyhudi``: inspect Hudi tables (table version 6) without Spark or a JVM.

Reads ``.hoodie/`` and the data files directly, with pyarrow (parquet footers) and fastavro
(timeline Avro files), both imported only when a command needs them::

    pyhudi timeline /data/trips
    pyhudi timeline /data/trips --archived   # with the instants archival moved to .hoodie/archived
    pyhudi show /data/trips 20250331030645735
    pyhudi file-groups /data/trips --partition city=chennai
    pyhudi stats /data/trips --json
    pyhudi savepoints /data/trips
    pyhudi validate /data/trips      # exit 0 and "ok", or exit 1 naming the file and the problem

Exit codes: 0 success, 1 ``validate`` found a problem, 2 bad usage or a table that cannot be read.
"""

import argparse
import sys
from typing import List, Optional

from pyhudi.version import __version__

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyhudi", description="Inspect Hudi tables (table version 6) without Spark.")
    parser.add_argument("--version", action="version", version=f"pyhudi {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("path", metavar="PATH", help="base path of the table (the folder holding .hoodie/)")
        sub.add_argument("--json", action="store_true", help="machine-readable JSON output")
        return sub

    timeline = command("timeline", "every instant of the active timeline with what it wrote")
    timeline.add_argument("--archived", action="store_true", help="also the instants of the archived timeline")
    show = command("show", "one instant's metadata: partitions and files with their write stats")
    show.add_argument("instant", metavar="INSTANT", help="instant time, e.g. 20250331030645735")
    groups = command("file-groups", "file groups and their slices as of the latest completed instant")
    groups.add_argument("--partition", help="only this partition path (e.g. city=chennai; '' for none)")
    groups.add_argument("--all-slices", action="store_true", help="also the older slices still on storage")
    groups.add_argument("--include-replaced", action="store_true", help="also groups retired by replacecommits")
    command("stats", "files, bytes, records and small files per partition (latest slices)")
    command("savepoints", "savepoint instants and their metadata")
    command("validate", "check files against the timeline, log block framing and bloom filters")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Runs one command; returns the process exit code."""
    from pyhudi.cli import commands, formatting
    from pyhudi.cli.table import CliError, open_table

    args = _parser().parse_args(argv)
    try:
        table = open_table(args.path)
        ok = True
        if args.command == "timeline":
            doc, text = commands.timeline_command(table, args.archived)
        elif args.command == "show":
            doc, text = commands.show_command(table, args.instant)
        elif args.command == "file-groups":
            doc, text = commands.file_groups_command(table, args.partition, args.all_slices, args.include_replaced)
        elif args.command == "stats":
            doc, text = commands.stats_command(table)
        elif args.command == "savepoints":
            doc, text = commands.savepoints_command(table)
        else:
            doc, text, ok = commands.validate_command(table)
    except CliError as e:
        if getattr(args, "json", False):
            formatting.write_json(sys.stdout, {"error": str(e)})
        print(f"pyhudi: {e}", file=sys.stderr)
        return 2
    if args.json:
        formatting.write_json(sys.stdout, doc)
    else:
        print(text)
    return 0 if ok else 1
