import CLibcameraRuntime
import CaptureCore
import Dispatch
import Foundation
import Synchronization

// Stills larger than the stream, as rpicam-still takes them: stop the viewfinder stream,
// configure a StillCapture-role stream at the photo's size, take its first frame, configure
// the viewfinder role again and restart. libcamera configures only stopped cameras, so the
// session's video pauses for the switch; the frames it cost are reported as dropped.

extension LibcameraCamera {
    /// The still-role format a still of `request`'s size is taken in when it is larger than
    /// the format the session streams: the smallest still size holding it; nil when the
    /// stream's own frames will do (or no still size is large enough: the stream's frame
    /// is taken then, as for any other still).
    func largerStillFormat(for request: StillRequest, streaming configuration: StreamConfiguration) -> LibcameraFormat? {
        let current = formats[configuration.formatIndex]
        guard request.width > current.width || request.height > current.height else { return nil }
        return stillFormats.filter { $0.width >= request.width && $0.height >= request.height }.min {
            ($0.width * $0.height, $0.width) < ($1.width * $1.height, $1.width)
        }
    }

    /// Takes a still larger than the stream on `switchQueue` (`completion` runs there): stops
    /// the session's stream, streams the still role at the still's size until its first
    /// frame, then starts the session's stream again into the same sink. The frames the gap
    /// cost are reported to the sink as dropped (`.discontinuity`) before the stream resumes;
    /// a stream that cannot resume fails the session's stream as any failure does, so
    /// nothing waits for frames that never come.
    func takeLargerStill(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) {
        transition.lock()
        guard let running = state.withLock({ $0 }), let format = largerStillFormat(for: request, streaming: running.configuration) else {
            transition.unlock()
            // Stopped (or reconfigured to a size that holds the still) meanwhile: the usual path.
            if !stills.add(request, completion: completion) { completion(.failure(.streamFailed("not streaming"))) }
            return
        }
        let (still, failure) = pauseStream(running) { firstStillFrame(format, request, like: running.configuration) }
        // Told without the lock: the session may stop the camera from the failure.
        transition.unlock()
        reportPauseFailure(failure, to: running)
        completion(still)
    }

    /// With `transition` held and the session streaming as `running`: stops the stream, runs
    /// `work`, reports the frames the gap cost to the sink as dropped (`.discontinuity`) and
    /// starts the stream again into the same sink. Returns `work`'s result and the failure
    /// that kept the stream from resuming (or the disconnection `work` met), which the
    /// caller passes to `reportPauseFailure` once it has let go of `transition`.
    func pauseStream<T>(_ running: Running, for work: () -> Result<T, BackendError>) -> (Result<T, BackendError>, BackendError?) {
        let paused = CMClockGetTime(CMClockGetHostTimeClock()).value
        let streamFrame = running.configuration.minFrameDuration
        let streamed = running.stream.format
        stopStream()
        let result = work()
        if case .failure(.deviceWasDisconnected) = result { return (result, .deviceWasDisconnected) }
        var gap = FrameMetadata()
        gap.presentationTime = CMTime(value: paused, timescale: 1_000_000_000)
        gap.frameDuration = streamFrame
        gap.width = streamed.width
        gap.height = streamed.height
        let elapsed = Double(CMClockGetTime(CMClockGetHostTimeClock()).value - paused) / 1e9
        let frames = streamFrame.isValid && streamFrame.seconds > 0 ? Int((elapsed / streamFrame.seconds).rounded(.up)) : 1
        running.sink.backendDidDrop(count: max(1, frames), reason: .discontinuity, metadata: gap)
        do {
            try startStream(running.configuration, sink: running.sink)
        } catch {
            return (result, error)
        }
        return (result, nil)
    }

    /// Fails the session's stream with what kept `pauseStream` from resuming it; called
    /// without `transition` held (the session may stop the camera from the failure).
    func reportPauseFailure(_ failure: BackendError?, to running: Running) {
        guard let failure else { return }
        if failure == .deviceWasDisconnected { markDisconnected() }
        stills.close(failure)
        running.sink.backendDidFail(failure)
    }

    /// The first frame of a still-role stream of `format` (the session's frame rate limits,
    /// the controls in force), converted to the request's pixel format by a still taker of
    /// its own; the camera is stopped and released before this returns. A pipeline that
    /// sends nothing fails the still after 10 s rather than holding the video off for good.
    private func firstStillFrame(
        _ format: LibcameraFormat, _ request: StillRequest, like session: StreamConfiguration
    ) -> Result<StillCapture, BackendError> {
        guard let api = system.api, let manager = system.manager else { return .failure(.deviceWasDisconnected) }
        let taker = LibcameraStillTaker()
        taker.open()
        let outcome = Mutex<Result<StillCapture, BackendError>?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        var asked = request
        asked.zeroShutterLag = false
        _ = taker.add(asked) { result in
            outcome.withLock { $0 = result }
            arrived.signal()
        }
        let sink = LibcameraStillSink { arrived.signal() }
        var failure = BackendError.streamFailed("no frame in 10 s from the still configuration \(format.width)x\(format.height)")
        do {
            let stream = try LibcameraStream(
                api: api, manager: manager, id: cameraID, role: Int32(OC_LC_ROLE_STILL), asked: format, configuration: session,
                sink: sink, mapper: mapper, stills: taker, carried: carried)
            _ = arrived.wait(timeout: .now() + .seconds(10))
            stream.stop()
            if let error = sink.failure { failure = error }
        } catch {
            failure = error
        }
        // The taker answers its one request exactly once: with the frame, or this failure.
        taker.close(failure)
        while outcome.withLock({ $0 }) == nil { arrived.wait() }
        return outcome.withLock { $0 }!
    }
}

/// The sink of a still-role stream: its frames go to the still taker, so this only notes a
/// failure (and wakes the waiting still).
private final class LibcameraStillSink: FrameSink, Sendable {
    private let failed = Mutex<BackendError?>(nil)
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    var failure: BackendError? { failed.withLock { $0 } }

    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {}
    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {}
    func backendDidFail(_ error: BackendError) {
        failed.withLock { $0 = $0 ?? error }
        wake()
    }
    func waitUntilReadyForNextFrame() -> Bool { true }
}
