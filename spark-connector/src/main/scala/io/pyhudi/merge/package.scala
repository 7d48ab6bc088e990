// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Record merging: how two versions of one record key combine, shared by merge-on-read reads,
 * compaction and upserts. Semantics follow Apache Hudi 0.14 with its default payload
 * (`OverwriteWithLatestAvroPayload`) and the event-time payloads (`DefaultHoodieRecordPayload`,
 * `EventTimeAvroPayload`); see `docs/reading.md`.
 */
package object merge
