import CaptureCore
import Dispatch
import Foundation
import Glibc
import ImageOps
import Synchronization

// Stills larger than the stream: the device switches to a format of that size for one
// frame and back, as a UVC webcam's 5 MP still is taken while its 1080p video pauses.

extension V4L2Camera {
    /// The mode a still of `request`'s size is taken in when it is larger than the running
    /// stream: the smallest frame size holding it, the stream's FourCC there if the device
    /// has it, else the cheapest to deliver; nil when the stream's own frames will do (or
    /// nothing is running, or no size is large enough: the still then fails as usual).
    func largerStillMode(for request: StillRequest, streaming configuration: StreamConfiguration) -> Int? {
        let current = modes[configuration.formatIndex]
        guard request.width > current.width || request.height > current.height else { return nil }
        let holding = modes.indices.filter { modes[$0].width >= request.width && modes[$0].height >= request.height }
        guard let area = holding.map({ modes[$0].width * modes[$0].height }).min() else { return nil }
        let sized = holding.filter { modes[$0].width * modes[$0].height == area }
        return sized.first { modes[$0].code == current.code } ?? sized.min { modes[$0].code.preference < modes[$1].code.preference }
    }

    /// Takes a still larger than the stream on `switchQueue`: stops the session's stream,
    /// streams the larger format until its first frame, then starts the session's stream
    /// again into the same sink. The frames the gap cost are reported to the sink as dropped
    /// (`.discontinuity`) before the stream resumes; a stream that cannot resume fails the
    /// session's stream as any failure does, so nothing waits for frames that never come.
    func takeLargerStill(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) {
        transition.lock()
        guard let running = state.withLock({ $0 }), let index = largerStillMode(for: request, streaming: running.configuration) else {
            transition.unlock()
            // Stopped (or reconfigured to a size that holds the still) meanwhile: the usual path.
            if !stills.add(request, completion: completion) { completion(.failure(.streamFailed("not streaming"))) }
            return
        }
        let paused = CMClockGetTime(CMClockGetHostTimeClock()).value
        let streamFrame = running.stream.frameDuration
        stopStream()
        let still = firstFrame(of: index, like: running.configuration)
        var failure: BackendError?
        if case .failure(.deviceWasDisconnected) = still { failure = .deviceWasDisconnected }
        if failure == nil {
            var gap = FrameMetadata()
            gap.presentationTime = CMTime(value: paused, timescale: 1_000_000_000)
            gap.frameDuration = streamFrame
            gap.width = modes[running.configuration.formatIndex].width
            gap.height = modes[running.configuration.formatIndex].height
            let elapsed = Double(CMClockGetTime(CMClockGetHostTimeClock()).value - paused) / 1e9
            let frames = streamFrame.seconds > 0 ? Int((elapsed / streamFrame.seconds).rounded(.up)) : 1
            running.sink.backendDidDrop(count: max(1, frames), reason: .discontinuity, metadata: gap)
            failure = restart(running)
        }
        transition.unlock()
        if let failure {
            if failure == .deviceWasDisconnected { markDisconnected() }
            stills.close(failure)
            running.sink.backendDidFail(failure)
        }
        switch still {
        case .success(let frame):
            stills.complete(
                PendingStills.Entry(request: request, completion: completion), buffer: frame.buffer, metadata: frame.metadata,
                device: frame.controls, jpeg: frame.jpeg)
        case .failure(let error):
            completion(.failure(error))
        }
    }

    /// Starts the session's stream again after the still; the node the still used may take a
    /// moment to let go of its buffers (EBUSY), so that is retried for up to a second.
    private func restart(_ running: Running) -> BackendError? {
        for attempt in 0..<20 {
            do {
                try startStream(running.configuration, sink: running.sink)
                return nil
            } catch where error == .deviceInUse && attempt < 19 {
                usleep(50_000)
            } catch {
                return error
            }
        }
        return .deviceInUse
    }

