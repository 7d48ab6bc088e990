// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import io.pyhudi.config.ReadConfig
import io.pyhudi.errors.Errors

/**
 * A validated description of what a read asks for.
 *
 * @param missingFiles what to do about files the served slices should hold but that are gone
 * @param footerPartitionValuesMinBytes the smallest split whose constant partition columns are
 *                                      taken from footer statistics
 */
final case class QuerySpec(
    queryType: QueryType,
    asOf: Option[String],
    begin: Option[String],
    end: Option[String],
    missingFiles: MissingFilesMode = MissingFilesMode.Fail,
    footerPartitionValuesMinBytes: Long = ReadConfig.FooterPartitionValuesMinBytes.default.get) {
  def isIncremental: Boolean = queryType == QueryType.Incremental
  def isReadOptimized: Boolean = queryType == QueryType.ReadOptimized
}

object QuerySpec {

  /** Parses and cross-checks read options; errors name the option at fault. */
  def fromOptions(options: Map[String, String]): QuerySpec = {
    val queryType = ReadConfig.QueryType.from(options).get
    val asOf = ReadConfig.AsOfInstant.from(options)
    val begin = ReadConfig.BeginInstant.from(options)
    val end = ReadConfig.EndInstant.from(options)
    if (queryType == QueryType.Incremental) {
      if (begin.isEmpty)
        throw Errors.missingOption(ReadConfig.BeginInstant.key, "for incremental queries")
      if (asOf.isDefined)
        throw Errors.invalidOption(ReadConfig.AsOfInstant.key, asOf.get,
          "time travel cannot be combined with an incremental query; use " +
            s"${ReadConfig.EndInstant.key} to bound the range")
      for (b <- begin; e <- end if b > e)
        throw Errors.invalidOption(ReadConfig.BeginInstant.key, b,
          s"the begin instant is after the end instant $e (${ReadConfig.EndInstant.key})")
    }
    QuerySpec(queryType, asOf, begin, end, ReadConfig.MissingFiles.from(options).get,
      ReadConfig.FooterPartitionValuesMinBytes.from(options).get)
  }
}
