// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.storage

import java.io.ByteArrayOutputStream
import java.nio.charset.StandardCharsets.ISO_8859_1
import java.util.{Date, Properties}

/**
 * Text in Java's `Properties.store` format (hudi-format.md §1.4): the comment line, a line with
 * the current `Date.toString()`, then one `key=value` line per entry with Java's escapes
 * (`\:`, `\=`, `\#`, `\!`, leading spaces, Unicode escapes for non-ASCII). Entries keep the given order.
 */
object JavaProperties {

  def store(entries: Seq[(String, String)], comment: String): Array[Byte] = {
    val text = new StringBuilder
    text ++= s"#$comment\n#${new Date()}\n"
    entries.foreach { case (k, v) => text ++= line(k, v) += '\n' }
    text.result().getBytes(ISO_8859_1)
  }

  /** One escaped `key=value` line, escaped by `Properties.store` itself. */
  private def line(key: String, value: String): String = {
    val single = new Properties()
    single.setProperty(key, value)
    val out = new ByteArrayOutputStream()
    single.store(out, null) // the stream form escapes non-ASCII characters
    // The output is the date comment line, then the entry line.
    new String(out.toByteArray, ISO_8859_1).linesIterator.filterNot(_.startsWith("#")).mkString
  }
}
