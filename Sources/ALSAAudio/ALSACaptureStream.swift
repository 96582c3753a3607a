import CALSA
import CaptureCore
import Foundation
import Glibc

/// One run of an ALSA capture PCM: the capture thread "OpenCapture.alsa.capture".
///
/// The PCM is opened non-blocking; the thread waits in `snd_pcm_wait` (100 ms at most, so
/// a stop is seen promptly) and reads one period at a time with `snd_pcm_readi` straight
/// into the sample buffer's block.
///
/// Timestamps: the driver stamps each period on CLOCK_MONOTONIC (the session's clock);
/// `snd_pcm_htimestamp` gives that stamp and how many frames were waiting at it, hence the
/// host time of the next frame to read. The first buffer is placed so; later ones follow
/// it to the sample (contiguous, in a timescale of the sample rate) while they stay within
/// 20 ms of the driver's stamps (two periods for `default`: `placementTolerance`), and are
/// placed afresh when they drift further (a card's crystal against the host's) or after an
/// overrun.
///
/// Overruns (the thread was not scheduled for a whole ALSA buffer): the PCM is prepared and
/// restarted, the sink is told how long a stretch was lost, and the next buffer's
/// timestamp shows the gap. A vanished card (`ENODEV`, state DISCONNECTED) ends the run
/// with `deviceWasDisconnected`; any other error with `streamFailed`.
final class ALSACaptureStream: @unchecked Sendable {
    private let pcm: OpaquePointer
    private let rate: UInt32
    private let channels: UInt32
    private let period: Int
    private let format: CMAudioFormatDescription
    private let sink: any AudioSink
    /// The PCM's device node (/dev/snd/pcmC…D…c), gone once the card is; nil for `default`.
    private let node: String?
    private let stopping = Mutex(false)
    private let failure = Mutex<BackendError?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    private init(
        pcm: OpaquePointer, rate: UInt32, channels: UInt32, period: Int, format: CMAudioFormatDescription, sink: any AudioSink,
        node: String?
    ) {
        self.node = node
        self.pcm = pcm
        self.rate = rate
        self.channels = channels
        self.period = period
        self.format = format
        self.sink = sink
    }

    deinit { snd_pcm_close(pcm) }

    /// Opens and configures the PCM: interleaved S16_LE at `rate` and `channels`, periods of
    /// about `period` frames, a buffer of four periods, monotonic timestamps.
    static func open(
        name: String, node: String?, rate: UInt32, channels: UInt32, period: Int, format: CMAudioFormatDescription, sink: any AudioSink
    ) throws(BackendError) -> ALSACaptureStream {
        try ALSALibraryErrors.quietly { () throws(BackendError) -> ALSACaptureStream in
            try openLoudly(name: name, node: node, rate: rate, channels: channels, period: period, format: format, sink: sink)
        }
    }

