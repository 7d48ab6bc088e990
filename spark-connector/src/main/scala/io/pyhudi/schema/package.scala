// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Table schemas: the Hudi meta columns, resolving a table's current schema from its newest
 * commit metadata or base files, and [[schema.ForwardingRow]], the base of row views that read
 * a row of a schema through without copying it.
 */
package object schema
