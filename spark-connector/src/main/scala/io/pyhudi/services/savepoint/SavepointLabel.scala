// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.savepoint

import scala.util.Try

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.databind.node.ObjectNode

/**
 * What pyhudi keeps in a savepoint's `comments`: a name, an expiry (epoch seconds) and the
 * user's comment, as `{"name":…,"expiresAt":…,"comment":…}`. Comments that are not such a
 * document (written by Apache Hudi) are a plain comment without name.
 */
final case class SavepointLabel(name: Option[String], expiresAt: Option[Long], comment: Option[String]) {

  def toComments: String =
    if (name.isEmpty && expiresAt.isEmpty) comment.getOrElse("")
    else {
      val node = SavepointLabel.mapper.createObjectNode()
      name.foreach(node.put("name", _))
      expiresAt.foreach(node.put("expiresAt", _))
      comment.foreach(node.put("comment", _))
      SavepointLabel.mapper.writeValueAsString(node)
    }
}

object SavepointLabel {

  private val mapper = new ObjectMapper()

  /** Names start with a letter, which tells them from instant times in `as.of.instant`. */
  private val NamePattern = "[A-Za-z][A-Za-z0-9._:-]{0,127}".r

  def isValidName(s: String): Boolean = NamePattern.matches(s)

  /** True when `s` is meant as a name rather than an instant time. */
  def looksLikeName(s: String): Boolean = s.trim.headOption.exists(_.isLetter)

  def fromComments(comments: String): SavepointLabel = {
    val parsed = if (!comments.trim.startsWith("{")) None
    else Try(mapper.readTree(comments)).toOption.collect {
      case o: ObjectNode if o.has("name") && o.get("name").isTextual =>
        SavepointLabel(Some(o.get("name").asText),
          Option(o.get("expiresAt")).filter(_.canConvertToLong).map(_.asLong),
          Option(o.get("comment")).filter(_.isTextual).map(_.asText))
    }
    parsed.getOrElse(SavepointLabel(None, None, Option(comments).filter(_.nonEmpty)))
  }
}
