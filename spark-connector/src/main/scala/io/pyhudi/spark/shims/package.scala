// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark

/**
 * The Spark-internal APIs pyhudi uses (parquet reading and writing, writing into the parquet
 * reader's column vectors, Dataset creation), behind one seam so that one jar works across
 * Spark 4.x releases.
 */
package object shims
