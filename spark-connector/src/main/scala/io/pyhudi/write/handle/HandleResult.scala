package io.pyhudi.write.handle

/**
 * What a handle wrote to one file: becomes a write stat in the commit metadata.
 *
 * @param relativePath the file's path relative to the base path
 * @param prevCommit   the replaced base file's instant (None for a new file group)
 */
final case class HandleResult(
    partitionPath: String,
    fileId: String,
    relativePath: String,
    prevCommit: Option[String],
    numWrites: Long,
    numInserts: Long,
    numUpdates: Long,
    numDeletes: Long,
    fileSize: Long,
    minKey: String,
    maxKey: String,
    timeMillis: Long)
