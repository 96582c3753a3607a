import CaptureCore

// Photos from a V4L2 camera: a still is a frame of the running stream (see `V4L2StillTaker`).

extension V4L2Camera: StillCapturing {
    /// V4L2 has no flash control a still could fire; flash_led_mode's torch is a torch.
    package var hasFlash: Bool { false }

    /// The next frame the driver timestamps at or after the request, or for zero shutter
    /// lag the newest kept frame at or before it, converted to the request's format; a still
    /// larger than the stream is the first frame of a larger format the device switches to
    /// and back (`takeLargerStill`). Fails at once when not streaming, and when the stream
    /// stops or fails first.
    package func captureStill(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) {
        guard isConnected else { return completion(.failure(.deviceWasDisconnected)) }
        let larger = state.withLock { $0?.configuration }.map { largerStillMode(for: request, streaming: $0) != nil } ?? false
        if let exposure = request.exposure {
            // A bracket still: its controls set, the first frame showing them (V4L2Camera+Brackets.swift).
            guard !larger else {
                return completion(.failure(.streamFailed("bracketed stills are taken at the stream's size, not larger")))
            }
            return switchQueue.async { self.takeBracketStill(request, exposure, completion: completion) }
        }
        if larger {
            // Larger than the stream: the device switches format for it (V4L2Camera+LargerStills.swift).
            return switchQueue.async { self.takeLargerStill(request, completion: completion) }
        }
        if !stills.add(request, completion: completion) { completion(.failure(.streamFailed("not streaming"))) }
    }

    package func keepRecentFrames(_ keep: Bool, for owner: ObjectIdentifier) {
        stills.recentFrames.keep(keep, for: owner)
    }

    package var recentFrameBytes: Int { stills.recentFrameBytes }
}

/// Shows each frame to the camera's stills before the session's sink gets it, and fails
/// waiting stills when the stream fails (before the session hears, so a photo's delegate
/// gets its error whatever the session does next).
final class V4L2StillTap: FrameSink, @unchecked Sendable {
    let sink: any FrameSink
    let stills: V4L2StillTaker
    let node: V4L2Node

    init(sink: any FrameSink, stills: V4L2StillTaker, node: V4L2Node) {
        self.sink = sink
        self.stills = stills
        self.node = node
    }

    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {
        stills.frameArrived(buffer, metadata: metadata, device: node)
        sink.backendDidCapture(buffer, metadata: metadata)
    }

    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {
        sink.backendDidDrop(count: count, reason: reason, metadata: metadata)
    }

    func backendDidFail(_ error: BackendError) {
        stills.close(error)
        sink.backendDidFail(error)
    }

    func waitUntilReadyForNextFrame() -> Bool { sink.waitUntilReadyForNextFrame() }
}
