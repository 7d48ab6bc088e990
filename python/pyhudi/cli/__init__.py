"""``pyhudi``: inspect Hudi tables (table version 6) without Spark or a JVM."""
