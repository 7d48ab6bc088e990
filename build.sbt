// SPDX-License-Identifier: Apache-2.0
// pyhudi: one connector jar for every Spark 4.x (Scala 2.13, Java 17).
// Compile against the oldest supported Spark so that no newer API sneaks in.
val sparkVersion = sys.props.getOrElse("spark.version", "4.0.0")

ThisBuild / organization := "io.pyhudi"
ThisBuild / scalaVersion := "2.13.16" // Spark 4.0's scala-library; 2.13 is only backward compatible
ThisBuild / javacOptions ++= Seq("--release", "17")
ThisBuild / scalacOptions ++= Seq("-release", "17", "-deprecation", "-feature", "-Xlint:-unused,_")

lazy val root = (project in file("."))
  .aggregate(connector)
  .settings(publish / skip := true)

lazy val connector = (project in file("spark-connector"))
  .settings(
    name := "pyhudi-spark4",
    libraryDependencies ++= Seq(
      "org.apache.spark" %% "spark-sql" % sparkVersion % Provided,
      // ZookeeperBasedLockProvider: Spark ships Curator and ZooKeeper (these are Spark 4.0.0's versions).
      "org.apache.curator" % "curator-recipes" % "5.7.1" % Provided,
      "org.apache.zookeeper" % "zookeeper" % "3.9.3" % Provided,
      "org.scalatest" %% "scalatest" % "3.2.19" % Test
    ),
    // Spark brings parquet, avro, hadoop and jackson at run time: the jar holds only our classes.
    assembly / assemblyOption ~= (_.withIncludeScala(false)),
    assembly / assemblyJarName := s"pyhudi-spark4_2.13-${version.value}.jar",
    assembly / test := {},
    Test / fork := true,
    Test / parallelExecution := false,
    Test / javaOptions ++= Seq(
      "-Xmx2g",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", // Kryo, as Spark's launcher opens it
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "-Dpyhudi.repo=" + (ThisBuild / baseDirectory).value.getAbsolutePath,
      "-Dpyhudi.corpus=" + ((ThisBuild / baseDirectory).value / ".." / "shared" / "hudi-tables" / "v6").getAbsolutePath
    ),
    Test / testOptions += Tests.Argument(TestFrameworks.ScalaTest, "-oD")
  )
