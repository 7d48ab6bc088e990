// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

/**
 * What the log scan and the base-file write of one compacted slice counted; becomes the
 * compaction fields of its write stat (hudi-format.md §2.5, §3.2).
 *
 * @param numWrites                    rows in the new base file
 * @param totalLogRecords              records read from the slice's log blocks
 * @param totalUpdatedRecordsCompacted log records merged into the output (Hudi: merged records)
 */
final case class CompactionCounts(
    numWrites: Long,
    numUpdateWrites: Long = 0,
    numInserts: Long = 0,
    numDeletes: Long = 0,
    totalLogRecords: Long = 0,
    totalUpdatedRecordsCompacted: Long = 0,
    totalLogBlocks: Long = 0,
    totalCorruptLogBlock: Long = 0,
    totalRollbackBlocks: Long = 0,
    scanTimeMillis: Long = 0,
    writeTimeMillis: Long = 0)
