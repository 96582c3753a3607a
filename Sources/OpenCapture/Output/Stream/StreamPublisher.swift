import Foundation
import ImageOps
import MediaIO

/// The engine behind `AVCaptureStreamOutput`: a bounded queue fed by the capture threads
/// and one thread per stream ("OpenCapture.stream") that connects, encodes and sends,
/// reconnecting with back-off.
///
/// Locks: `queue` (an NSCondition) guards the waiting media and the stream's generation;
/// `status`, `configuration` and `delegate` are small mutexes. None is held while a
/// delegate runs or while the network is waited on.
final class StreamPublisher: @unchecked Sendable {
    struct Configuration {
        var hevc = false
        var bitRate = 2_000_000
        var keyframeInterval = 2.0
        var reconnects = true
        var reconnectDelay = 0.25
        var maximumReconnectDelay = 8.0
        var connectTimeout = 5.0
        var maximumQueuedFrames = 3
        /// Seconds added before each frame is sent: a slow network, for tests of the queue.
        var sendDelay = 0.0
    }

    struct Status {
        var target: StreamTarget?
        var state = AVCaptureStreamOutput.State.idle
        var lastError: AVCaptureStreamOutput.StreamError?
        var framesSent = 0
        var bytesSent: Int64 = 0
        var droppedFrames = 0
        var droppedAudioBuffers = 0
        var connections = 0
        /// Drops not yet reported to the delegate, and whether a report is on its way.
        var unreportedFrames = 0
        var unreportedAudio = 0
        var reportPending = false
    }

    struct DelegateLink {
        let delegate: any AVCaptureStreamOutputDelegate
        let queue: DispatchQueue
    }

    /// How a frame is turned before it is sent: the connection's rotation and mirroring.
    struct Turn: Equatable {
        var rotation: Int
        var mirrored: Bool
        static let none = Turn(rotation: 0, mirrored: false)
    }

    private enum Item {
        case video(CVPixelBuffer, FrameMetadata, Turn)
        case audio(CMSampleBuffer)
    }

    /// Audio buffers that may wait (about 0.7 s of 1024-sample buffers at 48 kHz).
    static let maximumQueuedAudio = 32

    weak var output: AVCaptureStreamOutput?
    let configuration = Mutex(Configuration())
    let status = Mutex(Status())
    let delegate = Mutex<DelegateLink?>(nil)

    /// Test hook: seconds each frame takes to send, as over a slow network.
    var sendDelay: TimeInterval {
        get { configuration.withLock { $0.sendDelay } }
        set { configuration.withLock { $0.sendDelay = newValue } }
    }

    private let queue = NSCondition()
    private var items: [Item] = []  // under queue
    private var queuedFrames = 0  // under queue
    private var queuedAudio = 0  // under queue
    /// Whether frames are taken: a stream is running (under queue).
    private var accepting = false
    /// Whether media queue up for sending (connected) or only the newest frame is kept.
    private var connected = false  // under queue
    private var generation = 0  // under queue
    private var worker: Thread?  // under queue
    private var interrupt = StreamInterrupt()  // under queue
    private let workerExited = NSCondition()
    private var runningWorkers = 0  // under workerExited

    // MARK: Control

    func start(_ target: StreamTarget) {
        stop()
        queue.lock()
        generation += 1
        let mine = generation
        accepting = true
        connected = false
        items.removeAll()
        queuedFrames = 0
        queuedAudio = 0
        interrupt = StreamInterrupt()
        let stopper = interrupt
        queue.unlock()
        status.withLock {
            $0 = Status()
            $0.target = target
        }
        workerExited.lock()
        runningWorkers += 1
        workerExited.unlock()
        let thread = Thread { [self] in
            // Foundation's name stays inside Foundation on Linux; the kernel's (15 bytes,
            // what top and /proc show) is set here, and the encoder's threads, started from
            // this one, inherit it, so a stream's whole cost is visible per thread.
            Thread.current.name = "OpenCapture.stream"
            Self.nameKernelThread("OpenCapture.str")
            run(target, generation: mine, interrupt: stopper)
            workerExited.lock()
            runningWorkers -= 1
            workerExited.broadcast()
            workerExited.unlock()
        }
        queue.lock()
        worker = thread
        queue.unlock()
        setState(.connecting, error: nil)
        thread.start()
    }

