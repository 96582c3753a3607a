import CaptureCore
import Dispatch
import ImageOps
import Synchronization

/// A V4L2 camera's stills: requests wait here for a frame of the stream, which the still
/// queue converts to what the request asks for.
///
/// A still is the first frame the driver timestamps at or after the request (exposure as
/// it is); a zero-shutter-lag still is the newest frame at or before the request, from the
/// recent-frame history kept (copied out of the driver's buffers, which must go back to it)
/// while a photo output wants it. Requests live from the session's `start` to its `stop`:
/// the camera's own restarts for a new format keep them waiting, a failed stream fails them.
final class V4L2StillTaker: Sendable {
    /// One frame of the history: a copy of the picture the driver sent.
    struct Frame: RecentFrame, @unchecked Sendable {
        var buffer: CVBuffer
        var metadata: FrameMetadata
        /// The JPEG the camera sent for the frame (Motion JPEG cameras).
        var jpeg: [UInt8]?
        var heldBytes: Int { buffer.byteCount + (jpeg?.count ?? 0) }
    }

    /// A frame, the metadata to complete and a request's completion, for the still queue.
    private struct Job: @unchecked Sendable {
        var entry: PendingStills.Entry
        var buffer: CVBuffer
        var metadata: FrameMetadata
        var jpeg: [UInt8]?
        var fromRecentFrames: Bool
        /// The stream's node, to read the controls the still's metadata reports.
        var device: any V4L2ControlAccess
    }

    let recentFrames = RecentFrames()
    /// Requests of the running session; nil while stopped.
    private let pending = Mutex<PendingStills?>(nil)
    private let history = Mutex(RecentFrameHistory<Frame>())
    /// The JPEG of the frame about to be delivered (sequence, bytes), from a Motion JPEG stream.
    private let encoded = Mutex<(sequence: Int64, bytes: [UInt8])?>(nil)
    /// Buffers the history copies into, for the stream's format and size.
    private let historyPool = Mutex<CVPixelBufferPool?>(nil)
    private let queue = DispatchQueue(label: "OpenCapture.v4l2.stills")
    /// The device's controls, whose values a still's metadata reports (`V4L2StillExposure`).
    private let controls: [V4L2ControlInfo]
    /// A bracket still watching every frame for its exposure to show (`V4L2BracketPicker`).
    private let watcher = Mutex<(@Sendable (CVBuffer, FrameMetadata) -> Void)?>(nil)

    init(controls: [V4L2ControlInfo]) {
        self.controls = controls
    }

    /// The session started streaming: requests are taken from now on.
    func open() {
        pending.withLock { $0 = PendingStills() }
    }

    /// The session stopped, or the stream failed: every waiting request fails with `error`,
    /// later ones at once, and the history is let go.
    func close(_ error: BackendError) {
        let closed = pending.withLock { pending -> PendingStills? in
            defer { pending = nil }
            return pending
        }
        for entry in closed?.close() ?? [] { entry.completion(.failure(error)) }
        releaseHistory()
    }

    /// Queues a still for the next frame; false when not streaming (the caller fails it).
    /// The request is stamped with its moment on the frames' clock (CLOCK_MONOTONIC).
    func add(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) -> Bool {
        var request = request
        request.moment = CMClockGetTime(CMClockGetHostTimeClock()).value
        guard let stills = pending.withLock({ $0 }) else { return false }
        return stills.add(PendingStills.Entry(request: request, completion: completion))
    }

    /// Whether the next frame could become a still (requests wait, or the history is kept):
    /// only then does a Motion JPEG stream copy out the JPEG it decodes (`noteJPEG`).
    var wantsFrames: Bool { recentFrames.isEnabled || (pending.withLock { $0 }?.hasEntries ?? false) }

    /// The JPEG of frame `sequence`, which the capture thread delivers next: a still of that
    /// frame carries it as `StillCapture.deviceJPEG`.
    func noteJPEG(_ bytes: [UInt8], sequence: Int64) {
        encoded.withLock { $0 = (sequence, bytes) }
    }

    /// A frame reached the sink (capture thread): keeps it in the history while anyone
    /// wants it and hands the requests it answers to the still queue. `device` is the node
    /// streaming it.
    func frameArrived(_ buffer: CVBuffer, metadata: FrameMetadata, device: any V4L2ControlAccess) {
        if let watch = watcher.withLock({ $0 }) { watch(buffer, metadata) }
        let jpeg = encoded.withLock { noted -> [UInt8]? in
            defer { noted = nil }
            return noted?.sequence == metadata.sequence ? noted?.bytes : nil
        }
        let keeping = recentFrames.isEnabled
        if keeping { keep(buffer, metadata, jpeg) } else { releaseHistory() }
        guard let stills = pending.withLock({ $0 }) else { return }
        let entries = stills.take()
        guard !entries.isEmpty else { return }
        let time = metadata.presentationTime.value
        for entry in entries {
            let moment = entry.request.moment ?? .min
            if entry.request.zeroShutterLag, let past = history.withLock({ $0.frame(at: moment) }) {
                submit(Job(
                    entry: entry, buffer: past.buffer, metadata: past.metadata, jpeg: past.jpeg,
                    fromRecentFrames: past.metadata.presentationTime.value != time, device: device))
            } else if entry.request.zeroShutterLag || time >= moment {
                submit(Job(entry: entry, buffer: buffer, metadata: metadata, jpeg: jpeg, fromRecentFrames: false, device: device))
            } else if !stills.add(entry) {
                // A frame finished before the request: wait for the next, unless the session stopped meanwhile.
                entry.completion(.failure(.streamFailed("not streaming")))
            }
        }
    }

