import CaptureCore
import Dispatch
import Foundation
import MediaIO

/// One stream of a file deck, from `start` to `stop`: the playback thread
/// "OpenCapture.deck.<path>" steps the playhead the way the transport says and hands each
/// frame to the sink at its time.
///
/// Times: frame *f* is stamped on the host clock at anchor + |f − anchor frame| / |speed|,
/// the anchor being the last frame delivered before the latest transport change (the
/// stream's start for the first frame), so timestamps rise at every speed and either way.
/// Real-time pacing waits for that time (a frame already late by a whole interval is
/// skipped and reported as a discontinuity); virtual pacing waits for the consumers instead.
final class DeckPlayback: @unchecked Sendable {
    private unowned let camera: FileDeckCamera
    private let playhead: MoviePlayhead
    private let sink: any FrameSink
    private let configuration: Mutex<StreamConfiguration>
    private let stopping = Mutex(false)
    private let exited = DispatchSemaphore(value: 0)
    private let started = DispatchSemaphore(value: 0)
    private var pool: CVPixelBufferPool

    // Only the playback thread touches these.
    private var sequence: Int64 = 0
    /// The transport generation the anchor belongs to.
    private var generation: UInt64 = .max
    private var anchorHost: Int64 = 0
    private var anchorFile: CMTime?
    private var speed: Float = 1
    /// The last frame delivered (or skipped): its host time and file time.
    private var lastHost: Int64?
    private var lastFile: CMTime?
    private var lastStep: Int64 = 0
    /// The playhead's skipped frames already reported as drops.
    private var skippedReported = 0
    /// A frame decoded but not yet due (real time), and the direction it was stepped in.
    private var pending: MoviePlayhead.Frame?
    private var pendingForward = true

    init(camera: FileDeckCamera, playhead: MoviePlayhead, configuration: StreamConfiguration, sink: any FrameSink) {
        self.camera = camera
        self.playhead = playhead
        self.sink = sink
        self.configuration = Mutex(configuration)
        pool = Self.pool(for: configuration, playhead: playhead)
        playhead.pixelFormat = Self.decodedFormat(configuration.pixelFormat)
        playhead.pool = pool
    }

    /// The format the decoder writes: the one asked for, or its 8-bit form (the session's
    /// router converts to 10-bit formats).
    static func decodedFormat(_ format: PixelFormat) -> PixelFormat { format.isTenBit ? format.eightBit : format }

    /// Room for the frames held playing backwards (as many as the playhead's byte budget
    /// holds in this format) beside 12 on their way to the consumers: without it every frame of a backward fill past the
    /// 12th was a new buffer, mapped, faulted in and unmapped again (17x the page faults of
    /// forward play). The pool grows only as far as play needs; forward play lets go of the
    /// extra (see `reanchor`).
    private static func pool(for configuration: StreamConfiguration, playhead: MoviePlayhead) -> CVPixelBufferPool {
        CVPixelBufferPool(
            format: decodedFormat(configuration.pixelFormat), width: playhead.track.width, height: playhead.track.height,
            maximumBufferCount: playhead.reverseLimit(for: decodedFormat(configuration.pixelFormat)) + 12)
    }

    func launch() {
        let thread = Thread { [self] in
            run()
            exited.signal()
        }
        thread.name = "OpenCapture.deck.\(camera.url.path)"
        thread.start()
        started.wait()
    }

    func update(_ configuration: StreamConfiguration) {
        self.configuration.withLock { $0 = configuration }
        camera.wake.signal()
    }

    func requestStop() { stopping.withLock { $0 = true } }

