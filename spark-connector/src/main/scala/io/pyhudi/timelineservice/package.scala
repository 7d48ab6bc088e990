// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * The timeline service (docs/timeline-service.md): a small HTTP service that runs in the driver
 * next to the writes. [[timelineservice.TimelineService]] takes marker requests from tasks and
 * [[timelineservice.MarkerBatcher]] writes them in batches into `MARKERS<n>` files, Apache
 * Hudi's `TIMELINE_SERVER_BASED` layout (hudi-format.md §7); [[timelineservice.TimelineServerMarkers]]
 * is the tasks' side, which creates a direct marker whenever the service does not answer.
 */
package object timelineservice
