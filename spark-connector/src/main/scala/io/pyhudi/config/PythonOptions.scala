// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import java.util.Locale

import io.pyhudi.errors.Errors
import io.pyhudi.index.IndexType
import io.pyhudi.schema.MetaFields

/**
 * Renders `python/pyhudi/options.py` from the same entries as `docs/options.md`: per option a
 * constant holding the key with a docstring (meaning, default, valid values), and for enumerations
 * a string enum of the valid values. The text is already as `ruff format` leaves it, and a unit
 * test compares the file with this output.
 *
 * Names follow one rule so that a new option needs no naming decision: the constant is the key
 * without its `hoodie.[datasource.[read.|write.]]` prefix, upper case, `_` for separators; the
 * enum class is that name in camel case. The exceptions below keep names callers already use.
 */
object PythonOptions extends GeneratedFile {

  private val LineWidth = 100
  private val TripleQuote = "\"\"\""

  /** Class names other than the rule's, by key. */
  private val classNames: Map[String, String] = Map(WriteConfig.Operation.key -> "WriteOperation")

  /** Further constants naming an option, by key: names callers used before the rule. */
  private val aliases: Map[String, Seq[String]] = Map(
    WriteConfig.UrlEncodePartitionPath.key -> Seq("URL_ENCODE_PARTITIONING"))

  /** A boolean property of an enum's members: true for `members`. */
  private final case class MemberProperty(name: String, doc: String, members: Seq[String])

  /** What the connector decides by an enum value, carried over from the Scala enum. */
  private val properties: Map[String, Seq[MemberProperty]] = Map(
    WriteConfig.IndexType.key -> Seq(
      MemberProperty("is_global", "Whether the index identifies records by key alone, across partitions.",
        IndexType.All.filter(_.isGlobal).map(_.name)),
      MemberProperty("is_bucket", "Whether the key's hash picks the file group (no lookup).",
        IndexType.All.filter(_.isBucket).map(_.name))))

  /** Hudi's key prefixes that the names leave out. */
  private val prefix = "^hoodie\\.(datasource\\.(read\\.|write\\.)?)?"

  def constantName(key: String): String =
    key.replaceFirst(prefix, "").replaceAll("[^A-Za-z0-9]+", "_").toUpperCase(Locale.ROOT)

  private def memberName(value: String): String = value.toUpperCase(Locale.ROOT)

  /** The enum class of an entry whose valid values can be member names; booleans have none. */
  def className(e: ConfigEntry[_]): Option[String] =
    if (e.validValues.isEmpty || e.validValues == Seq("true", "false") ||
      !e.validValues.forall(_.matches("[A-Za-z][A-Za-z0-9_]*"))) None
    else Some(classNames.getOrElse(e.key,
        constantName(e.key).split('_').map(w => w.take(1) + w.drop(1).toLowerCase(Locale.ROOT)).mkString))

  private val sections: Seq[(String, Seq[ConfigEntry[_]])] =
    Seq("Read options" -> ReadConfig.entries, "Write options" -> WriteConfig.entries)

  def source: String = {
    val entries = sections.flatMap(_._2)
    val names = entries.flatMap(e => constantName(e.key) +: (className(e).toSeq ++ aliases.getOrElse(e.key, Nil))) :+
      "IS_DELETED_COLUMN"
    val duplicates = names.diff(names.distinct)
    if (duplicates.nonEmpty) throw Errors.internal(s"options.py names used twice: ${duplicates.mkString(", ")}")

    val sb = new StringBuilder
    sb.append("# SPDX-License-Identifier: Apache-2.0\n")
    // Scala's raw strings cannot hold Python's triple quotes: ''' stands for them.
    sb.append(
      """'''Option keys of ``spark.read/write.format("pyhudi")``, their defaults and valid values.
        |
        |Generated from the option definitions in ``spark-connector/src/main/scala/io/pyhudi/config/``
        |by ``make docs`` (``io.pyhudi.config.PythonOptions``); do not edit by hand. The key names are
        |Apache Hudi's. The connector (JVM side) validates values; these constants spare callers from
        |typing the strings. ``docs/options.md`` lists the same options as a table.
        |'''
        |
        |from enum import Enum
        |
        |__all__ = [
        |""".stripMargin.replace("'''", TripleQuote))
    names.foreach(n => sb.append(s"""    "$n",\n"""))
    sb.append(
      """]
        |
        |
        |class _StrEnum(str, Enum):
        |    '''Members compare equal to their string values and print as them.'''
        |
        |    def __str__(self) -> str:
        |        # The mixin's __str__ changed in Python 3.11; pin it to the value everywhere.
        |        return str(self.value)
        |""".stripMargin.replace("'''", TripleQuote))
    sections.foreach { case (title, es) =>
      sb.append(s"\n\n# ${"-" * 92}\n# $title\n")
      es.foreach(e => entry(sb, e))
    }
    sb.append(s"""\nIS_DELETED_COLUMN = "${MetaFields.IsDeleted}"\n""")
    docstring(sb, "", Seq("Not an option: a boolean input column; ``true`` deletes the record's key in an upsert."))
    // An entry ends with a blank line after a class; the next block brings its own.
    sb.toString.replaceAll("\n{4,}", "\n\n\n")
  }

