// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

/**
 * The BLOOM index's data: Hudi's bloom filters (simple and dynamic), the murmur hash they use,
 * the key ranges and filters kept in base file footers, and range pruning of candidate files.
 */
package object bloom
