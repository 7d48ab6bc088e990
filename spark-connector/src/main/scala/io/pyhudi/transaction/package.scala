// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * What keeps writers from losing each other's data. Every write and compaction beats a heartbeat
 * ([[transaction.Heartbeat]]) so that the next writer rolls back only instants whose writer is
 * dead. In the default SINGLE_WRITER mode ([[transaction.ConcurrencyMode]]) instants start and
 * commit under a short table lock ([[transaction.TableLock]]) after checking that nothing changed
 * since the writer read the timeline ([[transaction.ConcurrentChanges]]); a conflicting writer
 * fails with [[io.pyhudi.errors.WriteConflictException]] and publishes nothing. Under
 * OPTIMISTIC_CONCURRENCY_CONTROL writers run at once and, at commit, under a
 * [[transaction.LockProvider]] (file system, in-process or ZooKeeper), check the instants
 * completed or scheduled since they started for shared file groups
 * ([[transaction.ConcurrentFileWrites]]); the loser rolls back.
 */
package object transaction
