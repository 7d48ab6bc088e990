// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Log files of merge-on-read file slices. A log file is a sequence of blocks with no file
 * header (hudi-format.md §6): data blocks (Avro or parquet records), delete blocks (record keys)
 * and command blocks (rollbacks of an earlier instant's blocks). [[logfile.LogFormatReader]]
 * turns one file into [[logfile.LogBlock]]s, [[logfile.LogScanner]] picks the blocks of a file
 * slice a reader must apply, and [[logfile.LogBlockWriter]] encodes blocks.
 */
package object logfile
