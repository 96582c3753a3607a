import Foundation
import MediaIO
import OpenCapture

/// The newest frame of a session as a JPEG, for every client at once: each frame is
/// compressed once however many clients watch, and only while someone wants frames.
///
/// A video data output delivers to `captureOutput` on the server's capture queue; frames are
/// compressed on a queue of their own, the newest first. Clients
/// wait in `frame(after:)` on their own connection threads and always get the newest
/// picture, so a slow client skips frames and never holds up capture or other clients.
final class LiveFrames: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Frame: Sendable {
        let sequence: Int
        let jpeg: Data
    }

    /// Where every frame the output delivered went: compressed and offered to the clients,
    /// replaced by a newer one before its turn (`superseded`), delivered while nobody wanted
    /// frames (`unwatched`), not compressible (`failed`), or still waiting or being
    /// compressed (`queued`, at most 2). They always add up to `delivered`.
    struct Ledger: Sendable, Equatable {
        var delivered = 0
        var encoded = 0
        var superseded = 0
        var unwatched = 0
        var failed = 0
        var queued = 0
    }

    private let condition = NSCondition()
    private var newest: Frame?
    private var demand = 0
    private var stopped = false
    /// The number of the newest frame (the camera's and the no-signal picture's).
    private var sequence = 0
    private var ledger = Ledger()
    private var dropped = 0
    private var dropReasons: [String: Int] = [:]
    /// The size of the last frame delivered (the output's pixels), for tap conversions.
    private var frameSize = CGSize(width: 0, height: 0)
    private var recentTimes: [Double] = []
    private let quality: Int
    /// The newest frame not yet compressed, and whether the encoder is at work.
    private var pending: (sequence: Int, pixels: CVPixelBuffer)?
    private var encoding = false
    /// The luma histogram of the newest compressed frame.
    private var histogram: [Int] = []
    private let encoder = DispatchQueue(label: "OpenCaptureWeb.jpeg")

    init(quality: Int) { self.quality = quality }

    // MARK: capture queue

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let time = CMSampleBufferGetPresentationTimeStamp(sampleBuffer).seconds
        condition.lock()
        ledger.delivered += 1
        sequence += 1
        recentTimes.append(time)
        if recentTimes.count > 31 { recentTimes.removeFirst(recentTimes.count - 31) }
        // Compressing happens on the encoder's queue, so this delegate returns at once and
        // the output never drops a frame for it; a newer frame replaces one not yet begun.
        var startEncoder = false
        let image = CMSampleBufferGetImageBuffer(sampleBuffer)
        if let image { frameSize = CGSize(width: CVPixelBufferGetWidth(image), height: CVPixelBufferGetHeight(image)) }
        if demand > 0, let pixels = image {
            if pending != nil { ledger.superseded += 1 } else { ledger.queued += 1 }
            pending = (sequence, pixels)
            startEncoder = !encoding
            encoding = true
        } else if image == nil {
            ledger.failed += 1
        } else {
            ledger.unwatched += 1
        }
        condition.unlock()
        if startEncoder { encoder.async { self.encodePending() } }
    }

    /// Compresses the pending frame, then any that came meanwhile (on the encoder's queue).
    private func encodePending() {
        while true {
            condition.lock()
            guard let (sequence, pixels) = pending else {
                encoding = false
                condition.unlock()
                return
            }
            pending = nil
            condition.unlock()
            let jpeg = try? JPEGEncoder.encode(pixels, quality: quality, exif: nil)
            let bins = jpeg == nil ? nil : LumaHistogram.of(pixels)
            condition.lock()
            ledger.queued -= 1
            guard let jpeg else {
                ledger.failed += 1
                condition.unlock()
                continue
            }
            ledger.encoded += 1
            newest = Frame(sequence: sequence, jpeg: jpeg)
            if let bins { histogram = bins }
            condition.broadcast()
            condition.unlock()
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let reason = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) as? String
        condition.lock()
        dropped += 1
        dropReasons[reason ?? "unknown", default: 0] += 1
        condition.unlock()
    }

    // MARK: clients

    /// A frame newer than `sequence`, waiting up to `timeout` seconds for one; nil when none
    /// came or the server stops.
    func frame(after sequence: Int, timeout: Double) -> Frame? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        demand += 1
        defer { demand -= 1 }
        while !stopped {
            if let newest, newest.sequence > sequence { return newest }
            if !condition.wait(until: deadline) { return nil }
        }
        return nil
    }

    /// The size of the frames the output delivers (zero before the first).
    var lastFrameSize: CGSize {
        condition.lock()
        defer { condition.unlock() }
        return frameSize
    }

    /// Shows `jpeg` as the newest frame (the "no signal" picture while the camera is gone);
    /// the next frame the camera delivers replaces it.
    func publish(_ jpeg: Data) {
        condition.lock()
        sequence += 1
        newest = Frame(sequence: sequence, jpeg: jpeg)
        condition.broadcast()
        condition.unlock()
    }

    /// The luma histogram of the newest frame served (empty before the first).
    var lumaHistogram: [Int] {
        condition.lock()
        defer { condition.unlock() }
        return histogram
    }

    /// Whether `stop()` was called: no frame will come any more.
    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Wakes every waiting client for good.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The number of the newest frame so far (`frame(after:)` waits for a later one).
    var newestSequence: Int {
        condition.lock()
        defer { condition.unlock() }
        return sequence
    }

    /// Where the delivered frames went, frames the output dropped (with the drops' reasons),
    /// and the frame rate over the last 30 frames, read at one instant.
    var counts: (ledger: Ledger, dropped: Int, dropReasons: [String: Int], fps: Double) {
        condition.lock()
        defer { condition.unlock() }
        let span = (recentTimes.last ?? 0) - (recentTimes.first ?? 0)
        let fps = recentTimes.count > 1 && span > 0 ? Double(recentTimes.count - 1) / span : 0
        return (ledger, dropped, dropReasons, fps)
    }
}

