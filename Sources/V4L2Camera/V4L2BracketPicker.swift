import CaptureCore
import Dispatch
import ImageOps
import Synchronization

/// Picks a bracket still out of the stream: the first frame that shows the exposure its
/// controls were just set to.
///
/// V4L2 reports no per-frame exposure for most cameras, and a sensor applies a new exposure
/// a frame or two after the driver accepted it, so the frames' own brightness tells: the
/// mean of a sparse luma grid of each frame. Before the write the last frame's mean is the
/// baseline; after it, the first frame dequeued at or after the write whose mean moved by
/// more than `threshold` from the baseline is a candidate, taken once the frame after it
/// moved no further (it was not caught half-exposed while the sensor switched). A picture
/// that never moves (the exposure does not change it, as gain on vivid; or the scene is
/// black) gives the first frame dequeued after the write once `patience` frames passed —
/// the applier's rule for control requests. `detected` says which it was.
final class V4L2BracketPicker: @unchecked Sendable {
    struct Pick: @unchecked Sendable {
        var buffer: CVBuffer
        var metadata: FrameMetadata
        /// Whether the frames showed the change (false: the first frame after the write).
        var detected: Bool
        /// Mean luma (0–255 of the buffer's first plane) of the baseline and the pick.
        var baseline: Double?
        var mean: Double
    }

    private struct State {
        var armedAt: Int64?
        var baseline: Double?
        var fallback: (buffer: CVBuffer, metadata: FrameMetadata, mean: Double)?
        var candidate: (buffer: CVBuffer, metadata: FrameMetadata, mean: Double)?
        var seenAfter = 0
        var pick: Pick?
    }

    /// Frames after the write before the first one is taken without a visible change.
    static let patience = 6
    private let state = Mutex(State())
    private let picked = DispatchSemaphore(value: 0)
    private let baselineSeen = DispatchSemaphore(value: 0)

    /// The smallest change of the mean that counts: 2 levels or 3 %, whichever is more.
    static func threshold(_ baseline: Double) -> Double { max(2, 0.03 * baseline) }

    /// When a frame counts as come (CLOCK_MONOTONIC ns): the later of its stamp and when
    /// the stream dequeued it (V4L2 backends say; 0 elsewhere). A frame dequeued before a
    /// write cannot show it, and the driver's stamp may lie ahead of the delivery (vivid
    /// stamps the end of a frame it hands out at its start, 0.9 of a frame later); a frame
    /// stamped before the write was exposed before it though dequeued after (uvcvideo
    /// stamps the start of exposure). Frames offered before `arm` are the baseline whatever
    /// their moment.
    static func moment(of metadata: FrameMetadata) -> Int64 {
        max(metadata.dequeueHostTime, metadata.presentationTime.value)
    }

    /// From now on, frames that come (`moment(of:)`) at or after `moment` may be picked.
    func arm(at moment: Int64) {
        state.withLock { $0.armedAt = moment }
    }

    /// Waits until a frame offered before `arm` gave the baseline (false after `seconds`).
    /// Without one no change can be seen: a still written right after the previous one
    /// (a bracket's next exposure) would always fall back to the first frame after its write.
    func waitForBaseline(seconds: Double) -> Bool {
        if state.withLock({ $0.baseline != nil }) { return true }
        return baselineSeen.wait(timeout: .now() + seconds) == .success
    }

    /// A frame of the stream (capture thread). Copies only a frame it may pick.
    func offer(_ buffer: CVBuffer, _ metadata: FrameMetadata) {
        let mean = Self.meanLuma(buffer)
        let time = Self.moment(of: metadata)
        var asFallback = false, asCandidate = false, firstBaseline = false
        let done = state.withLock { state -> Bool in
            guard state.pick == nil else { return false }
            guard let armed = state.armedAt, time >= armed else {
                firstBaseline = state.baseline == nil
                state.baseline = mean
                return false
            }
            state.seenAfter += 1
            asFallback = state.fallback == nil
            if let baseline = state.baseline, abs(mean - baseline) > Self.threshold(baseline) {
                if let candidate = state.candidate, abs(mean - candidate.mean) <= Self.threshold(baseline) {
                    state.pick = Pick(buffer: candidate.buffer, metadata: candidate.metadata, detected: true, baseline: baseline, mean: candidate.mean)
                    return true
                }
                asCandidate = true
            }
            return false
        }
        if firstBaseline { baselineSeen.signal() }
        if done {
            picked.signal()
            return
        }
        let copy = asFallback || asCandidate ? Self.copy(buffer) : nil
        let finished = state.withLock { state -> Bool in
            if asFallback, let copy { state.fallback = (copy, metadata, mean) }
            // A frame that still moved replaces the candidate: the sensor is settling.
            if asCandidate, let copy { state.candidate = (copy, metadata, mean) }
            if state.pick == nil, state.seenAfter >= Self.patience, let fallback = state.fallback {
                let chosen = state.candidate ?? fallback
                state.pick = Pick(
                    buffer: chosen.buffer, metadata: chosen.metadata, detected: state.candidate != nil, baseline: state.baseline,
                    mean: chosen.mean)
                return true
            }
            return false
        }
        if finished { picked.signal() }
    }

    /// Waits for the pick; nil after `seconds` (the stream stalled).
    func wait(seconds: Double) -> Pick? {
        _ = picked.wait(timeout: .now() + seconds)
        return state.withLock { $0.pick }
    }

    /// Mean of a 1-in-8 grid of the first plane (luma of Y'CbCr buffers, green of BGRA).
    static func meanLuma(_ buffer: CVBuffer) -> Double {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let planar = CVPixelBufferGetPlaneCount(buffer) > 0
        guard let base = planar ? CVPixelBufferGetBaseAddressOfPlane(buffer, 0) : CVPixelBufferGetBaseAddress(buffer) else { return 0 }
        let rowBytes = planar ? CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) : CVPixelBufferGetBytesPerRow(buffer)
        let (step, offset) = buffer.format == .bgra ? (4, 1) : (1, 0)
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var sum = 0, count = 0
        for y in stride(from: 0, to: buffer.height, by: 8) {
            for x in stride(from: 0, to: buffer.width, by: 8) {
                sum += Int(bytes[y * rowBytes + x * step + offset])
                count += 1
            }
        }
        return count > 0 ? Double(sum) / Double(count) : 0
    }

    private static func copy(_ buffer: CVBuffer) -> CVBuffer? {
        let copy = CVBuffer(format: buffer.format, width: buffer.width, height: buffer.height)
        guard ImageTransform.transform(buffer, into: copy, rotation: .none, mirrored: false) else { return nil }
        let attachments = buffer.attachmentStore.withLock { $0 }
        copy.attachmentStore.withLock { $0 = attachments }
        return copy
    }
}
