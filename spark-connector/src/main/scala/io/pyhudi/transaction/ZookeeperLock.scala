// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import java.util.concurrent.TimeUnit

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.curator.framework.CuratorFrameworkFactory
import org.apache.curator.framework.recipes.locks.InterProcessMutex
import org.apache.curator.retry.BoundedExponentialBackoffRetry

/**
 * Apache Hudi's `ZookeeperBasedLockProvider`: an Apache Curator `InterProcessMutex` at
 * `<basePath>/<lockKey>` in ZooKeeper, which excludes writers in any process. Curator and
 * ZooKeeper come with Spark. The lock's ephemeral node goes away with a holder's session, so a
 * killed writer does not keep it.
 *
 * @param connect ZooKeeper's host:port list
 */
final class ZookeeperLock(connect: String, basePath: String, lockKey: String, sessionTimeoutMs: Int = 60000,
    connectionTimeoutMs: Int = 15000)
    extends LockProvider {
  private val node = s"${basePath.stripSuffix("/")}/$lockKey"

  private val client = {
    val c = CuratorFrameworkFactory.newClient(connect, sessionTimeoutMs, connectionTimeoutMs,
      new BoundedExponentialBackoffRetry(100, 2000, 3))
    c.start()
    c
  }

  private val mutex = new InterProcessMutex(client, node)

  override def name: String = LockProviderType.Zookeeper.className
  override def target: String = s"$connect$node"
  override def tryLock(waitMs: Long): Boolean = mutex.acquire(waitMs, TimeUnit.MILLISECONDS)
  override def unlock(): Unit = mutex.release()

  /** The lock's first participant node (the holder), and the address Curator stores in it. */
  override def holder: Option[String] =
    try mutex.getParticipantNodes.asScala.headOption.map { p =>
        val data = Option(client.getData.forPath(p)).map(new String(_, "UTF-8")).getOrElse("")
        if (data.isEmpty) p else s"$p ($data)"
      }
    catch { case NonFatal(_) => None }

  override def close(): Unit = client.close()
}

object ZookeeperLock {

  /** `hosts` with `port` added to each host that names none (Apache Hudi's url and port options). */
  def connectString(hosts: String, port: Int): String =
    hosts.split(",").map(_.trim).filter(_.nonEmpty).map(h => if (h.contains(":")) h else s"$h:$port").mkString(",")
}
