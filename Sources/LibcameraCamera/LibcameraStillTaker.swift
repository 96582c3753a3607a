import CaptureCore
import Dispatch
import Synchronization

/// A libcamera camera's stills: a still is the first frame of the running stream that
/// libcamera timestamps at or after the request (the viewfinder configuration, not a
/// still-role one: reconfiguring libcamera for a StillCapture stream stops the stream for
/// longer than a frame, so it is left for later), converted from the request's mapped
/// buffer into the pixel format asked for on libcamera's thread and completed on a queue
/// of its own. A zero-shutter-lag request takes that frame too (there is no history).
final class LibcameraStillTaker: Sendable {
    /// Requests of the running session; nil while stopped.
    private let pending = Mutex<PendingStills?>(nil)
    private let queue = DispatchQueue(label: "OpenCapture.libcamera.stills")

    /// The session started streaming: requests are taken from now on.
    func open() {
        pending.withLock { $0 = PendingStills() }
    }

    /// The session stopped, or the stream failed: every waiting request fails with `error`.
    func close(_ error: BackendError) {
        let closed = pending.withLock { pending -> PendingStills? in
            defer { pending = nil }
            return pending
        }
        let entries = closed?.close() ?? []
        guard !entries.isEmpty else { return }
        queue.async { for entry in entries { entry.completion(.failure(error)) } }
    }

    /// Queues a still for the next frame; false when not streaming (the caller fails it).
    func add(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) -> Bool {
        var request = request
        request.moment = CMClockGetTime(CMClockGetHostTimeClock()).value
        guard let stills = pending.withLock({ $0 }) else { return false }
        return stills.add(PendingStills.Entry(request: request, completion: completion))
    }

    /// A frame completed (libcamera's thread): answers the requests made before its timestamp.
    func frameArrived(_ data: UnsafePointer<UInt8>, bytes: Int, metadata: FrameMetadata, stream: LibcameraStream) {
        guard let stills = pending.withLock({ $0 }), stills.hasEntries else { return }
        let time = metadata.presentationTime.value
        for entry in stills.take() {
            guard entry.request.zeroShutterLag || time >= entry.request.moment ?? .min else {
                if !stills.add(entry) { queue.async { entry.completion(.failure(.streamFailed("not streaming"))) } }
                continue
            }
            let result: Result<StillCapture, BackendError>
            if let buffer = stream.convertStill(data, bytes: bytes, pixelFormat: entry.request.pixelFormat) {
                result = .success(StillCapture(buffer: buffer, metadata: metadata, flashFired: false))
            } else {
                result = .failure(.streamFailed("the frame could not be converted to the photo's format"))
            }
            queue.async { entry.completion(result) }
        }
    }
}
