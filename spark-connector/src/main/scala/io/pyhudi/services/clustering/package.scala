// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services

/**
 * Clustering (hudi-format.md §2.2, §3, §8; docs/clustering.md): rewrites the small file slices of
 * chosen partitions into fewer, optionally sorted, base files of new file groups, as a
 * replacecommit whose metadata retires the rewritten groups (`partitionToReplaceFileIds`).
 * [[clustering.ClusteringPlanner]] picks the slices and forms the groups (Hudi's size-based plan
 * strategy), [[clustering.ClusteringTransaction]] drives `T.replacecommit.requested` (the
 * `HoodieClusteringPlan` inside `HoodieRequestedReplaceMetadata`) → `T.replacecommit.inflight` →
 * `T.replacecommit` (operationType CLUSTER), and [[clustering.ClusteringSlices]] converts between
 * file slices and the plan's slice records. Readers see the new files only once `T.replacecommit`
 * exists; until then writes that would update a file group of the plan fail (Hudi's default
 * reject-update strategy).
 */
package object clustering
