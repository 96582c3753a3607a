import Foundation

/// Spreads a microphone's buffers to the session's audio connections (the audio
/// counterpart of `FrameRouter`).
///
/// Threads: `backendDidCapture` runs on the microphone's capture thread: it meters each
/// buffer into the connections' `AVCaptureAudioChannel`s, then hands the buffer to each
/// audio data output, which calls its delegate on the delegate's queue, and to a movie
/// output's recorder queue. In virtual time the capture thread waits until each data output
/// has handled the last buffer and a movie output's recorder has written it (and is not
/// ahead of the camera it also records).
final class AudioRouter: AudioSink, @unchecked Sendable {
    let device: AVCaptureDevice
    private weak var session: AVCaptureSession?
    private let condition = NSCondition()
    private var targets: [AVCaptureConnection] = []  // under condition
    private var pending = 0  // under condition
    private var closed = false  // under condition
    private var meter = AudioMeter()  // capture thread only
    /// The session's start instant for a stream started with the session (see `AudioSink`).
    let streamEpoch: Int64?

    init(session: AVCaptureSession, device: AVCaptureDevice, epoch: Int64? = nil) {
        self.session = session
        self.device = device
        streamEpoch = epoch
    }

    private static func movies(_ connections: [AVCaptureConnection]) -> [AVCaptureMovieFileOutput] {
        connections.compactMap { $0.output as? AVCaptureMovieFileOutput }
    }

    /// Photo outputs taking the microphone for Live Photo sound.
    private static func photos(_ connections: [AVCaptureConnection]) -> [AVCapturePhotoOutput] {
        connections.compactMap { $0.output as? AVCapturePhotoOutput }
    }

    func setTargets(_ connections: [AVCaptureConnection]) {
        condition.lock()
        let old = closed ? [] : Self.movies(targets)
        let oldPhotos = closed ? [] : Self.photos(targets)
        targets = connections
        let new = closed ? [] : Self.movies(connections)
        let newPhotos = closed ? [] : Self.photos(connections)
        condition.broadcast()
        condition.unlock()
        for movie in old where !new.contains(where: { $0 === movie }) { movie.recorder.setFeed(self, audio: true, attached: false) }
        for movie in new { movie.recorder.setFeed(self, audio: true, attached: true) }
        for photo in oldPhotos where !newPhotos.contains(where: { $0 === photo }) { photo.livePhotos.setAudioFeed(false) }
        for photo in newPhotos { photo.livePhotos.setAudioFeed(true) }
    }

    /// No more buffers go out, and a capture thread waiting in virtual time is let go.
    func close() {
        condition.lock()
        closed = true
        let movies = Self.movies(targets)
        let photos = Self.photos(targets)
        condition.broadcast()
        condition.unlock()
        for movie in movies { movie.recorder.setFeed(self, audio: true, attached: false) }
        for photo in photos { photo.livePhotos.setAudioFeed(false) }
    }

    private var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    func backendDidCapture(audio captured: CMSampleBuffer) {
        // A muted app (AVAudioApplication) hears silence, as on iOS.
        let sampleBuffer = AVAudioApplication.shared.isInputMuted ? Self.silence(like: captured) : captured
        condition.lock()
        let all = closed ? [] : targets
        let live = all.filter(\.isEnabled)
        let outputs = live.compactMap { connection in (connection.output as? AVCaptureAudioDataOutput).map { ($0, connection) } }
        pending += outputs.count
        condition.unlock()
        // Every buffer moves a movie output's audio clock, recorded or not (virtual-time lockstep).
        for movie in Self.movies(all) { movie.recorder.noteAudioTime(sampleBuffer) }
        guard !live.isEmpty else { return }
        let levels = meter.measure(sampleBuffer)
        for connection in live {
            for (channel, level) in zip(connection.audioChannels, levels) { channel.record(level) }
        }
        for movie in Self.movies(live) { movie.consumeAudio(sampleBuffer) }
        for photo in Self.photos(live) { photo.livePhotos.offerAudio(sampleBuffer) }
        for connection in live {
            (connection.output as? AVCaptureStreamOutput)?.consume(audio: sampleBuffer)
        }
        for (output, connection) in outputs {
            output.enqueue(sampleBuffer, from: connection) { [weak self] in self?.bufferWasHandled() }
        }
    }

