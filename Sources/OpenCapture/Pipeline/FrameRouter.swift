import Foundation
import ImageOps
import Synchronization

/// Receives one device's frames on its capture thread and hands each enabled connection's
/// output its copy: the device's buffer itself when the output wants it as it is, else a
/// rotated, mirrored or converted buffer from the output's own pool.
///
/// Threads: the `FrameSink` calls come on the device's capture thread and never call user
/// code (delegates run on their own queues); `setTargets` and `stop` come from the session
/// with its configuration lock held, and never wait.
final class FrameRouter: FrameSink, @unchecked Sendable {
    private weak var session: AVCaptureSession?
    private let device: AVCaptureDevice
    private let targets = Mutex<[Target]>([])
    /// Movie outputs take the device's buffers as they are: rotation goes in the track matrix.
    private let recorders = Mutex<[(connection: AVCaptureConnection, output: AVCaptureMovieFileOutput)]>([])
    /// Stream outputs take the device's buffers as they are, into their bounded queues.
    private let streams = Mutex<[(connection: AVCaptureConnection, output: AVCaptureStreamOutput)]>([])
    /// Preview layers turn and scale frames on their own queues.
    private let previews = Mutex<[(connection: AVCaptureConnection, layer: AVCaptureVideoPreviewLayer)]>([])
    /// Metadata outputs read frames on their own queues (`MetadataScanner`).
    private let scanners = Mutex<[(connection: AVCaptureConnection, output: AVCaptureMetadataOutput)]>([])
    /// Photo outputs keep frames for Live Photo movies (when enabled: `LivePhotoRecorder`).
    private let photos = Mutex<[(connection: AVCaptureConnection, output: AVCapturePhotoOutput)]>([])
    private let stopped = Atomic<Bool>(false)

    /// One connection's route, with the pools (the output's, kept across runs) and format
    /// description it reuses frame to frame.
    final class Target: @unchecked Sendable {
        let connection: AVCaptureConnection
        let output: AVCaptureVideoDataOutput
        let pools: OutputPools
        var formatDescription: CMFormatDescription?

        init(connection: AVCaptureConnection, output: AVCaptureVideoDataOutput) {
            self.connection = connection
            self.output = output
            pools = output.pools
            pools.beginRun()
        }
    }

    /// Buffers an output's pool may lend out before frames are dropped as `OutOfBuffers`.
    static let outputPoolSize = 6

    /// The session's start instant for a stream started with the session (see `FrameSink`).
    let streamEpoch: Int64?

    init(session: AVCaptureSession, device: AVCaptureDevice, epoch: Int64? = nil) {
        self.session = session
        self.device = device
        streamEpoch = epoch
    }

    func setTargets(_ connections: [AVCaptureConnection]) {
        previews.withLock { list in
            list = connections.compactMap { connection in connection.videoPreviewLayer.map { (connection, $0) } }
        }
        scanners.withLock { list in
            list = connections.compactMap { connection in
                (connection.output as? AVCaptureMetadataOutput).map { (connection, $0) }
            }
            for (_, output) in list { output.scanner.begin() }
        }
        let (old, new) = recorders.withLock { list in
            let old = list.map(\.output)
            list = connections.compactMap { connection in
                (connection.output as? AVCaptureMovieFileOutput).map { (connection, $0) }
            }
            return (old, list.map(\.output))
        }
        // Feeds for the movie outputs' virtual-time lockstep with a microphone.
        if !stopped.load(ordering: .acquiring) {
            for movie in old where !new.contains(where: { $0 === movie }) { movie.recorder.setFeed(self, audio: false, attached: false) }
            for movie in new { movie.recorder.setFeed(self, audio: false, attached: true) }
        }
        photos.withLock { list in
            list = connections.compactMap { connection in (connection.output as? AVCapturePhotoOutput).map { (connection, $0) } }
        }
        streams.withLock { list in
            list = connections.compactMap { connection in
                (connection.output as? AVCaptureStreamOutput).map { (connection, $0) }
            }
        }
        targets.withLock { current in
            current = connections.compactMap { connection in
                guard let output = connection.output as? AVCaptureVideoDataOutput else { return nil }
                return current.first { $0.connection === connection } ?? Target(connection: connection, output: output)
            }
        }
    }

    /// Stops routing and releases a capture thread waiting for a consumer (virtual time), so
    /// the backend's stop, which joins that thread, never waits for a delegate.
    func stop() {
        stopped.store(true, ordering: .releasing)
        for target in targets.withLock({ $0 }) { target.output.delivery?.wake() }
        for (_, output) in scanners.withLock({ $0 }) { output.scanner.stop() }
        for (_, movie) in recorders.withLock({ $0 }) { movie.recorder.setFeed(self, audio: false, attached: false) }
    }

