// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timelineservice

import java.io.IOException
import java.net.{HttpURLConnection, URI, URLEncoder}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

import scala.util.control.NonFatal

import org.slf4j.LoggerFactory

import io.pyhudi.storage.Storage
import io.pyhudi.write.commit.{IOType, Marker, MarkerWriter, Markers}

/** Calls one timeline service over HTTP; every failure (refused, timeout, non-200) is an IOException. */
final class TimelineServiceClient(address: String, connectTimeoutMs: Int = 2000, readTimeoutMs: Int = 65000) {

  def createMarker(markerFolder: String, markerName: String): Boolean =
    call("POST", TimelineService.CreateMarker,
      Seq(TimelineService.MarkerDirParam -> markerFolder, TimelineService.MarkerNameParam -> markerName)).toBoolean

  def allMarkers(markerFolder: String): String =
    call("GET", TimelineService.AllMarkers, Seq(TimelineService.MarkerDirParam -> markerFolder))

  def markerDirExists(markerFolder: String): Boolean =
    call("GET", TimelineService.MarkerDirExists, Seq(TimelineService.MarkerDirParam -> markerFolder)).toBoolean

  def deleteMarkerDir(markerFolder: String): Boolean =
    call("POST", TimelineService.DeleteMarkerDir, Seq(TimelineService.MarkerDirParam -> markerFolder)).toBoolean

  /** GET of a view endpoint; the JSON answer. */
  def get(endpoint: String, params: (String, String)*): String = call("GET", endpoint, params)

  private def call(method: String, endpoint: String, params: Seq[(String, String)]): String = {
    val query = params.map { case (k, v) => s"$k=${URLEncoder.encode(v, UTF_8)}" }.mkString("&")
    val conn = URI.create(s"http://$address$endpoint?$query").toURL.openConnection().asInstanceOf[HttpURLConnection]
    try {
      conn.setRequestMethod(method)
      conn.setConnectTimeout(connectTimeoutMs)
      conn.setReadTimeout(readTimeoutMs)
      val code = conn.getResponseCode
      val stream = if (code == 200) conn.getInputStream else conn.getErrorStream
      val body = if (stream == null) "" else new String(stream.readAllBytes(), UTF_8)
      if (code != 200) throw new IOException(s"timeline service $address answered $code to $endpoint: $body")
      body
    } finally conn.disconnect()
  }
}

/**
 * Markers through the driver's timeline service; when a request fails, the marker is created
 * directly instead (logged once per instant and JVM), so a broken service slows a write down
 * and never fails it. Both kinds are read back by [[Markers.list]].
 */
final class TimelineServerMarkers(client: TimelineServiceClient, direct: Markers) extends MarkerWriter {

  override def create(partitionPath: String, fileName: String, ioType: IOType): Marker = {
    val marker = Marker(partitionPath, fileName, ioType)
    try {
      client.createMarker(direct.folder, marker.markerName)
      TimelineServerMarkers.served.incrementAndGet()
      marker
    } catch {
      case NonFatal(e) =>
        TimelineServerMarkers.fellBack(direct.instantTime, e)
        direct.create(partitionPath, fileName, ioType)
    }
  }
}

object TimelineServerMarkers {
  private val log = LoggerFactory.getLogger(getClass)
  private val warned = ConcurrentHashMap.newKeySet[String]()

  /** Markers this JVM created through a service, and directly after a failed request (for tests and metrics). */
  val served = new AtomicLong()
  val fallbacks = new AtomicLong()

  def servedCount: Long = served.get()
  def fallbackCount: Long = fallbacks.get()

  private def fellBack(instant: String, e: Throwable): Unit = {
    fallbacks.incrementAndGet()
    if (warned.add(instant))
      log.warn(s"Timeline service unavailable for markers of instant $instant (${e.getMessage}); " +
        "creating direct markers instead")
  }

  /** The marker writer of a task: through the service at `address`, or direct without one. */
  def writer(storage: Storage, basePath: String, instantTime: String, address: Option[String]): MarkerWriter = {
    val direct = new Markers(storage, basePath, instantTime)
    address.fold[MarkerWriter](direct)(a => new TimelineServerMarkers(new TimelineServiceClient(a), direct))
  }
}