    /// Sets the calling thread's kernel name (pthread_setname_np and prctl are out of
    /// Swift's reach in glibc: GNU-only and variadic); /proc/thread-self/comm is the same.
    private static func nameKernelThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = name.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, min(15, $0.count - 1)) }
        close(descriptor)
    }

    func stop() {
        queue.lock()
        guard accepting else {
            queue.unlock()
            return
        }
        accepting = false
        generation += 1
        interrupt.cancel()
        items.removeAll()
        queuedFrames = 0
        queuedAudio = 0
        worker = nil
        queue.broadcast()
        queue.unlock()
        // The thread closes its connection (TEARDOWN) before it ends.
        workerExited.lock()
        while runningWorkers > 0 { workerExited.wait() }
        workerExited.unlock()
        status.withLock { $0.target = nil }
        setState(.idle, error: nil)
    }

    // MARK: Capture side (capture threads; never blocks on the network)

    func enqueue(video buffer: CVPixelBuffer, metadata: FrameMetadata, turn: Turn = .none) {
        let limit = configuration.withLock { $0.maximumQueuedFrames }
        queue.lock()
        guard accepting else {
            queue.unlock()
            return
        }
        var dropped = 0
        if !connected {
            // Not connected: only the newest frame waits (its size is the next connection's).
            items.removeAll()
            queuedAudio = 0
            queuedFrames = 0
        } else {
            while queuedFrames >= limit, let index = items.firstIndex(where: { if case .video = $0 { true } else { false } }) {
                items.remove(at: index)
                queuedFrames -= 1
                dropped += 1
            }
        }
        items.append(.video(buffer, metadata, turn))
        queuedFrames += 1
        queue.signal()
        queue.unlock()
        if dropped > 0 { reportDrops(frames: dropped, audio: 0) }
    }

    func enqueue(audio sampleBuffer: CMSampleBuffer) {
        queue.lock()
        guard accepting, connected else {
            queue.unlock()
            return
        }
        var dropped = 0
        while queuedAudio >= Self.maximumQueuedAudio, let index = items.firstIndex(where: { if case .audio = $0 { true } else { false } }) {
            items.remove(at: index)
            queuedAudio -= 1
            dropped += 1
        }
        items.append(.audio(sampleBuffer))
        queuedAudio += 1
        queue.signal()
        queue.unlock()
        if dropped > 0 { reportDrops(frames: 0, audio: dropped) }
    }

    // MARK: The stream's thread

    private func run(_ target: StreamTarget, generation mine: Int, interrupt: StreamInterrupt) {
        var writer: StreamWriter?
        var delay = configuration.withLock { $0.reconnectDelay }
        var audioFormat: (rate: Int, channels: Int)?
        var seen = (frames: 0, bytes: Int64(0))
        defer {
            writer?.close()
            setConnected(false, generation: mine)
        }
        while let item = next(generation: mine) {
            if writer == nil {
                // Connect with this frame's size; audio items wait for a connection, so the
                // first item is a frame.
                guard case .video(let captured, let metadata, let turn) = item, let buffer = turned(captured, turn) else { continue }
                let wantsAudio = output?.hasLiveAudio ?? false
                if wantsAudio, audioFormat == nil { audioFormat = latestAudioFormat() }
                let settings = streamSettings(for: buffer, metadata: metadata, audio: wantsAudio ? audioFormat : nil)
                do throws(MovieWriterError) {
                    let timeout = configuration.withLock { $0.connectTimeout }
                    let made = try StreamWriter(target: target, settings: settings, interrupt: interrupt, connectTimeout: timeout)
                    try made.append(buffer, presentationTime: metadata.presentationTime, keyframe: true)
                    writer = made
                    delay = configuration.withLock { $0.reconnectDelay }
                    status.withLock {
                        $0.connections += 1
                        $0.lastError = nil
                    }
                    setConnected(true, generation: mine)
                    setState(.streaming, error: nil)
                    seen = (0, 0)
                    record(made, seen: &seen)
                } catch {
                    if interrupt.isCancelled { return }
                    if case .cannotOpen(let reason) = error, target.listens, reason.hasSuffix("(timed out)") {
                        continue  // a listener with no caller yet: keep waiting
                    }
                    let failure = Self.streamError(error, connecting: true)
                    guard backOff(after: failure, delay: &delay, generation: mine, interrupt: interrupt) else { return }
                }
                continue
            }
            guard let connection = writer else { continue }
            do throws(MovieWriterError) {
                switch item {
                case .video(let captured, let metadata, let turn):
                    guard let buffer = turned(captured, turn) else { continue }
                    let slow = sendDelay
                    if slow > 0 { Thread.sleep(forTimeInterval: slow) }
                    try connection.append(buffer, presentationTime: metadata.presentationTime)
                case .audio(let sampleBuffer):
                    try Self.append(sampleBuffer, to: connection)
                }
                record(connection, seen: &seen)
            } catch .frameSizeMismatch {
                // A new format: reconnect at the new size, at once.
                connection.close()
                writer = nil
                setConnected(false, generation: mine)
            } catch .invalidTimestamp {
                continue
            } catch .invalidSettings {
                continue  // audio of another format than the stream's: left out
            } catch {
                connection.close()
                writer = nil
                setConnected(false, generation: mine)
                if interrupt.isCancelled { return }
                guard backOff(after: Self.streamError(error, connecting: false), delay: &delay, generation: mine, interrupt: interrupt)
                else { return }
            }
        }
    }

    /// The frame as the connection wants it: the captured buffer itself, or a turned or
    /// mirrored copy in the stream's own pool (stream thread only); nil if that pool is dry.
    private func turned(_ buffer: CVPixelBuffer, _ turn: Turn) -> CVPixelBuffer? {
        guard turn != .none, let rotation = Rotation(rawValue: turn.rotation) else { return buffer }
        let width = rotation.swapsDimensions ? buffer.height : buffer.width
        let height = rotation.swapsDimensions ? buffer.width : buffer.height
        if turnPool.map({ $0.format != buffer.format || $0.width != width || $0.height != height }) ?? true {
            turnPool = CVPixelBufferPool(
                format: buffer.format, width: width, height: height, minimumBufferCount: 2, maximumBufferCount: 4,
                attachments: buffer.attachmentStore.withLock { $0 })
        }
        guard let target = turnPool?.dequeue(), ImageTransform.transform(buffer, into: target, rotation: rotation, mirrored: turn.mirrored)
        else { return nil }
        return target
    }

    private var turnPool: CVPixelBufferPool?  // stream thread only

    /// The next item to send; nil once the stream is stopped.
    private func next(generation mine: Int) -> Item? {
        queue.lock()
        defer { queue.unlock() }
        while generation == mine && items.isEmpty { queue.wait() }
        guard generation == mine else { return nil }
        let item = items.removeFirst()
        switch item {
        case .video: queuedFrames -= 1
        case .audio: queuedAudio -= 1
        }
        return item
    }

    /// Reports a failure and sleeps the back-off (doubling it), or moves to `.failed` when
    /// not reconnecting. False when the stream should end.
    private func backOff(
        after failure: AVCaptureStreamOutput.StreamError, delay: inout Double, generation mine: Int, interrupt: StreamInterrupt
    ) -> Bool {
        let (reconnects, ceiling) = configuration.withLock { ($0.reconnects, $0.maximumReconnectDelay) }
        status.withLock { $0.lastError = failure }
        guard reconnects, failure.code != .invalidSettings else {
            setState(.failed, error: failure)
            return false
        }
        setState(.reconnecting, error: failure)
        queue.lock()
        let until = Date(timeIntervalSinceNow: delay)
        while generation == mine && Date() < until { _ = queue.wait(until: until) }
        let live = generation == mine
        queue.unlock()
        delay = min(delay * 2, ceiling)
        if live { setState(.connecting, error: nil) }
        return live && !interrupt.isCancelled
    }

    private func setConnected(_ value: Bool, generation mine: Int) {
        queue.lock()
        if generation == mine {
            connected = value
            if !value {
                // Keep only the newest frame for the next connection.
                if let last = items.last(where: { if case .video = $0 { true } else { false } }) {
                    items = [last]
                    queuedFrames = 1
                } else {
                    items.removeAll()
                    queuedFrames = 0
                }
                queuedAudio = 0
            }
        }
        queue.unlock()
    }

    private func streamSettings(for buffer: CVPixelBuffer, metadata: FrameMetadata, audio: (rate: Int, channels: Int)?) -> StreamSettings {
        let config = configuration.withLock { $0 }
        let frameRate = metadata.frameDuration.isNumeric && metadata.frameDuration.seconds > 0 ? 1 / metadata.frameDuration.seconds : 30
        var settings = StreamSettings(width: buffer.width, height: buffer.height, frameRate: frameRate, bitRate: config.bitRate)
        settings.hevc = config.hevc
        settings.fullRange = buffer.format.isFullRange
        settings.ycbcrBT601 = buffer.format.isYUV
            && CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil) as? String == kCVImageBufferYCbCrMatrix_ITU_R_601_4
        settings.keyframeInterval = config.keyframeInterval
        if let audio { settings.audio = MovieAudioSettings(codec: .aac(bitRate: 64_000 * audio.channels), sampleRate: audio.rate, channels: audio.channels) }
        return settings
    }

    /// The microphone's format, from its newest buffer in the queue or its input port.
    private func latestAudioFormat() -> (rate: Int, channels: Int)? {
        guard let output else { return nil }
        for connection in output.connections where connection.isEnabled {
            for port in connection.inputPorts where port.mediaType == .audio {
                if let asbd = port.formatDescription?.audioStreamBasicDescription, asbd.mSampleRate > 0 {
                    return (Int(asbd.mSampleRate), Int(asbd.mChannelsPerFrame))
                }
            }
        }
        return nil
    }

    /// Adds a connection's progress since `seen` to the totals.
    private func record(_ writer: StreamWriter, seen: inout (frames: Int, bytes: Int64)) {
        let now = (frames: writer.framesSent, bytes: writer.bytesSent)
        let before = seen
        status.withLock {
            $0.framesSent += now.frames - before.frames
            $0.bytesSent += now.bytes - before.bytes
        }
        seen = now
    }

    static func append(_ sample: CMSampleBuffer, to writer: StreamWriter) throws(MovieWriterError) {
        try withLinearPCM(sample) { (raw, frames, layout, time) throws(MovieWriterError) in
            try writer.appendAudio(raw, frames: frames, layout: layout, presentationTime: time)
        }
    }

    static func streamError(_ error: MovieWriterError, connecting: Bool) -> AVCaptureStreamOutput.StreamError {
        let reason = AVCaptureStreamOutput.reason(error)
        switch error {
        case .invalidSettings, .encoder: return .init(.invalidSettings, reason)
        default: return .init(connecting ? .connectionFailed : .connectionLost, reason)
        }
    }

    // MARK: Reports (delegate queue and main queue; no lock held while they run)

    private func setState(_ state: AVCaptureStreamOutput.State, error: AVCaptureStreamOutput.StreamError?) {
        let changed = status.withLock { status -> Bool in
            // A failure is news even when the state stays (a second failed attempt).
            guard status.state != state || error != nil else { return false }
            status.state = state
            return true
        }
        guard changed, let output else { return }
        var info: [String: any Sendable] = [AVCaptureStreamOutput.stateKey: state.rawValue]
        if let error { info[AVCaptureStreamOutput.errorKey] = error }
        postOnMainQueue(AVCaptureStreamOutput.stateDidChangeNotification, object: output, userInfo: info)
        guard let link = delegate.withLock({ $0 }) else { return }
        let box = UncheckedSendable((link.delegate, output))
        link.queue.async { box.value.0.streamOutput(box.value.1, didChange: state, error: error) }
    }

    private func reportDrops(frames: Int, audio: Int) {
        let schedule = status.withLock { status -> Bool in
            status.droppedFrames += frames
            status.droppedAudioBuffers += audio
            status.unreportedFrames += frames
            status.unreportedAudio += audio
            guard !status.reportPending else { return false }
            status.reportPending = true
            return true
        }
        guard schedule, let output, let link = delegate.withLock({ $0 }) else {
            if schedule { status.withLock { $0.reportPending = false } }
            return
        }
        let box = UncheckedSendable((link.delegate, output))
        link.queue.async { [self] in
            let (frames, audio) = status.withLock { status -> (Int, Int) in
                defer {
                    status.unreportedFrames = 0
                    status.unreportedAudio = 0
                    status.reportPending = false
                }
                return (status.unreportedFrames, status.unreportedAudio)
            }
            box.value.0.streamOutput(box.value.1, didDropFrames: frames, audioBuffers: audio)
        }
    }
}
