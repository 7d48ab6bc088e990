package io.pyhudi.spark

/** Table services as Spark jobs: compaction runs one task per planned file slice. */
package object services
