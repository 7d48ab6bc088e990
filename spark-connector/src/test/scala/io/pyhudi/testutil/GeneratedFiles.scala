// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.testutil

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

import org.scalatest.Assertions._

import io.pyhudi.config.GeneratedFile

/** The check every generated file of the repository gets: what is on disk is what `make docs` writes. */
object GeneratedFiles {

  /** @param relativePath the file's path from the repository root, e.g. `docs/options.md` */
  def assertCurrent(relativePath: String, generator: GeneratedFile): Unit = {
    val path = Paths.get(sys.props.getOrElse("pyhudi.repo", ".."), relativePath)
    val onDisk = new String(Files.readAllBytes(path), StandardCharsets.UTF_8)
    assert(onDisk == generator.text, s"$relativePath is stale: run make docs")
  }
}
