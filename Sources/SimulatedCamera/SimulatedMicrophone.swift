import CaptureCore
import Foundation
import Synchronization

/// The simulated built-in microphone: it hears a seeded `Soundscape` and delivers what an
/// iPhone's microphone gives an `AVCaptureAudioDataOutput`: 48 kHz mono 16-bit signed
/// native-endian interleaved linear PCM, 1024 frames a buffer.
///
/// With `.realTime` pacing a buffer is delivered when its last sample has been "heard"
/// (host clock); with `.virtual` as fast as the consumers take them. Either way buffer
/// `n` starts at the stream's first sample time plus n × 1024 samples, on the host clock
/// in a 48 kHz timescale, so buffers are contiguous to the sample.
package final class SimulatedMicrophone: AudioCaptureBackend, @unchecked Sendable {
    package static let sampleRate = 48_000.0
    package static let framesPerBuffer = 1024

    package let descriptor: DeviceDescriptor
    package let audioFormat: CMAudioFormatDescription
    private let state: Mutex<State>

    private struct State {
        var seed: UInt64 = 0
        var pacing: Pacing
        var soundscape = Soundscape()
        var connected = true
        var stream: MicrophoneStream?
    }

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        descriptor = DeviceDescriptor(
            uniqueID: "sim:microphone", modelID: "OpenCapture Simulated Microphone", localizedName: "iPhone Microphone",
            manufacturer: "OpenCapture", position: 0, deviceType: "AVCaptureDeviceTypeMicrophone", formats: [],
            presetFormats: [:], defaultFormatIndex: 0, lensAperture: 0)
        let asbd = AudioStreamBasicDescription.linearPCM(sampleRate: Self.sampleRate, channels: 1, float: false)
        audioFormat = CMFormatDescription(audio: AudioFormatStorage(asbd: asbd, layoutTag: kAudioChannelLayoutTag_Mono))
        let pacing: Pacing = environment["OPENCAPTURE_PACING"]?.lowercased() == "virtual" ? .virtual : .realTime
        state = Mutex(State(pacing: pacing))
    }

    package var isConnected: Bool { state.withLock { $0.connected } }

    /// The seed of the soundscape's noise; applies from the next start.
    package var seed: UInt64 {
        get { state.withLock { $0.seed } }
        set { state.withLock { $0.seed = newValue } }
    }

    package var pacing: Pacing {
        get { state.withLock { $0.pacing } }
        set { state.withLock { $0.pacing = newValue } }
    }

    /// What the microphone hears; applies from the next start.
    package var soundscape: Soundscape {
        get { state.withLock { $0.soundscape } }
        set { state.withLock { $0.soundscape = newValue } }
    }

    package func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        throw .streamFailed("a microphone captures no video")
    }

    /// A microphone has no per-frame settings to change.
    package func update(_ configuration: StreamConfiguration) {}
    /// A microphone takes no camera controls (the device API reports them unsupported).
    package func apply(_ request: ControlRequest) {}

    package func startAudio(sink: any AudioSink) throws(BackendError) {
        let setup = state.withLock { s -> (Soundscape, UInt64, Pacing, Bool, Bool) in
            (s.soundscape, s.seed, s.pacing, s.connected, s.stream != nil)
        }
        guard setup.3 else { throw .deviceWasDisconnected }
        guard !setup.4 else { return }
        let stream = MicrophoneStream(
            renderer: SoundscapeRenderer(soundscape: setup.0, sampleRate: Self.sampleRate, seed: setup.1), format: audioFormat,
            pacing: setup.2, sink: sink)
        state.withLock { $0.stream = stream }
        stream.start()
    }

    package func stop() {
        let stream = state.withLock { s -> MicrophoneStream? in
            defer { s.stream = nil }
            return s.stream
        }
        stream?.stop()
    }

    /// Simulates unplugging: a running stream ends with `deviceWasDisconnected`.
    package func disconnect() {
        let stream = state.withLock { s -> MicrophoneStream? in
            s.connected = false
            defer { s.stream = nil }
            return s.stream
        }
        stream?.fail(.deviceWasDisconnected)
    }
}

/// One run of the microphone: the capture thread "OpenCapture.sim.microphone".
final class MicrophoneStream: @unchecked Sendable {
    private var renderer: SoundscapeRenderer  // capture thread only
    private let format: CMAudioFormatDescription
    private let pacing: Pacing
    private let sink: any AudioSink
    private let stopping = Atomic<Bool>(false)
    private let failure = Mutex<BackendError?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(renderer: SoundscapeRenderer, format: CMAudioFormatDescription, pacing: Pacing, sink: any AudioSink) {
        self.renderer = renderer
        self.format = format
        self.pacing = pacing
        self.sink = sink
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "OpenCapture.sim.microphone"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Ends the run and waits for the capture thread: afterwards the sink gets no more calls.
    func stop() {
        stopping.store(true, ordering: .releasing)
        finished.wait()
    }

    /// Ends the run with an error the capture thread then tells the sink; does not wait.
    func fail(_ error: BackendError) {
        failure.withLock { $0 = error }
        stopping.store(true, ordering: .releasing)
    }

    private func run() {
        let rate = SimulatedMicrophone.sampleRate
        let frames = SimulatedMicrophone.framesPerBuffer
        // The session's epoch, shared with the cameras it started with (see `streamEpoch`).
        let now = HostClock.now()
        let startNanoseconds = sink.streamEpoch.map { min($0, now) } ?? now
        // The first sample's time in samples of the host clock, so every buffer's time is exact.
        let firstSample = Int64((Double(startNanoseconds) * rate / 1e9).rounded())
        var index: Int64 = 0
        while !stopping.load(ordering: .acquiring) {
            if pacing == .realTime {
                let due = startNanoseconds + Int64((Double(index + Int64(frames)) * 1e9 / rate).rounded())
                let wait = due - HostClock.now()
                if wait > 0 { usleep(UInt32(min(wait / 1000, 100_000))) }
                if HostClock.now() < due { continue }
            } else if !sink.waitUntilReadyForNextAudioBuffer() {
                break
            }
            guard let block = CMBlockBuffer(allocating: frames * 2), let memory = block.pieces.first?.block.pointer else {
                sink.backendDidFail(.streamFailed("out of memory for audio"))
                return
            }
            let samples = memory.bindMemory(to: Int16.self, capacity: frames)
            for frame in 0..<frames {
                let value = renderer.next(index + Int64(frame)) * 32767
                samples[frame] = Int16(max(-32768, min(32767, value.rounded())))
            }
            let sample = CMSampleBuffer(
                dataBuffer: block, formatDescription: format, sampleCount: frames,
                presentationTimeStamp: CMTime(value: firstSample + index, timescale: CMTimeScale(rate)))
            sink.backendDidCapture(audio: sample)
            index += Int64(frames)
        }
        if let error = failure.withLock({ $0 }) { sink.backendDidFail(error) }
    }
}
