// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Table services: work that reorganises a table's files without changing its rows. Each service
 * is split into a planner (decides what to do from the timeline and listings and records the
 * plan as a requested instant), an executor (writes the new files; the Spark layer runs it) and
 * a transaction (moves the instant through inflight to completed, or back after a failure).
 * Planners and transactions are plain Scala, testable without a SparkSession.
 *
 *  - [[services.compaction]]: folds the log files of merge-on-read file slices into new base
 *    files (hudi-format.md §2.5).
 *  - [[services.savepoint]]: savepoints, optionally named, that time travel and restore address.
 *  - [[services.restore]]: rollback of the latest completed write, restore to a savepoint.
 *  - [[services.clean]]: deletes file slices the clean policy no longer needs (hudi-format.md §8).
 *  - [[services.archive]]: moves the oldest instants to the archived timeline (hudi-format.md §2.6).
 */
package object services
