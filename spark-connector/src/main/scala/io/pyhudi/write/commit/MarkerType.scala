// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

/** How a write records its markers (`hoodie.write.markers.type`, hudi-format.md §7). */
sealed abstract class MarkerType(val name: String) extends Serializable {
  override def toString: String = name
}

object MarkerType {

  /** One empty file per data file, created by the task that writes it. */
  case object Direct extends MarkerType("DIRECT")

  /**
   * Tasks send markers to the driver's timeline service, which batches them into a few
   * `MARKERS<n>` files; a task whose request fails creates a direct marker instead.
   */
  case object TimelineServerBased extends MarkerType("TIMELINE_SERVER_BASED")

  val All: Seq[MarkerType] = Seq(Direct, TimelineServerBased)
}
