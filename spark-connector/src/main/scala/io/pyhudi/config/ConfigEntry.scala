// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import java.util.Locale

import io.pyhudi.errors.Errors

/**
 * One typed option: its key, default, documentation and parser live together, and this is the
 * only place the key string is spelled. `validValues` is set for enumerations and is listed in
 * errors and docs.
 */
final case class ConfigEntry[T](
    key: String,
    default: Option[T],
    doc: String,
    parse: (String, String) => T,
    validValues: Seq[String] = Nil,
    render: T => String = (t: T) => String.valueOf(t),
    alternatives: Seq[String] = Nil) {

  /** The value in `options` (case-insensitive keys, as Spark passes them), else the default. */
  def from(options: Map[String, String]): Option[T] =
    lookupKeyed(options).map { case (k, v) => parse(k, v) }.orElse(default)

  /** The raw string in `options`, if set and non-blank; the key wins over its alternatives. */
  def lookup(options: Map[String, String]): Option[String] = lookupKeyed(options).map(_._2)

  private def lookupKeyed(options: Map[String, String]): Option[(String, String)] =
    (key +: alternatives).iterator.flatMap { name =>
      val lower = name.toLowerCase(Locale.ROOT)
      options.collectFirst { case (k, v) if k.toLowerCase(Locale.ROOT) == lower => name -> v }
        .filter(_._2.trim.nonEmpty)
    }.nextOption()

  /** The same entry, also read under `keys` (Apache Hudi's earlier names for it). */
  def withAlternatives(keys: String*): ConfigEntry[T] = copy(alternatives = alternatives ++ keys)

  def defaultText: String = default.map(render).getOrElse("(none)")
}

object ConfigEntry {

  def string(key: String, default: Option[String], doc: String): ConfigEntry[String] =
    ConfigEntry[String](key, default, doc, (_, v) => v.trim)

  def boolean(key: String, default: Boolean, doc: String): ConfigEntry[Boolean] =
    ConfigEntry[Boolean](key, Some(default), doc,
      (k, v) =>
        v.trim.toLowerCase(Locale.ROOT) match {
          case "true" => true
          case "false" => false
          case _ => throw Errors.invalidEnumOption(k, v, Seq("true", "false"))
        }, Seq("true", "false"))

  /** A non-negative whole number (sizes, counts, intervals). */
  def nonNegativeLong(key: String, default: Long, doc: String): ConfigEntry[Long] =
    ConfigEntry[Long](key, Some(default), doc,
      (k, v) =>
        v.trim.toLongOption.filter(_ >= 0).getOrElse(throw Errors.invalidOption(k, v,
            "expected a non-negative integer")))

  /** An enumeration of `values`, matched by `name` case-insensitively; errors and docs list the names. */
  def enumeration[T](key: String, default: T, values: Seq[T], name: T => String, doc: String): ConfigEntry[T] =
    ConfigEntry[T](key, Some(default), doc,
      (k, v) =>
        values.find(x => name(x).equalsIgnoreCase(v.trim)).getOrElse(throw Errors.invalidEnumOption(k, v,
            values.map(name))),
      values.map(name), name)

  /** An enumeration whose values are matched case-insensitively and stored lower case. */
  def choice(key: String, default: String, values: Seq[String], doc: String): ConfigEntry[String] =
    ConfigEntry[String](key, Some(default), doc,
      (k, v) => {
        val norm = v.trim.toLowerCase(Locale.ROOT)
        if (values.contains(norm)) norm else throw Errors.invalidEnumOption(k, v, values)
      }, values)
}