    /// One frame of mode `index` (at its highest frame rate, unmirrored, in the session's
    /// pixel format), copied out of the driver's buffer, with the JPEG the camera sent for it
    /// (a Motion JPEG mode) and the driver's exposure controls as they were when it came; the
    /// node is closed before this returns, so the session's stream can take the device again.
    private func firstFrame(
        of index: Int, like session: StreamConfiguration
    ) -> Result<(buffer: CVBuffer, metadata: FrameMetadata, jpeg: [UInt8]?, controls: V4L2ControlSnapshot), BackendError> {
        let mode = modes[index]
        var configuration = session
        configuration.formatIndex = index
        configuration.mirrored = false
        configuration.videoHDR = .off
        let fastest = mode.frameRateRanges.map(\.upperBound).max() ?? 30
        configuration.minFrameDuration = CMTime(seconds: 1 / fastest, preferredTimescale: 1_000_000)
        configuration.maxFrameDuration = configuration.minFrameDuration
        let sink = V4L2SingleFrameSink()
        do {
            let node = try V4L2Node(path: path)
            let flip = controls.first { $0.id == V4L2ControlID.horizontalFlip && !$0.isReadOnly }
            let stream = try V4L2Stream(
                node: node, mode: mode, configuration: configuration, sink: sink, controls: applier, horizontalFlip: flip, stills: sink)
            // A driver that never sends (every buffer dropped, a hung device) fails the still
            // rather than holding the session's video off for good.
            let wait = max(2, 10 / fastest)
            let result = sink.wait(seconds: wait)
            let snapshot = V4L2ControlSnapshot(reading: controls, from: node)
            stream.stop()
            return result.map { ($0.buffer, $0.metadata, $0.jpeg, snapshot) }
        } catch {
            return .failure(V4L2Camera.backendError(error))
        }
    }
}

/// Receives the frames of a still's own stream and keeps a copy of the first (the driver's
/// buffer goes back at once, so stopping frees every buffer and the session's stream can
/// have the device), with the JPEG the camera sent for it when the stream is Motion JPEG.
final class V4L2SingleFrameSink: FrameSink, V4L2JPEGNoting, @unchecked Sendable {
    /// The first frame: its copy, metadata and the camera's JPEG of it.
    typealias Frame = (buffer: CVBuffer, metadata: FrameMetadata, jpeg: [UInt8]?)
    typealias Outcome = Result<Frame, BackendError>
    private let result = Mutex<Outcome?>(nil)
    /// The JPEG noted for the frame about to arrive (sequence, bytes).
    private let noted = Mutex<(sequence: Int64, bytes: [UInt8])?>(nil)
    private let arrived = DispatchSemaphore(value: 0)

    /// Until the first frame is in: only that frame's JPEG is wanted.
    var wantsFrames: Bool { result.withLock { $0 == nil } }

    func noteJPEG(_ bytes: [UInt8], sequence: Int64) {
        noted.withLock { $0 = (sequence, bytes) }
    }

    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {
        guard result.withLock({ $0 }) == nil else { return }
        let copy = CVBuffer(format: buffer.format, width: buffer.width, height: buffer.height)
        let copied = ImageTransform.transform(buffer, into: copy, rotation: .none, mirrored: false)
        let attachments = buffer.attachmentStore.withLock { $0 }
        copy.attachmentStore.withLock { $0 = attachments }
        let jpeg = noted.withLock { noted -> [UInt8]? in
            defer { noted = nil }
            return noted?.sequence == metadata.sequence ? noted?.bytes : nil
        }
        finish(copied ? .success((copy, metadata, jpeg)) : .failure(.streamFailed("the still's frame could not be copied")))
    }

    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {}

    func backendDidFail(_ error: BackendError) { finish(.failure(error)) }

    func waitUntilReadyForNextFrame() -> Bool { true }

    private func finish(_ outcome: Outcome) {
        let first = result.withLock { result -> Bool in
            guard case .none = result else { return false }
            result = outcome
            return true
        }
        if first { arrived.signal() }
    }

    /// The first frame, or the stream's failure; a timeout after `seconds` without either.
    func wait(seconds: Double) -> Outcome {
        if arrived.wait(timeout: .now() + seconds) == .timedOut {
            finish(.failure(.streamFailed("no frame in \(Int(seconds)) s at the still's size")))
        }
        return result.withLock { $0 }!
    }
}

/// The controls a still's metadata reports (`V4L2StillExposure`), read while its node was
/// open: the node is closed before the still is converted.
struct V4L2ControlSnapshot: V4L2ControlAccess {
    private let values: [UInt32: Int64]

    init(reading controls: [V4L2ControlInfo], from device: any V4L2ControlAccess) {
        let wanted: Set<UInt32> = [
            V4L2ControlID.exposureTimeAbsolute, V4L2ControlID.isoSensitivity, V4L2ControlID.gain, V4L2ControlID.autoWhiteBalance,
        ]
        var values: [UInt32: Int64] = [:]
        for control in controls where wanted.contains(control.id) {
            values[control.id] = try? device.value(of: control.id, is64: control.is64Bit)
        }
        self.values = values
    }

    func value(of id: UInt32, is64: Bool) throws(V4L2Failure) -> Int64 {
        guard let value = values[id] else { throw V4L2Failure("VIDIOC_G_EXT_CTRLS (not read)", EINVAL) }
        return value
    }

    func setValue(_ value: Int64, of id: UInt32, is64: Bool) throws(V4L2Failure) -> Int64 {
        throw V4L2Failure("VIDIOC_S_EXT_CTRLS (a snapshot)", EPERM)
    }
}