    /// A still taken from a stream of its own (larger than the session's) or picked by a
    /// bracket: converted and completed on the still queue like one from the session's
    /// stream. `jpeg` is the camera's own JPEG of the frame (a Motion JPEG stream's).
    func complete(
        _ entry: PendingStills.Entry, buffer: CVBuffer, metadata: FrameMetadata, device: any V4L2ControlAccess, jpeg: [UInt8]? = nil
    ) {
        submit(Job(entry: entry, buffer: buffer, metadata: metadata, jpeg: jpeg, fromRecentFrames: false, device: device))
    }

    /// Shows every frame of the stream to `watch` on the capture thread (nil: no longer).
    func watchFrames(_ watch: (@Sendable (CVBuffer, FrameMetadata) -> Void)?) {
        watcher.withLock { $0 = watch }
    }

    /// Bytes the history holds now.
    var recentFrameBytes: Int { recentFrames.heldBytes }

    private func keep(_ buffer: CVBuffer, _ metadata: FrameMetadata, _ jpeg: [UInt8]?) {
        let pool = historyPool.withLock { pool -> CVPixelBufferPool in
            if let pool, pool.format == buffer.format, pool.width == buffer.width, pool.height == buffer.height { return pool }
            // Depth plus what stills may hold while the queue converts them.
            let made = CVPixelBufferPool(
                format: buffer.format, width: buffer.width, height: buffer.height, maximumBufferCount: RecentFrames.depth + 4)
            pool = made
            return made
        }
        // Every copy held (stills still converting): this frame is left out of the history.
        guard let copy = pool.dequeue(), ImageTransform.transform(buffer, into: copy, rotation: .none, mirrored: false) else { return }
        let bytes = history.withLock { history in
            history.append(Frame(buffer: copy, metadata: metadata, jpeg: jpeg))
            return history.bytes
        }
        recentFrames.setHeldBytes(bytes)
    }

    private func releaseHistory() {
        let released = history.withLock { history -> Bool in
            guard history.count > 0 else { return false }
            history.release()
            return true
        }
        guard released else { return }
        historyPool.withLock { $0 = nil }
        recentFrames.setHeldBytes(0)
    }

    private func submit(_ job: Job) {
        queue.async { [controls] in
            let request = job.entry.request
            let source = job.buffer
            guard request.width <= source.width, request.height <= source.height else {
                let size = "\(request.width)x\(request.height)"
                return job.entry.completion(.failure(.streamFailed("a \(size) still is larger than the \(source.width)x\(source.height) stream")))
            }
            // A frame the driver flipped (horizontal_flip for a mirrored connection) is
            // flipped back: a still is unmirrored, as the photo output expects of every camera.
            let converted = CVBuffer(format: request.pixelFormat, width: source.width, height: source.height)
            guard ImageTransform.transform(source, into: converted, rotation: .none, mirrored: job.metadata.isMirroredByDevice) else {
                return job.entry.completion(.failure(.streamFailed("the frame could not be converted")))
            }
            var still = converted
            if request.width != source.width || request.height != source.height {
                let scaled = CVBuffer(format: request.pixelFormat, width: request.width, height: request.height)
                guard ImageTransform.scale(converted, into: scaled) else {
                    return job.entry.completion(.failure(.streamFailed("the frame could not be scaled")))
                }
                still = scaled
            }
            // The frame's colour tags (BT.601 Y'CbCr, as V4L2 cameras send): the JPEG encoder
            // reads the matrix from them, and would take an untagged still for BT.709.
            let attachments = source.attachmentStore.withLock { $0 }
            still.attachmentStore.withLock { $0 = attachments }
            var metadata = job.metadata
            metadata.isMirroredByDevice = false
            metadata.width = still.width
            metadata.height = still.height
            V4L2StillExposure.describe(&metadata, controls: controls, device: job.device)
            var capture = StillCapture(buffer: still, metadata: metadata, flashFired: false)
            capture.fromRecentFrames = job.fromRecentFrames
            if still.width == source.width, still.height == source.height, !job.metadata.isMirroredByDevice {
                capture.deviceJPEG = job.jpeg
            }
            job.entry.completion(.success(capture))
        }
    }
}
