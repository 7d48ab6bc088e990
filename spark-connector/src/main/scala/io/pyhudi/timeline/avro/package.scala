// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

/**
 * The Avro records that requested, inflight and completed state files of table services hold
 * (rollback plans and metadata, compaction plans, requested replace metadata), each stored as an
 * Avro object container file with one record (hudi-format.md §8, §8.1). Schemas carry Apache
 * Hudi's full record names (`org.apache.hudi.avro.model.<Name>`), field order, unions and
 * defaults, so that Java resolves what pyhudi writes against its own generated classes.
 */
package object avro
