import Foundation
import Synchronization

/// Spreads a microphone's buffers to the session's audio connections (the audio
/// counterpart of `FrameRouter`): it meters each buffer into the connections'
/// `AVCaptureAudioChannel`s and hands it to each enabled connection's consumer.
///
/// Threads: `backendDidCapture` runs on the microphone's capture thread and never calls
/// user code: an audio data output calls its delegate on the delegate's queue, a movie
/// output's recorder writes on its own queue. In virtual time the capture thread waits
/// until each consumer wants the next buffer (`AudioPace`): a delivering consumer has
/// handled the last one, a recorder has written it and is not ahead of its camera.
final class AudioRouter: AudioSink, Sendable {
    let device: AVCaptureDevice
    private weak let session: AVCaptureSession?
    private let state = ConditionState(State())
    /// The meter's held peaks; only the capture thread measures, the lock keeps that checked.
    private let meter = Mutex(AudioMeter())
    /// The session's start instant for a stream started with the session (see `AudioSink`).
    let streamEpoch: Int64?

    private struct Route {
        let connection: AVCaptureConnection
        let consumer: any RouteConsumer
    }

    private struct State {
        var routes: [Route] = []
        /// Buffers handed to consumers that count them and not yet handled.
        var pending = 0
        /// No more buffers go out.
        var closed = false
    }

    init(session: AVCaptureSession, device: AVCaptureDevice, epoch: Int64? = nil) {
        self.session = session
        self.device = device
        streamEpoch = epoch
    }

    /// Publishes the routes of `connections`; consumers hear whether they joined or left.
    func setTargets(_ connections: [AVCaptureConnection]) {
        let new = connections.compactMap { connection in connection.consumer.map { Route(connection: connection, consumer: $0) } }
        let (old, closed) = state.withLock(broadcast: true) { state in
            defer { state.routes = new }
            return (state.routes, state.closed)
        }
        guard !closed else { return }
        for route in old where !new.contains(where: { $0.consumer === route.consumer }) { route.consumer.audioRouteDidEnd(by: self) }
        for route in new { route.consumer.audioRouteDidPublish(by: self) }
    }

    /// No more buffers go out, and a capture thread waiting in virtual time is let go.
    func close() {
        let routes = state.withLock(broadcast: true) { state in
            defer { state.closed = true }
            return state.closed ? [] : state.routes
        }
        for route in routes { route.consumer.audioRouteDidEnd(by: self) }
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    func backendDidCapture(audio captured: CMSampleBuffer) {
        // A muted app (AVAudioApplication) hears silence, as on iOS.
        let sampleBuffer = AVAudioApplication.shared.isInputMuted ? Self.silence(like: captured) : captured
        let (all, live) = state.withLock { state in
            let all = state.closed ? [] : state.routes
            let live = all.filter(\.connection.isEnabled)
            state.pending += live.filter(\.consumer.countsAudioInFlight).count
            return (all, live)
        }
        // Every buffer moves a recording's audio clock, recorded or not (virtual-time lockstep).
        for route in all { route.consumer.audioClockDidTick(sampleBuffer) }
        guard !live.isEmpty else { return }
        let levels = meter.withLock { $0.measure(sampleBuffer) }
        for route in live {
            for (channel, level) in zip(route.connection.audioChannels, levels) { channel.record(level) }
        }
        for route in live {
            let done: (@Sendable () -> Void)? = route.consumer.countsAudioInFlight ? { @Sendable [weak self] in self?.bufferWasHandled() } : nil
            route.consumer.take(audio: sampleBuffer, from: route.connection, done: done)
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
        state.withLock(broadcast: true) { $0.pending -= 1 }
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
        // A recorder takes sound as fast as its writer does, and no faster than its camera;
        // a Live Photo ring no faster than its camera's frames.
        for route in state.withLock({ $0.routes.filter(\.connection.isEnabled) }) {
            route.consumer.waitForAudioTurn(unless: { isClosed })
        }
        return state.wait(polling: 0.05) { state in
            guard !state.closed else { return false }
            var delivering = 0
            var unpaced = false
            for route in state.routes where route.connection.isEnabled {
                switch route.consumer.audioPace {
                case .oneInFlight: delivering += 1
                case .own: unpaced = true
                case .none: break
                }
            }
            // One buffer in flight per delivering consumer, so a delegate reading the channel
            // meters sees its own buffer's levels; consumers pacing themselves never hold the
            // microphone back; with nobody to take buffers, virtual time stands still.
            if delivering > 0 { return state.pending < delivering ? true : nil }
            return unpaced ? true : nil
        }
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