  private def entry(sb: StringBuilder, e: ConfigEntry[_]): Unit = {
    val name = constantName(e.key)
    val cls = className(e)
    sb.append(s"\n$name = ${quote(e.key)}\n")
    val default = e.default.map(_ => s"Default: ``${e.defaultText}``.").getOrElse("No default.")
    val valid =
      if (e.validValues.isEmpty) Nil
      else Seq("Valid values" + cls.map(c => s" (:class:`$c`)").getOrElse("") + ": " +
        e.validValues.map(v => s"``$v``").mkString(", ") + ".")
    val also = if (e.alternatives.isEmpty) Nil
    else Seq(e.alternatives.map(a => s"``$a``").mkString("Also read as ", ", ", "."))
    docstring(sb, "", Seq(e.doc, default) ++ valid ++ also)
    aliases.getOrElse(e.key, Nil).foreach { a =>
      sb.append(s"\n$a = $name\n")
      docstring(sb, "", Seq(s"Earlier name of :data:`$name`."))
    }
    cls.foreach { c =>
      sb.append(s"\n\nclass $c(_StrEnum):\n")
      docstring(sb, "    ", Seq(s"Values of :data:`$name`."))
      sb.append("\n")
      e.validValues.foreach(v => sb.append(s"    ${memberName(v)} = ${quote(v)}\n"))
      properties.getOrElse(e.key, Nil).foreach { p =>
        val members = p.members.map(m => s"$c.${memberName(m)}")
        val test = members match {
          case Seq(one) => s"self is $one"
          case many => s"self in (${many.mkString(", ")})"
        }
        sb.append(s"\n    @property\n    def ${p.name}(self) -> bool:\n")
        docstring(sb, "        ", Seq(p.doc))
        sb.append(s"        return $test\n")
      }
      sb.append("\n")
    }
  }

  /** Paragraphs wrapped to the line width; one line when everything fits on it. */
  private def docstring(sb: StringBuilder, indent: String, paragraphs: Seq[String]): Unit = {
    val escaped = paragraphs.map(_.replace("\\", "\\\\").replace(TripleQuote, "\\\"\\\"\\\""))
    val single = s"$indent$TripleQuote${escaped.mkString(" ")}$TripleQuote"
    if (escaped.size == 1 && single.length <= LineWidth && !escaped.head.endsWith("\"")) {
      sb.append(single).append("\n")
    } else {
      val lines = escaped.map(p => wrap(p, LineWidth - indent.length)).reduce(_ ++ Seq("") ++ _)
      sb.append(s"$indent$TripleQuote${lines.head}\n")
      lines.tail.foreach(l => sb.append(if (l.isEmpty) "\n" else s"$indent$l\n"))
      sb.append(s"$indent$TripleQuote\n")
    }
  }

  /** Greedy word wrap; the first line leaves room for the opening quotes. */
  private def wrap(text: String, width: Int): Seq[String] = {
    val lines = scala.collection.mutable.ArrayBuffer(new StringBuilder)
    text.split("\\s+").filter(_.nonEmpty).foreach { w =>
      val room = if (lines.size == 1) width - 3 else width
      val cur = lines.last
      if (cur.isEmpty) cur.append(w)
      else if (cur.length + 1 + w.length <= room) cur.append(' ').append(w)
      else lines += new StringBuilder(w)
    }
    lines.map(_.toString).toSeq
  }

  private def quote(s: String): String = "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""

  def text: String = source
}