    /// A buffer of zeros with the format, length and timing of `buffer`.
    static func silence(like buffer: CMSampleBuffer) -> CMSampleBuffer {
        guard let format = buffer.formatDescription, let length = buffer.dataBuffer?.dataLength,
            let block = CMBlockBuffer(allocating: length), let memory = block.pieces.first?.block.pointer
        else { return buffer }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: length)
        return CMSampleBuffer(
            dataBuffer: block, formatDescription: format, sampleCount: buffer.numSamples,
            presentationTimeStamp: buffer.presentationTimeStamp)
    }

    private func bufferWasHandled() {
        condition.lock()
        pending -= 1
        condition.broadcast()
        condition.unlock()
    }

    func backendDidFail(_ error: BackendError) {
        session?.audioStreamDidFail(self, error: error)
    }

    func backendDidOverrun(lost: CMTime) {
        guard let session else { return }
        postOnMainQueue(AVCaptureSession.audioOverrunNotification, object: session, userInfo: [
            AVCaptureSession.audioOverrunDeviceKey: device, AVCaptureSession.audioOverrunLostDurationKey: lost,
        ])
    }

    func waitUntilReadyForNextAudioBuffer() -> Bool {
        condition.lock()
        let movies = Self.movies(targets.filter(\.isEnabled))
        condition.unlock()
        // A movie output takes sound as fast as its writer does, and no faster than its camera.
        for movie in movies { movie.recorder.waitForAudioTurn(unless: { isClosed }) }
        // A Live Photo ring takes sound no faster than its camera's frames.
        condition.lock()
        let livePhotos = Self.photos(targets.filter(\.isEnabled)).filter(\.livePhotos.isActive)
        condition.unlock()
        for photo in livePhotos { photo.livePhotos.waitForAudioTurn(unless: { isClosed }) }
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            let consumers = targets.filter { $0.isEnabled && ($0.output as? AVCaptureAudioDataOutput)?.isDelivering == true }.count
            // A stream output never holds the microphone back: its queue drops the oldest.
            if consumers == 0 && targets.contains(where: { $0.isEnabled && $0.output is AVCaptureStreamOutput }) { return true }
            // One buffer in flight per data output, so a delegate reading the channel meters
            // sees its own buffer's levels; with nobody to take buffers, virtual time stands still.
            if consumers > 0 && pending < consumers { return true }
            if consumers == 0 && !movies.isEmpty { return true }
            if consumers == 0 && targets.contains(where: { $0.isEnabled && ($0.output as? AVCapturePhotoOutput)?.livePhotos.isActive == true }) {
                return true
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        return false
    }
}

/// Average and peak levels of each channel of 16-bit or float linear PCM, in dBFS (RMS and
/// peak relative to a full-scale amplitude of 1; −160 for silence), the peak held for a second.
struct AudioMeter {
    struct Level {
        var average: Float
        var peakHold: Float
    }

    private var peaks: [[(time: Double, peak: Float)]] = []

    static func decibels(_ amplitude: Double) -> Float { amplitude > 0 ? max(-160, Float(20 * log10(amplitude))) : -160 }

    mutating func measure(_ sampleBuffer: CMSampleBuffer) -> [Level] {
        guard let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription, asbd.mFormatID == kAudioFormatLinearPCM,
            let data = sampleBuffer.dataBuffer
        else { return [] }
        let channels = Int(asbd.mChannelsPerFrame)
        let frames = sampleBuffer.numSamples
        let isFloat = asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0
        var bytes = [UInt8](repeating: 0, count: data.dataLength)
        guard CMBlockBufferCopyDataBytes(data, atOffset: 0, dataLength: bytes.count, destination: &bytes) == noErr else { return [] }
        var sums = [Double](repeating: 0, count: channels)
        var maxima = [Double](repeating: 0, count: channels)
        bytes.withUnsafeBytes { raw in
            for frame in 0..<frames {
                for channel in 0..<channels {
                    // Interleaved: frame-major; non-interleaved: one plane per channel.
                    let index = asbd.isNonInterleaved ? channel * frames + frame : frame * channels + channel
                    let value = isFloat
                        ? Double(raw.load(fromByteOffset: index * 4, as: Float.self))
                        : Double(raw.load(fromByteOffset: index * 2, as: Int16.self)) / 32768
                    sums[channel] += value * value
                    maxima[channel] = max(maxima[channel], abs(value))
                }
            }
        }
        if peaks.count != channels { peaks = Array(repeating: [], count: channels) }
        let now = sampleBuffer.presentationTimeStamp.seconds
        return (0..<channels).map { channel in
            peaks[channel].removeAll { now - $0.time >= 1 }
            peaks[channel].append((now, Self.decibels(maxima[channel])))
            let held = peaks[channel].map(\.peak).max() ?? -160
            return Level(average: Self.decibels((sums[channel] / Double(max(frames, 1))).squareRoot()), peakHold: held)
        }
    }
}
