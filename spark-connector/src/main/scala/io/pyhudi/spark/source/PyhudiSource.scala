// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import java.util

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{DataFrame, SQLContext, SaveMode, SparkSession}
import org.apache.spark.sql.connector.catalog.{Table, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.sources.{BaseRelation, CreatableRelationProvider, DataSourceRegister}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import io.pyhudi.config.SessionConf
import io.pyhudi.errors.{Errors, TableNotFoundException}
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.spark.write.HoodieSparkWriter

/**
 * `format("pyhudi")`. Reads resolve a base path to a [[PyhudiTable]] (DataSource V2). Writes
 * take Spark's V1 path (`CreatableRelationProvider`): the table never advertises
 * `BATCH_WRITE`, so `df.write.save()` hands us the DataFrame with any SaveMode, and index
 * lookups and record routing run as ordinary Spark jobs, as Apache Hudi's writer does.
 */
class PyhudiSource extends TableProvider with DataSourceRegister with CreatableRelationProvider {

  override def shortName(): String = PyhudiSource.ShortName

  override def inferSchema(options: CaseInsensitiveStringMap): StructType =
    PyhudiSource.loadTable(options.asCaseSensitiveMap().asScala.toMap).schema()

  // Lets df.write pass the DataFrame's schema instead of inferring one from a table that a
  // first write has not created yet; reads without a user schema still infer it.
  override def supportsExternalMetadata(): Boolean = true

  override def getTable(schema: StructType, partitioning: Array[Transform],
      properties: util.Map[String, String]): Table = {
    val options = properties.asScala.toMap
    try PyhudiSource.loadTable(options)
    catch { case e: TableNotFoundException => new MissingTable(schema, e) }
  }

  override def createRelation(sqlContext: SQLContext, mode: SaveMode,
      parameters: Map[String, String], data: DataFrame): BaseRelation = {
    HoodieSparkWriter.write(data.sparkSession, mode, PyhudiSource.withSessionConf(data.sparkSession, parameters), data)
    val (context, written) = (sqlContext, data.schema)
    new BaseRelation {
      override def sqlContext: SQLContext = context
      override def schema: StructType = written
    }
  }
}

object PyhudiSource {
  val ShortName = "pyhudi"

  def pathOf(options: Map[String, String]): String =
    options.collectFirst { case (k, v) if k.equalsIgnoreCase("path") => v }
      .getOrElse(throw Errors.missingOption("path", "(spark.read.format(\"pyhudi\").load(<base path>))"))

  def loadTable(given: Map[String, String]): PyhudiTable = {
    val spark = SparkSession.active
    val options = withSessionConf(spark, given)
    PyhudiTable.open(pathOf(options), options, ParquetReaderShim.hadoopConf(spark, options))
  }

  /** Read or write options completed by `spark.hoodie.*` session confs (config.SessionConf). */
  def withSessionConf(spark: SparkSession, options: Map[String, String]): Map[String, String] =
    SessionConf.withSessionConf(options, spark.conf.getAll)
}
