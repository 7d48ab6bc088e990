// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

/**
 * The BUCKET index: a record's bucket number follows from its key hash, and a bucket is one file
 * group whose file id starts with that number.
 */
package object bucket
