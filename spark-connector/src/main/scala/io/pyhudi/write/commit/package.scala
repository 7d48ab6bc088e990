// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

/**
 * Committing writes (hudi-format.md §2.4, §7). A write is one instant `T` on the timeline: the
 * [[commit.WriteTransaction]] writes its requested and inflight files, tasks leave a marker
 * ([[commit.Markers]]) before each data file they create, and the commit reconciles the markers
 * with the files tasks reported, then publishes the completed file, the commit point. A write
 * that fails before that point is rolled back ([[commit.Rollback]]): its data files are deleted
 * or, for log files, cancelled by rollback command blocks, and its timeline files removed.
 *
 * Single writer: nothing here takes a lock or checks for concurrent writers.
 */
package object commit
