// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import scala.collection.mutable

import io.pyhudi.filegroup.BaseFile
import io.pyhudi.merge.{MergeMode, OrderingValues}
import io.pyhudi.storage.Storage
import io.pyhudi.write.WriteRecord
import io.pyhudi.write.commit.IOType

/**
 * Rewrites one file group's base file with incoming records merged in (copy-on-write): a stored
 * record with an incoming update is replaced (or kept, under event-time ordering, when it has
 * the larger ordering value), one with an incoming delete is dropped, every other stored record
 * is carried over with its commit time and sequence number, and incoming keys the file did not
 * hold are appended as inserts.
 */
final class MergeHandle(
    ctx: HandleContext,
    base: BaseFile,
    partitionPath: String,
    writeToken: String,
    taskPartition: Int) {

  private val incoming = mutable.LinkedHashMap.empty[String, WriteRecord]

  /** Adds an incoming record; for a repeated key the later one wins (de-duplication ran before). */
  def add(record: WriteRecord): Unit = incoming.update(record.key, record)

  def write(): HandleResult = {
    val storage = new Storage(ctx.conf.value)
    val file = new FileWrite(ctx, storage, partitionPath, base.fileId, writeToken, IOType.Merge)
    try {
      val carry = CarryOver.projection(ctx.tableSchema, file.fileName)
      val seqNos = new CommitSeqNos(ctx.instantTime, taskPartition)
      var updates, deletes = 0L
      def writeNew(r: WriteRecord): Unit =
        file.write(r.key, file.newRecord(seqNos.next(), r.key, r.row))
      ctx.readBase(base).foreach { stored =>
        val key = stored.getUTF8String(2).toString
        incoming.remove(key) match {
          case None => file.write(key, carry(stored))
          case Some(r) if r.isDelete => deletes += 1
          case Some(r) =>
            val keepStored = ctx.mergeMode == MergeMode.EventTime && r.ordering != null &&
              OrderingValues.compare(orderingOf(stored), r.ordering) > 0
            if (keepStored) file.write(key, carry(stored)) else { writeNew(r); updates += 1 }
        }
      }
      var inserts = 0L
      incoming.valuesIterator.filterNot(_.isDelete).foreach { r => writeNew(r); inserts += 1 }
      file.close(Some(base.instant), inserts, updates, deletes)
    } catch {
      case e: Throwable => file.abort(); throw e
    }
  }

  private lazy val orderingOf = OrderingValues.reader(ctx.tableSchema, ctx.orderingOrdinal)
}
