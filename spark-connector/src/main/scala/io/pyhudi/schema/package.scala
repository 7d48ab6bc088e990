// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Table schemas: the Hudi meta columns and resolving a table's current schema from its newest
 * commit metadata or base files.
 */
package object schema
