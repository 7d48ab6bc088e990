// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Indexes: how a writer finds the file group that already holds a record key. Apache Hudi's
 * bloom index prunes file groups with the bloom filter and min/max record keys that every base
 * file carries in its parquet footer ([[index.bloom.BaseFileFooter]], hudi-format.md §5.2–5.3);
 * the bucket index derives the file group from the key alone ([[index.bucket.BucketIdentifier]],
 * §11). Both must match Apache Hudi bit for bit, or Hudi's own writers would put a later update
 * of a key into a second file group.
 */
package object index
