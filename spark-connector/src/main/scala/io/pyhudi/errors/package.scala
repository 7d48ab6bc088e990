// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * The errors pyhudi raises: one factory ([[errors.Errors]]) builds every message, and each
 * exception class has a twin in the Python module `pyhudi.errors`.
 */
package object errors
