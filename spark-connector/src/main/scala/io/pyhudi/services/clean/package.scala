// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services

/**
 * Cleaning (hudi-format.md §2.2.1, §8; docs/clean.md): deletes the files of file slices that no
 * query within the retention of the [[clean.CleanPolicy]] can read any more. [[clean.CleanPlanner]]
 * decides from the timeline and a listing which slices go (never the latest slice of a group, a
 * slice a pending compaction or clustering reads, a savepointed file, a file of a pending
 * instant), and [[clean.CleanTransaction]] drives `T.clean.requested` (the `HoodieCleanerPlan`) →
 * `T.clean.inflight` → the deletes → `T.clean` (`HoodieCleanMetadata`). A clean left requested or
 * inflight is finished by re-running its plan: deleting a file twice is harmless.
 */
package object clean
