// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import java.nio.charset.StandardCharsets.UTF_8

import org.apache.spark.unsafe.types.UTF8String

/**
 * The `_hoodie_commit_seqno` values of one handle, `<instant>_<task partition>_<n>` for
 * n = `first`, `first` + 1, ...: the prefix is encoded once and each value appends the counter's
 * digits, since building and encoding a string per record was a visible part of a load.
 */
private[handle] final class CommitSeqNos(instantTime: String, taskPartition: Int, first: Long = 0L) {
  private val prefix = s"${instantTime}_${taskPartition}_".getBytes(UTF_8)
  private var n = first

  def next(): UTF8String = {
    var digits = 1
    var rest = n / 10
    while (rest > 0) { digits += 1; rest /= 10 }
    val out = java.util.Arrays.copyOf(prefix, prefix.length + digits)
    var v = n
    var i = out.length - 1
    while (i >= prefix.length) {
      out(i) = ('0' + (v % 10).toInt).toByte
      v /= 10
      i -= 1
    }
    n += 1
    UTF8String.fromBytes(out)
  }
}
