import Foundation
import ImageOps
import Synchronization

/// Receives one device's frames on its capture thread and hands each enabled connection's
/// consumer its copy: the device's buffer itself when the consumer takes it as captured,
/// else a rotated, mirrored, converted or scaled buffer from the consumer's own pools.
///
/// The routes are one immutable list (`FrameRoute`s, one per connection whose consumer
/// takes frames), built by `setTargets` at each commit and start and swapped in whole, so
/// a frame reads one snapshot under one lock and never sees half a configuration.
///
/// Threads: the `FrameSink` calls come on the device's capture thread and never call user
/// code (delegates run on their own queues); `setTargets` and `stop` come from a job on the
/// session's runner queue (`SessionRunner`), run for a caller that holds the session's
/// configuration lock, and never wait.
final class FrameRouter: FrameSink, Sendable {
    private weak let session: AVCaptureSession?
    private let device: AVCaptureDevice
    private let routes = Mutex<[FrameRoute]>([])
    private let stopped = Atomic<Bool>(false)

    /// Buffers an output's pool may lend out before frames are dropped as `OutOfBuffers`.
    static let outputPoolSize = 6

    /// The session's start instant for a stream started with the session (see `FrameSink`).
    let streamEpoch: Int64?

    init(session: AVCaptureSession, device: AVCaptureDevice, epoch: Int64? = nil) {
        self.session = session
        self.device = device
        streamEpoch = epoch
    }

    /// Builds the route list for `connections` and publishes it; a connection keeps its
    /// route's reused state, and consumers hear whether they joined or left.
    func setTargets(_ connections: [AVCaptureConnection]) {
        let old = routes.withLock { $0 }
        let new = connections.compactMap { connection in
            FrameRoute(connection: connection, previous: old.first { $0.connection === connection })
        }
        routes.withLock { $0 = new }
        guard !stopped.load(ordering: .acquiring) else { return }
        for route in old where !new.contains(where: { $0.consumer === route.consumer }) {
            route.consumer.frameRouteDidEnd(by: self, routerStopped: false)
        }
        for route in new { route.consumer.frameRouteDidPublish(by: self) }
    }

    /// Stops routing and releases a capture thread waiting for a consumer (virtual time), so
    /// the backend's stop, which joins that thread, never waits for a delegate.
    func stop() {
        stopped.store(true, ordering: .releasing)
        for route in routes.withLock({ $0 }) { route.consumer.frameRouteDidEnd(by: self, routerStopped: true) }
    }

    // MARK: FrameSink

    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {
        guard !stopped.load(ordering: .acquiring) else { return }
        device.record(metadata)
        for route in routes.withLock({ $0 }) {
            route.consumer.frameClockDidTick(metadata)
            let connection = route.connection
            let (rotation, wantsMirror, enabled) = connection.transform
            guard enabled, connection.inputPorts.allSatisfy(\.isEnabled), route.consumer.acceptsFrames else { continue }
            // A device that flipped the frame itself leaves nothing to do, or an unflip.
            let mirrored = wantsMirror != metadata.isMirroredByDevice
            guard let conversion = route.conversion else {
                route.consumer.take(
                    RoutedFrame(buffer: buffer, metadata: metadata, rotation: rotation, mirrored: mirrored, formatDescription: nil, connection: connection))
                continue
            }
            deliver(buffer, metadata: metadata, rotation: rotation, mirrored: mirrored, through: route, conversion: conversion)
        }
    }

    /// Turns, mirrors, converts and scales a frame for a converted route, then hands it on;
    /// a pool that has no buffer free drops the frame as `OutOfBuffers`.
    private func deliver(
        _ buffer: CVPixelBuffer, metadata: FrameMetadata, rotation: Int, mirrored: Bool, through route: FrameRoute, conversion: FrameConversion
    ) {
        let format = conversion.format
        let quarterTurn = rotation == 90 || rotation == 270
        let turnedWidth = quarterTurn ? buffer.height : buffer.width
        let turnedHeight = quarterTurn ? buffer.width : buffer.height
        let scaled = conversion.scaledSize(forFrameWidth: turnedWidth, height: turnedHeight)
        let (width, height) = scaled ?? (turnedWidth, turnedHeight)
        var image = buffer
        if rotation != 0 || mirrored || format != buffer.format {
            // Turned and converted at full size: into the output's pool, or a scratch pool when scaling follows.
            let pool = conversion.pools.pool(
                scaled == nil ? .delivered : .turned, format: format, width: turnedWidth, height: turnedHeight, attachmentsOf: buffer)
            guard let converted = pool.dequeue() else {
                return route.consumer.framesWereDropped(count: 1, reason: .outOfBuffers, metadata: metadata)
            }
            _ = ImageTransform.transform(buffer, into: converted, rotation: Rotation(rawValue: rotation) ?? .none, mirrored: mirrored)
            image = converted
        }
        if scaled != nil {
            let pool = conversion.pools.pool(.delivered, format: format, width: width, height: height, attachmentsOf: buffer)
            guard let small = pool.dequeue(), ImageTransform.scale(image, into: small) else {
                return route.consumer.framesWereDropped(count: 1, reason: .outOfBuffers, metadata: metadata)
            }
            image = small
        }
        let description = route.descriptions.description(format: format, width: width, height: height)
        route.consumer.take(
            RoutedFrame(buffer: image, metadata: metadata, rotation: 0, mirrored: false, formatDescription: description, connection: route.connection))
    }

    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {
        guard !stopped.load(ordering: .acquiring) else { return }
        for route in routes.withLock({ $0 }) where route.connection.isEnabled {
            route.consumer.framesWereDropped(count: count, reason: reason, metadata: metadata)
        }
    }

    func backendDidFail(_ error: BackendError) {
        guard !stopped.load(ordering: .acquiring) else { return }
        session?.streamDidFail(self, error: error)
    }

    func waitUntilReadyForNextFrame() -> Bool {
        // A consumer that closed (its output was removed, or its delegate replaced) is no
        // reason to stop: the others still want frames. Only this router's stop ends the wait.
        for route in routes.withLock({ $0 }) {
            guard !stopped.load(ordering: .acquiring) else { return false }
            route.consumer.waitUntilReadyForFrame(unless: { stopped.load(ordering: .acquiring) })
        }
        return !stopped.load(ordering: .acquiring)
    }
}
