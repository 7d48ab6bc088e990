// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

/**
 * Planning a write without Spark: which records go to which file group (updates to the groups
 * that hold them, inserts packed into small files or new groups sized by the file-size options).
 */
package object plan
