// SPDX-License-Identifier: Apache-2.0
ThisBuild / version := "0.1.0"
