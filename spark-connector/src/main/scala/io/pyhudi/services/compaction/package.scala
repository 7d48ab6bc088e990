// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services

/**
 * Compaction of merge-on-read tables (hudi-format.md §2.2.1, §2.5). A compaction at instant `T`
 * reads one file slice per plan operation (base file plus logs) and writes its merged rows to a
 * new base file `<fileId>_<token>_T.parquet`, which starts a new slice of that file group.
 * [[compaction.CompactionPlanner]] picks the slices, [[compaction.CompactionTransaction]] drives
 * `T.compaction.requested` → `T.compaction.inflight` → `T.commit` (`compacted: true`), and
 * [[compaction.CompactionOperations]] converts between slices and plan operations; the
 * compacted files' write stats come from [[io.pyhudi.write.commit.WriteStats]].
 * Readers see the new slice only once `T.commit` exists (§4.4).
 */
package object compaction
