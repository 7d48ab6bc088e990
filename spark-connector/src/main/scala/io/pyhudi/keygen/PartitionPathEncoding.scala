// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

/**
 * Hive-style escaping of partition values, as Hudi applies it when
 * `hoodie.datasource.write.partitionpath.urlencode` is true: control characters, DEL and the
 * characters listed in `Escaped` (among them `/`, `%`, `=`, `:`) become `%XX` (upper-case hex);
 * everything else, including spaces, `+` and non-ASCII characters, is kept. This is not
 * `java.net.URLEncoder`.
 */
object PartitionPathEncoding {

  private val Escaped: Array[Boolean] = {
    val set = new Array[Boolean](128)
    (0 until 0x20).foreach(set(_) = true)
    "\"#%'*/:=?\\{[]^\u007f".foreach(c => set(c) = true)
    set
  }

  def escape(value: String): String = {
    if (!value.exists(needsEscape)) return value
    val sb = new java.lang.StringBuilder(value.length + 8)
    value.foreach { c =>
      if (needsEscape(c)) sb.append('%').append(f"${c.toInt}%02X") else sb.append(c)
    }
    sb.toString
  }

  /** Undoes [[escape]]: every `%` followed by two hex digits becomes that character. */
  def unescape(path: String): String = {
    if (path.indexOf('%') < 0) return path
    val sb = new java.lang.StringBuilder(path.length)
    var i = 0
    while (i < path.length) {
      val c = path.charAt(i)
      val hi = if (c == '%' && i + 2 < path.length) Character.digit(path.charAt(i + 1), 16) else -1
      val lo = if (hi >= 0) Character.digit(path.charAt(i + 2), 16) else -1
      if (lo >= 0) { sb.append((hi * 16 + lo).toChar); i += 3 }
      else { sb.append(c); i += 1 }
    }
    sb.toString
  }

  private def needsEscape(c: Char): Boolean = c < 128 && Escaped(c)
}