    // MARK: FrameSink

    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {
        guard !stopped.load(ordering: .acquiring) else { return }
        device.record(metadata)
        let movies = recorders.withLock { $0 }
        // Every frame moves a movie output's video clock, recorded or not (virtual-time lockstep).
        for (_, movie) in movies { movie.recorder.noteVideoTime(metadata.presentationTime) }
        for (connection, recorder) in movies where connection.isEnabled && connection.inputPorts.allSatisfy(\.isEnabled) {
            // Rotation goes in the track matrix; mirroring into the pixels unless the device did it.
            recorder.consume(buffer, metadata: metadata, mirrored: connection.transform.mirrored != metadata.isMirroredByDevice)
        }
        for (connection, stream) in streams.withLock({ $0 }) where connection.isEnabled && connection.inputPorts.allSatisfy(\.isEnabled) {
            // Turned and mirrored on the stream's own thread, off the capture thread.
            let (rotation, wantsMirror, _) = connection.transform
            stream.consume(buffer, metadata: metadata, rotation: rotation, mirrored: wantsMirror != metadata.isMirroredByDevice)
        }
        for (connection, layer) in previews.withLock({ $0 }) {
            let (rotation, wantsMirror, enabled) = connection.transform
            guard enabled, connection.inputPorts.allSatisfy(\.isEnabled) else { continue }
            layer.show(buffer, rotation: rotation, mirrored: wantsMirror != metadata.isMirroredByDevice)
        }
        for (connection, output) in scanners.withLock({ $0 }) where connection.isEnabled && connection.inputPorts.allSatisfy(\.isEnabled) {
            output.scanner.offer(buffer, metadata: metadata, connection: connection, output: output)
        }
        for (connection, output) in photos.withLock({ $0 }) where output.livePhotos.isActive && connection.isEnabled {
            output.livePhotos.offer(buffer, metadata: metadata, mirrored: connection.transform.mirrored != metadata.isMirroredByDevice)
        }
        let routes = targets.withLock { $0 }
        for target in routes {
            let (rotation, wantsMirror, enabled) = target.connection.transform
            // A device that flipped the frame itself leaves nothing to do, or an unflip.
            let mirrored = wantsMirror != metadata.isMirroredByDevice
            guard enabled, target.connection.inputPorts.allSatisfy(\.isEnabled) else { continue }
            let format = target.output.deliveredPixelFormat
            let quarterTurn = rotation == 90 || rotation == 270
            let turnedWidth = quarterTurn ? buffer.height : buffer.width
            let turnedHeight = quarterTurn ? buffer.width : buffer.height
            let scaled = target.output.scaledSize(forFrameWidth: turnedWidth, height: turnedHeight)
            let (width, height) = scaled ?? (turnedWidth, turnedHeight)
            var image = buffer
            if rotation != 0 || mirrored || format != buffer.format {
                // Turned and converted at full size: into the output's pool, or a scratch pool when scaling follows.
                let pool =
                    scaled == nil
                    ? target.pools.pool(.delivered, format: format, width: turnedWidth, height: turnedHeight, attachmentsOf: buffer)
                    : target.pools.pool(.turned, format: format, width: turnedWidth, height: turnedHeight, attachmentsOf: buffer)
                guard let converted = pool.dequeue() else {
                    target.output.enqueueDrops(count: 1, reason: .outOfBuffers, metadata: metadata)
                    continue
                }
                _ = ImageTransform.transform(buffer, into: converted, rotation: Rotation(rawValue: rotation) ?? .none, mirrored: mirrored)
                image = converted
            }
            if scaled != nil {
                let pool = target.pools.pool(.delivered, format: format, width: width, height: height, attachmentsOf: buffer)
                guard let small = pool.dequeue(), ImageTransform.scale(image, into: small) else {
                    target.output.enqueueDrops(count: 1, reason: .outOfBuffers, metadata: metadata)
                    continue
                }
                image = small
            }
            if let description = target.formatDescription, description.mediaSubTypeCode == format.rawValue,
                Int(description.dimensions.width) == width, Int(description.dimensions.height) == height
            {
            } else {
                target.formatDescription = CMFormatDescription(videoFormat: format.rawValue, width: width, height: height)
            }
            target.output.enqueue(image, format: target.formatDescription!, metadata: metadata)
        }
    }

    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {
        guard !stopped.load(ordering: .acquiring) else { return }
        for target in targets.withLock({ $0 }) where target.connection.isEnabled {
            target.output.enqueueDrops(count: count, reason: reason, metadata: metadata)
        }
        // A frame the source could not deliver is missing from a recording too.
        for (connection, movie) in recorders.withLock({ $0 }) where connection.isEnabled {
            movie.recorder.noteSourceDrops(count)
        }
    }

    func backendDidFail(_ error: BackendError) {
        guard !stopped.load(ordering: .acquiring) else { return }
        session?.streamDidFail(self, error: error)
    }

    func waitUntilReadyForNextFrame() -> Bool {
        for (_, recorder) in recorders.withLock({ $0 }) {
            recorder.recorder.waitUntilDrained(unless: { stopped.load(ordering: .acquiring) })
        }
        for (_, output) in scanners.withLock({ $0 }) {
            output.scanner.waitUntilIdle(unless: { stopped.load(ordering: .acquiring) })
        }
        // An inbox that closed (its output was removed, or its delegate replaced) is no reason
        // to stop: the other outputs still want frames. Only this router's stop ends the wait.
        for target in targets.withLock({ $0 }) {
            guard !stopped.load(ordering: .acquiring) else { return false }
            _ = target.output.delivery?.waitUntilEmpty(unless: { stopped.load(ordering: .acquiring) })
        }
        return !stopped.load(ordering: .acquiring)
    }
}
