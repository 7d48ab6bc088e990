// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services

/**
 * Undoing completed writes. [[restore.InstantRollback]] rolls back the latest completed write
 * (one `R.rollback` instant, as for failed writes, planned from a listing). [[restore.Restore]]
 * brings a table back to a savepoint: `S.restore.requested` (`HoodieRestorePlan`) lists every
 * instant after the savepoint, `S.restore.inflight`, each is rolled back newest first, then
 * `S.restore` (`HoodieRestoreMetadata`) holds their rollback metadata. A restore that stopped
 * half-way is finished by the next call.
 */
package object restore