/// `multipart/x-mixed-replace` of JPEGs, the MJPEG stream every browser shows in an
/// `<img>`: each part is the newest frame when the client is ready for the next one.
///
/// Each part is sent with the delimiter that closes it: a browser shows a part once it
/// reads the next delimiter (Chromium looks for it, not at Content-Length), so a delimiter
/// sent only with the next frame would hold every picture back a whole frame interval.
final class MJPEGStream: WebStream, @unchecked Sendable {
    static let boundary = "opencapture-frame"
    private let frames: LiveFrames
    private let lock = NSLock()
    private var lastSequence = 0
    private var opened = false
    private var cancelled = false
    /// Called once when the stream ends (the viewer left, or the server stops).
    private var onEnd: (@Sendable () -> Void)?

    init(frames: LiveFrames, onEnd: (@Sendable () -> Void)? = nil) {
        self.frames = frames
        self.onEnd = onEnd
    }

    func next() -> Data? {
        while !isCancelled && !frames.isStopped {
            guard let frame = frames.frame(after: lastSequence, timeout: 1) else { continue }
            lastSequence = frame.sequence
            // The first part opens with a delimiter; every part ends with the next one.
            var part = Data((opened ? "" : "--\(Self.boundary)\r\n").utf8)
            opened = true
            // The frame's number tells a client how many it skipped; Content-Length stays
            // last, where simple readers look for the end of the part's headers.
            part.append(Data("Content-Type: image/jpeg\r\nX-Frame-Sequence: \(frame.sequence)\r\nContent-Length: \(frame.jpeg.count)\r\n\r\n".utf8))
            part.append(frame.jpeg)
            part.append(Data("\r\n--\(Self.boundary)\r\n".utf8))
            return part
        }
        return nil
    }

    private var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let ended = onEnd
        onEnd = nil
        lock.unlock()
        ended?()
    }
}
