// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services

/**
 * Archival (hudi-format.md §2.3, §2.6; docs/archival.md): moves the oldest instants off the
 * active timeline into `HoodieArchivedMetaEntry` log files under `.hoodie/archived/` (timeline
 * layout 1), as Apache Hudi's archiver does, once more than `hoodie.keep.max.commits` commits
 * are active. [[archive.ArchivePlanner]] decides which instants go (oldest first, down to
 * `hoodie.keep.min.commits`, never at or past what clean, a savepoint, a pending instant or a
 * leftover of a rolled-back write still needs), [[archive.ArchivedTimeline]] reads and writes the
 * archive files, and [[archive.Archiver]] writes the entries, then deletes the state files so
 * that the active timeline only ever loses a prefix: readers count data older than its first
 * write as committed, so a hole would hide committed data and a lost pending file would show
 * failed data.
 */
package object archive
