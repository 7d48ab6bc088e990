// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bucket

import java.util.{Locale, UUID}

import io.pyhudi.errors.Errors

/**
 * Bucket numbers and file ids of Apache Hudi's simple bucket index (hudi-format.md §11), as Hudi
 * 0.14 computes them, so that Hudi's writers route every key to the file group pyhudi chose.
 */
object BucketIdentifier {

  /** Digits of the bucket number at the start of a bucket's file id. */
  val BucketIdLength = 8

  /**
   * The bucket of a record key: Java's `List<String>.hashCode()` of the hash field values, sign
   * bit cleared, modulo `numBuckets`. A key without `:` is a simple key and hashes as `[key]`.
   * A complex key `f1:v1,f2:v2` gives the values of `hashFields` in the order of `hashFields`.
   */
  def bucketId(recordKey: String, hashFields: Seq[String], numBuckets: Int): Int = {
    if (numBuckets <= 0) throw Errors.internal(s"numBuckets must be positive, got $numBuckets")
    (listHashCode(hashValues(recordKey, hashFields)) & Int.MaxValue) % numBuckets
  }

  /** The hash field values of a record key, in hash-field order; null for a field not in the key. */
  def hashValues(recordKey: String, hashFields: Seq[String]): Seq[String] =
    if (!recordKey.contains(":")) Seq(recordKey)
    else {
      // Java's String.split on purpose: it drops trailing empty parts and cuts a value at its own
      // ':' (the value is the second part), and Hudi 0.14 hashes exactly what that leaves.
      val pairs = recordKey.split(",").map { part =>
        val kv = part.split(":")
        if (kv.length < 2)
          throw Errors.recordKeyPartWithoutValue(recordKey, part)
        kv(0) -> kv(1)
      }.toMap
      // A hash field missing from the key hashes as null (0), as in Java's map lookup.
      hashFields.map(f => pairs.getOrElse(f, null))
    }

  /** Bucket number as the 8-digit, zero-padded prefix of its file ids (3 → `00000003`). */
  def fileIdPrefix(bucket: Int): String = {
    if (bucket < 0) throw Errors.internal(s"A bucket number is not negative, got $bucket")
    String.format(Locale.ROOT, "%08d", Int.box(bucket))
  }

  /** A new file id for a bucket: a random UUID whose first 8 characters are the bucket, plus `-0`. */
  def newFileId(bucket: Int): String =
    fileIdPrefix(bucket) + UUID.randomUUID().toString.substring(BucketIdLength) + "-0"

  /** The bucket a file id belongs to, or None when the file id does not start with 8 digits. */
  def bucketOf(fileId: String): Option[Int] =
    if (fileId.length >= BucketIdLength && fileId.take(BucketIdLength).forall(c => c >= '0' && c <= '9'))
      Some(fileId.take(BucketIdLength).toInt)
    else None

  /** Java's `List.hashCode()`: 31·h + element hash from 1, in wrapping int arithmetic. */
  private def listHashCode(values: Seq[String]): Int =
    values.foldLeft(1)((h, v) => 31 * h + (if (v == null) 0 else v.hashCode))
}
