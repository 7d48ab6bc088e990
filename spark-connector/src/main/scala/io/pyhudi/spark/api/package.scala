// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark

/**
 * Entry points for table services, called from Scala and, through py4j, from the Python
 * package `pyhudi`.
 */
package object api
