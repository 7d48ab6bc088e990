// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * What keeps writers from losing each other's data. pyhudi's default mode is one writer at a
 * time, enforced rather than assumed: every write and compaction beats a heartbeat
 * ([[transaction.Heartbeat]]) so that the next writer rolls back only instants whose writer is
 * dead; instants start and commit under a short table lock ([[transaction.TableLock]]) after
 * checking that nothing changed since the writer read the timeline
 * ([[transaction.ConcurrentChanges]]). A conflicting writer fails with
 * [[io.pyhudi.errors.WriteConflictException]] and publishes nothing.
 */
package object transaction
