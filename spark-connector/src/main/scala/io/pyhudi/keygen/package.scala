// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Key generation: how a row's record key (`_hoodie_record_key`) and partition path
 * (`_hoodie_partition_path`, also its folder under the base path) are derived from its columns,
 * the way Apache Hudi 0.14's built-in key generators do it (hudi-format.md §1.6).
 *
 * Write side: [[keygen.KeyGenConfig]] (from options or table config) and
 * [[keygen.KeyGenerator]]. Read side: [[keygen.RecordKeys]] rebuilds keys of tables written
 * without meta fields and [[keygen.PartitionValues]] maps partition paths back to column values.
 * In memory only: [[keygen.KeyHash]] and [[keygen.KeyHashBits]], the keys' hash and hash bitset of
 * the merge-on-read merge's and the bloom index's key lookups.
 */
package object keygen