    private static func openLoudly(
        name: String, node: String?, rate: UInt32, channels: UInt32, period: Int, format: CMAudioFormatDescription, sink: any AudioSink
    ) throws(BackendError) -> ALSACaptureStream {
        var handle: OpaquePointer?
        let opened = snd_pcm_open(&handle, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
        guard opened == 0, let pcm = handle else {
            switch -opened {
            case EBUSY: throw .deviceInUse
            case EACCES, EPERM: throw .notAuthorized("This process may not open \(name) (not in the audio group?).")
            case ENOENT, ENODEV: throw .deviceWasDisconnected
            default: throw .streamFailed("\(name): \(String(cString: snd_strerror(opened)))")
            }
        }
        var actualRate = rate
        var actualPeriod = snd_pcm_uframes_t(period)
        let configured = configure(pcm, rate: &actualRate, channels: channels, period: &actualPeriod)
        guard configured == 0, actualRate == rate else {
            snd_pcm_close(pcm)
            throw .streamFailed("\(name) refused \(rate) Hz, \(channels) channels, S16_LE: \(String(cString: snd_strerror(configured)))")
        }
        return ALSACaptureStream(pcm: pcm, rate: rate, channels: channels, period: Int(actualPeriod), format: format, sink: sink, node: node)
    }

    private static func configure(_ pcm: OpaquePointer, rate: inout UInt32, channels: UInt32, period: inout snd_pcm_uframes_t) -> Int32 {
        var hw: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hw) == 0, let hw else { return -ENOMEM }
        defer { snd_pcm_hw_params_free(hw) }
        var direction: Int32 = 0
        var bufferSize = period * 4
        var result = snd_pcm_hw_params_any(pcm, hw)
        if result >= 0 { result = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED) }
        if result >= 0 { result = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE) }
        if result >= 0 { result = snd_pcm_hw_params_set_channels(pcm, hw, channels) }
        if result >= 0 { result = snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &direction) }
        if result >= 0 { result = snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &direction) }
        if result >= 0 {
            bufferSize = period * 4
            result = snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &bufferSize)
        }
        if result >= 0 { result = snd_pcm_hw_params(pcm, hw) }
        guard result >= 0 else { return result }
        var sw: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&sw) == 0, let sw else { return -ENOMEM }
        defer { snd_pcm_sw_params_free(sw) }
        result = snd_pcm_sw_params_current(pcm, sw)
        if result >= 0 { result = snd_pcm_sw_params_set_avail_min(pcm, sw, period) }
        if result >= 0 { result = snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE) }
        if result >= 0 { result = snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC) }
        if result >= 0 { result = snd_pcm_sw_params(pcm, sw) }
        guard result >= 0 else { return result }
        return snd_pcm_prepare(pcm)
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "OpenCapture.alsa.capture"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Ends the run and waits for the capture thread: afterwards the sink gets no more calls.
    func stop() {
        stopping.withLock { $0 = true }
        finished.wait()
    }

    /// Ends the run with an error the capture thread then tells the sink; does not wait.
    func fail(_ error: BackendError) {
        failure.withLock { if $0 == nil { $0 = error } }
        stopping.withLock { $0 = true }
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    /// How far (samples) a buffer's driver-stamped place may be from the sample after the
    /// previous buffer and still follow it: 20 ms for a card's own PCM, whose stamp and
    /// frame count are taken together; two periods for `default` (no node), where plug-ins
    /// such as dsnoop pair the card's newest stamp with their own count, which can be a
    /// period behind it.
    private var placementTolerance: Int64 {
        node == nil ? max(Int64(rate) / 50, 2 * Int64(period)) : Int64(rate) / 50
    }

    private func run() {
        var next: Int64? = nil  // the next buffer's first sample, in samples of the host clock
        var started = false
        let bytesPerFrame = Int(channels) * 2
        while !isStopping {
            if !started {
                let result = snd_pcm_start(pcm)
                if result < 0, let error = classify(result) { return end(error) }
                started = true
            }
            let waited = snd_pcm_wait(pcm, 100)
            if waited < 0 {
                if waited == -EPIPE || waited == -ESTRPIPE {
                    recover(waited, lastEnd: next)
                    next = nil
                    started = false
                    continue
                }
                if let error = classify(waited) { return end(error) }
                continue
            }
            let available = snd_pcm_avail_update(pcm)
            if available < 0 {
                if available == -EPIPE || available == -ESTRPIPE {
                    recover(Int32(available), lastEnd: next)
                    next = nil
                    started = false
                    continue
                }
                if let error = classify(Int32(available)) { return end(error) }
                continue
            }
            guard available >= period else { continue }
            // Where the next frame to read was on the host clock, by the driver's stamp.
            var stampAvailable: snd_pcm_uframes_t = 0
            var stamp = timespec()
            var measured: Int64? = nil
            if snd_pcm_htimestamp(pcm, &stampAvailable, &stamp) == 0, stamp.tv_sec != 0 || stamp.tv_nsec != 0 {
                let nanoseconds = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
                measured = Int64((Double(nanoseconds) * Double(rate) / 1e9).rounded()) - Int64(stampAvailable)
            }
            let nowSamples = Int64((Double(monotonicNow()) * Double(rate) / 1e9).rounded())
            let placed = measured ?? (nowSamples - Int64(available))
            if let expected = next, abs(expected - placed) <= placementTolerance {
                // Contiguous with the last buffer.
            } else {
                next = placed
            }
            guard let block = CMBlockBuffer(allocating: period * bytesPerFrame), let memory = block.pieces.first?.block.pointer else {
                return end(.streamFailed("out of memory for audio"))
            }
            var filled = 0
            while filled < period {
                let read = snd_pcm_readi(pcm, memory + filled * bytesPerFrame, snd_pcm_uframes_t(period - filled))
                if read == -Int(EAGAIN) { break }
                if read < 0 {
                    if read == -Int(EPIPE) || read == -Int(ESTRPIPE) {
                        recover(Int32(read), lastEnd: next.map { $0 + Int64(filled) })
                        started = false
                    } else if let error = classify(Int32(read)) {
                        return end(error)
                    }
                    break
                }
                filled += read
            }
            guard filled == period, let first = next else {
                next = nil
                continue
            }
            let sample = CMSampleBuffer(
                dataBuffer: block, formatDescription: format, sampleCount: period,
                presentationTimeStamp: CMTime(value: first, timescale: CMTimeScale(rate)))
            sink.backendDidCapture(audio: sample)
            next = first + Int64(period)
        }
        if let error = failure.withLock({ $0 }) { sink.backendDidFail(error) }
    }

    private func end(_ error: BackendError) {
        let reported = failure.withLock { $0 } ?? error
        sink.backendDidFail(reported)
    }

    /// An error that ends the run, or nil for one to retry (EAGAIN, EINTR).
    ///
    /// A card going away wakes the thread with ENODEV or, when libasound can no longer read
    /// the state either, EIO; the kernel removes the node a moment later, so an error while
    /// the node goes within 200 ms is a disconnection too. `default` has no node of its own:
    /// EIO and EBADFD (a plug-in whose card went away under it) count as disconnections.
    private func classify(_ code: Int32) -> BackendError? {
        if code == -EAGAIN || code == -EINTR { return nil }
        if code == -ENODEV || snd_pcm_state(pcm) == SND_PCM_STATE_DISCONNECTED { return .deviceWasDisconnected }
        guard let node else {
            return code == -EIO || code == -EBADFD ? .deviceWasDisconnected : .streamFailed(String(cString: snd_strerror(code)))
        }
        for _ in 0..<10 {
            if access(node, F_OK) != 0 { return .deviceWasDisconnected }
            usleep(20_000)
        }
        return .streamFailed(String(cString: snd_strerror(code)))
    }

    /// Restarts after an overrun (or a suspend) and tells the sink how much was lost:
    /// from the end of the last buffer to the next frame the restarted PCM captures.
    private func recover(_ code: Int32, lastEnd: Int64?) {
        if code == -ESTRPIPE {
            while snd_pcm_resume(pcm) == -EAGAIN && !isStopping { usleep(10_000) }
        }
        snd_pcm_prepare(pcm)
        let nowSamples = Int64((Double(monotonicNow()) * Double(rate) / 1e9).rounded())
        let lost = lastEnd.map { max(0, nowSamples - $0) } ?? 0
        sink.backendDidOverrun(lost: CMTime(value: lost, timescale: CMTimeScale(rate)))
    }

    private func monotonicNow() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
