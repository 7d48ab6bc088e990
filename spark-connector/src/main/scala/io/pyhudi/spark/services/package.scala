// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark

/** Table services as Spark jobs: compaction runs one task per planned file slice. */
package object services
