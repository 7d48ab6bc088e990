// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.keygen.{KeyHash, KeyHashBits}

/**
 * Record keys to test stored keys against when most stored keys are not among them: a bloom
 * index's positives for one base file, against every key the file holds. A hash set alone
 * waits on memory for each stored key (its table and nodes are spread over the heap); a
 * [[io.pyhudi.keygen.KeyHashBits]] of the keys turns most stored keys away first.
 *
 * @param keys owned by the set (not buffers a reader reuses)
 */
final class KeySet(keys: java.util.Collection[UTF8String]) {
  private val set = new java.util.HashSet[UTF8String](keys)
  private val present = new KeyHashBits(set.size)
  set.forEach(k => present.add(KeyHash.of(k)))

  def size: Int = set.size

  def isEmpty: Boolean = set.isEmpty

  def contains(key: UTF8String): Boolean = present.mayHold(KeyHash.of(key)) && set.contains(key)
}