    func join() {
        exited.wait()
        exited.signal()
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    private func run() {
        started.signal()
        anchorHost = HostClock.now()
        while !isStopping {
            applyConfiguration()
            var transport = camera.transport
            guard transport.isMoving else {
                _ = camera.wake.wait(timeout: .now() + .milliseconds(200))
                continue
            }
            if transport.pacing == .virtual {
                guard sink.waitUntilReadyForNextFrame() else { break }
                // A change made while the consumers took the last frame lands on this one.
                transport = camera.transport
                guard transport.isMoving, !isStopping else { continue }
            }
            if transport.generation != generation { reanchor(transport) }
            let forward = transport.speed > 0
            let frame: MoviePlayhead.Frame
            do {
                guard let next = try nextFrame(forward: forward, transport: transport) else { continue }
                frame = next
            } catch {
                fail(error.description)
                return
            }
            let host = hostTime(of: frame.time)
            reportSkippedFrames(before: frame, host: host)
            if transport.pacing == .realTime {
                pending = frame
                pendingForward = forward
                guard waitUntil(host, generation: transport.generation) else { continue }
                pending = nil
                if HostClock.now() - host > max(lastStepNanoseconds(frame), 1) && lastHost != nil {
                    // A whole interval late: skip it, as a camera drops a frame it could not deliver.
                    note(frame, host: host)
                    sink.backendDidDrop(count: 1, reason: .discontinuity, metadata: metadata(frame, host: host))
                    continue
                }
            }
            note(frame, host: host)
            deliver(frame, host: host)
        }
    }

    /// Frames the playhead passed over (no time of their own) are drops, as a camera
    /// reports frames it could not deliver.
    private func reportSkippedFrames(before frame: MoviePlayhead.Frame, host: Int64) {
        let skipped = playhead.skippedFrames - skippedReported
        guard skipped > 0 else { return }
        skippedReported = playhead.skippedFrames
        sink.backendDidDrop(count: skipped, reason: .discontinuity, metadata: metadata(frame, host: host))
    }

    private func applyConfiguration() {
        let wanted = configuration.withLock { $0 }
        let format = Self.decodedFormat(wanted.pixelFormat)
        guard format != pool.format else { return }
        pool = Self.pool(for: wanted, playhead: playhead)
        playhead.pixelFormat = format
        playhead.pool = pool
    }

    /// A new transport: anchor the clock at the last frame delivered.
    private func reanchor(_ transport: DeckTransport) {
        generation = transport.generation
        // Forwards needs no backward window: free the pool's idle buffers beyond it.
        if transport.speed > 0 && speed < 0 { pool.flush(keepingMinimum: true) }
        speed = transport.speed
        if let lastHost, let lastFile {
            anchorFile = lastFile
            if transport.pacing == .realTime {
                // After a pause the next frame is due about one interval from now, not at once.
                anchorHost = max(lastHost, HostClock.now() - lastStep)
            } else {
                anchorHost = lastHost
            }
        } else {
            anchorFile = nil
            anchorHost = max(anchorHost, HostClock.now())
        }
    }

    /// The next frame the transport asks for, handling a pending frame of the other
    /// direction and the ends of the file; nil when there is nothing to deliver now.
    private func nextFrame(forward: Bool, transport: DeckTransport) throws(MovieReaderError) -> MoviePlayhead.Frame? {
        if let pending {
            self.pending = nil
            if pendingForward == forward { return pending }
            // The playhead moved onto a frame never shown: step over the last one shown.
            _ = try playhead.step(forward: forward)
        }
        if !forward && playhead.isBeforeStart && lastHost == nil { playhead.windToEnd() }
        if let frame = try playhead.step(forward: forward) { return frame }
        if forward, let damage = playhead.damage {
            switch damage {
            case .failed(let why): throw MovieReaderError.decodeFailed(why)
            case .endsEarly(let time):
                throw MovieReaderError.decodeFailed(String(format: "the file ends early, at %.3f s", time.seconds))
            }
        }
        guard transport.loops else {
            camera.stopAtEnd(generation: transport.generation)
            return nil
        }
        if forward { playhead.rewind() } else { playhead.windToEnd() }
        // The new pass continues one interval after the last frame.
        if let lastHost {
            anchorHost = lastHost + lastStep
            anchorFile = nil
        }
        guard let frame = try playhead.step(forward: forward) else {
            camera.stopAtEnd(generation: transport.generation)
            return nil
        }
        return frame
    }

    private func hostTime(of time: CMTime) -> Int64 {
        guard let anchorFile else {
            anchorFile = time
            return anchorHost
        }
        let seconds = abs((time - anchorFile).seconds) / Double(abs(speed))
        return anchorHost + Self.nanoseconds(seconds)
    }

    private func lastStepNanoseconds(_ frame: MoviePlayhead.Frame) -> Int64 {
        Self.nanoseconds(frame.duration.seconds / Double(abs(speed)))
    }

    /// Seconds as nanoseconds, held to 0...2^60 (36 years): times come from the file, and a
    /// crafted one (a 64-bit duration) would trap the conversion or the sums after it.
    static func nanoseconds(_ seconds: Double) -> Int64 {
        let cap = Double(Int64(1) << 60)
        guard seconds.isFinite else { return seconds > 0 ? Int64(cap) : 0 }
        return Int64(min(max(seconds * 1e9, 0), cap).rounded())
    }

    private func note(_ frame: MoviePlayhead.Frame, host: Int64) {
        lastStep = lastStepNanoseconds(frame)
        lastHost = host
        lastFile = frame.time
        sequence += 1
    }

    /// Waits until `deadline`; false when a transport change or a stop cut it short.
    private func waitUntil(_ deadline: Int64, generation: UInt64) -> Bool {
        while !isStopping {
            if camera.transport.generation != generation { return false }
            let remaining = deadline - HostClock.now()
            if remaining <= 0 { return true }
            _ = camera.wake.wait(timeout: .now() + .nanoseconds(Int(min(remaining, 200_000_000))))
        }
        return false
    }

    private func metadata(_ frame: MoviePlayhead.Frame, host: Int64) -> FrameMetadata {
        var metadata = FrameMetadata()
        metadata.sequence = sequence - 1
        metadata.presentationTime = CMTime(value: host, timescale: 1_000_000_000)
        metadata.frameDuration = CMTime(value: max(lastStep, 1), timescale: 1_000_000_000)
        let rate = playhead.track.frameRate > 0 ? playhead.track.frameRate : 30
        metadata.exposureDuration = 1 / rate
        metadata.iso = 100
        metadata.width = playhead.track.width
        metadata.height = playhead.track.height
        metadata.exposureState = .locked
        metadata.whiteBalanceState = .locked
        metadata.appliedRequest = camera.appliedRequest
        return metadata
    }

    private func deliver(_ frame: MoviePlayhead.Frame, host: Int64) {
        let metadata = metadata(frame, host: host)
        camera.delivered(frame.buffer, metadata: metadata)
        sink.backendDidCapture(frame.buffer, metadata: metadata)
    }

    private func fail(_ why: String) {
        guard !isStopping else { return }
        sink.backendDidFail(.streamFailed("\(camera.url.lastPathComponent): \(why)"))
    }
}
