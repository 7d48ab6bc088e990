// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services

/**
 * Savepoints (hudi-format.md §2.2): `T.savepoint.inflight` then `T.savepoint`, named after the
 * savepointed write `T`, holding `HoodieSavepointMetadata` with the files of every latest slice
 * as of `T`. [[savepoint.Savepoints]] creates, lists, deletes and resolves them. pyhudi adds
 * names and an expiry ([[savepoint.SavepointLabel]]), kept as a small JSON document in the
 * metadata's `comments`, so Apache Hudi reads the same files unchanged.
 */
package object savepoint
