// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark

/**
 * The write path as Spark jobs: key generation and de-duplication of incoming rows, the index
 * lookup join, and running the write handles on executors, driven by `HoodieSparkWriter`.
 */
package object write
