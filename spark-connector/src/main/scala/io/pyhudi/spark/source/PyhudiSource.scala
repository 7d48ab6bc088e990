package io.pyhudi.spark.source

import java.util

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.catalog.{Table, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.sources.DataSourceRegister
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import io.pyhudi.errors.Errors
import io.pyhudi.spark.shims.ParquetReaderShim

/** `format("pyhudi")`: resolves a base path to a [[PyhudiTable]]. */
class PyhudiSource extends TableProvider with DataSourceRegister {

  override def shortName(): String = PyhudiSource.ShortName

  override def inferSchema(options: CaseInsensitiveStringMap): StructType =
    PyhudiSource.loadTable(options.asCaseSensitiveMap().asScala.toMap).schema()

  override def getTable(schema: StructType, partitioning: Array[Transform],
      properties: util.Map[String, String]): Table =
    PyhudiSource.loadTable(properties.asScala.toMap)
}

object PyhudiSource {
  val ShortName = "pyhudi"

  def loadTable(options: Map[String, String]): PyhudiTable = {
    val path = options.collectFirst { case (k, v) if k.equalsIgnoreCase("path") => v }
      .getOrElse(throw Errors.missingOption("path", "(spark.read.format(\"pyhudi\").load(<base path>))"))
    val spark = SparkSession.active
    PyhudiTable.open(path, options, ParquetReaderShim.hadoopConf(spark, options))
  }
}
