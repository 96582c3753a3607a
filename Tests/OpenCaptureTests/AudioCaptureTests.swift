import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Collects an audio data output's buffers until it has `wanted` of them.
private final class AudioCollector: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var buffers: [CMSampleBuffer] = []
    private var levels: [(Float, Float)] = []
    let done: Completion<Void>
    let wanted: Int

    init(wanted: Int) {
        self.wanted = wanted
        done = Completion("\(wanted) audio buffers")
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.lock()
        buffers.append(sampleBuffer)
        if let channel = connection.audioChannels.first { levels.append((channel.averagePowerLevel, channel.peakHoldLevel)) }
        let enough = buffers.count >= wanted
        lock.unlock()
        if enough { done.fulfil() }
    }

    var collected: [CMSampleBuffer] {
        lock.lock()
        defer { lock.unlock() }
        return buffers
    }

    var meterReadings: [(Float, Float)] {
        lock.lock()
        defer { lock.unlock() }
        return levels
    }
}

/// The simulated microphone in a session, virtual pacing, its buffers collected.
private func record(
    buffers: Int, seed: UInt64 = 7, roomTone: Double = 35, tones: [(Double, Double)] = [], claps: [(Double, Double)] = [],
    withCamera: Bool = false, pacing: AVCaptureDevice.Simulation.Pacing = .virtual
) throws -> (samples: [Int16], buffers: [CMSampleBuffer], levels: [(Float, Float)]) {
    // The simulated one by its ID: with a sound card, default(for: .audio) is ALSA's default PCM.
    let microphone = try #require(AVCaptureDevice(uniqueID: "sim:microphone"))
    let simulation = try #require(microphone.microphoneSimulation)
    simulation.pacing = pacing
    simulation.seed = seed
    simulation.roomToneLevel = roomTone
    simulation.removeAllSounds()
    for (frequency, level) in tones { simulation.addTone(frequency: frequency, level: level) }
    for (time, level) in claps { simulation.addClap(at: time, level: level) }
    let session = AVCaptureSession()
    session.beginConfiguration()
    if withCamera {
        let camera = try #require(AVCaptureDevice.default(for: .video))
        camera.simulation?.pacing = .virtual
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: camera))
    }
    session.addInput(try AVCaptureDeviceInput(device: microphone))
    let output = AVCaptureAudioDataOutput()
    let collector = AudioCollector(wanted: buffers)
    output.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "audio test"))
    #expect(session.canAddOutput(output))
    session.addOutput(output)
    session.commitConfiguration()
    session.startRunning()
    try collector.done.wait(within: .seconds(20))
    session.stopRunning()
    let all = Array(collector.collected.prefix(buffers))
    var samples: [Int16] = []
    for buffer in all {
        try buffer.withAudioBufferList { list, _ in
            let data = try #require(list[0].mData)
            samples += UnsafeBufferPointer(start: data.assumingMemoryBound(to: Int16.self), count: Int(list[0].mDataByteSize) / 2)
        }
    }
    // In virtual time more buffers can arrive before stopRunning takes effect (more on a
    // loaded machine): only the first `buffers` were asked for.
    return (samples, all, Array(collector.meterReadings.prefix(buffers)))
}

/// The magnitude spectrum of `samples` (a power of two long) by radix-2 FFT, as amplitudes
/// of a sine: bin k holds 2|X_k| / N.
private func amplitudeSpectrum(_ samples: [Double]) -> [Double] {
    let n = samples.count
    precondition(n.nonzeroBitCount == 1)
    var re = samples
    var im = [Double](repeating: 0, count: n)
    var j = 0
    for i in 1..<n {
        var bit = n >> 1
        while j & bit != 0 {
            j ^= bit
            bit >>= 1
        }
        j |= bit
        if i < j {
            re.swapAt(i, j)
            im.swapAt(i, j)
        }
    }
    var length = 2
    while length <= n {
        let angle = -2 * Double.pi / Double(length)
        for start in stride(from: 0, to: n, by: length) {
            for k in 0..<length / 2 {
                let (wr, wi) = (cos(angle * Double(k)), sin(angle * Double(k)))
                let (a, b) = (start + k, start + k + length / 2)
                let tr = re[b] * wr - im[b] * wi
                let ti = re[b] * wi + im[b] * wr
                (re[b], im[b]) = (re[a] - tr, im[a] - ti)
                (re[a], im[a]) = (re[a] + tr, im[a] + ti)
            }
        }
        length <<= 1
    }
    return (0..<n / 2).map { 2 * (re[$0] * re[$0] + im[$0] * im[$0]).squareRoot() / Double(n) }
}

@Suite("Audio capture", .serialized)
struct AudioCaptureTests {
    @Test("The microphone is the default audio device and discovery finds it by either type name")
    func discovery() throws {
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        #expect(microphone.deviceType == .microphone && microphone.hasMediaType(.audio) && !microphone.hasMediaType(.video))
        #expect(AVCaptureDevice.default(for: .video)?.hasMediaType(.video) == true)
        let types = [AVCaptureDevice.DeviceType.microphone, AVCaptureDevice.DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInMicrophone")]
        for type in types {
            let found = AVCaptureDevice.DiscoverySession(deviceTypes: [type], mediaType: .audio, position: .unspecified).devices
            #expect(found == [microphone])
            #expect(AVCaptureDevice.default(type, for: .audio, position: .unspecified) == microphone)
        }
        #expect(AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .video, position: .unspecified).devices.isEmpty)
        let format = try #require(microphone.formats.first)
        #expect(format.mediaType == .audio && microphone.activeFormat == format)
        let asbd = try #require(format.formatDescription.audioStreamBasicDescription)
        #expect(asbd.mSampleRate == 48_000 && asbd.mChannelsPerFrame == 1 && asbd.mBitsPerChannel == 16)
        #expect(asbd.mFormatFlags == kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked)
        let input = try AVCaptureDeviceInput(device: microphone)
        #expect(input.ports.map(\.mediaType) == [.audio])
    }

    @Test("A session with a camera and the microphone connects the audio output to the microphone")
    func graph() throws {
        let session = AVCaptureSession()
        let camera = try #require(AVCaptureDevice.default(for: .video))
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let micInput = try AVCaptureDeviceInput(device: microphone)
        #expect(session.canAddInput(micInput))
        session.addInput(micInput)
        #expect(!session.canAddInput(try AVCaptureDeviceInput(device: microphone)))
        let video = AVCaptureVideoDataOutput()
        let audio = AVCaptureAudioDataOutput()
        session.addOutput(video)
        session.addOutput(audio)
        let audioConnection = try #require(audio.connection(with: .audio))
        #expect(audioConnection.inputPorts.first?.input === micInput)
        #expect(audioConnection.audioChannels.count == 1)
        #expect(audioConnection.audioChannels[0].averagePowerLevel == -160)
        #expect(video.connection(with: .video)?.audioChannels.isEmpty == true)
        #expect(audio.connection(with: .video) == nil)
        let settings = try #require(audio.recommendedAudioSettingsForAssetWriter(writingTo: .mp4))
        #expect(settings[AVFormatIDKey] as? Int == Int(kAudioFormatMPEG4AAC))
        #expect(settings[AVSampleRateKey] as? Double == 48_000)
        #expect(audio.recommendedAudioSettingsForAssetWriter(writingTo: .jpg) == nil)
    }

    @Test("Buffers are 1024 frames of 16-bit mono PCM, contiguous to the sample on the host clock")
    func contiguousTimestamps() throws {
        let before = CMClockGetTime(CMClockGetHostTimeClock())
        let run = try record(buffers: 12, withCamera: true)
        #expect(run.buffers.count == 12)
        for buffer in run.buffers {
            #expect(CMSampleBufferGetNumSamples(buffer) == 1024)
            #expect(buffer.duration == CMTime(value: 1024, timescale: 48_000))
            #expect(buffer.formatDescription?.mediaSubType == .linearPCM)
        }
        for (a, b) in zip(run.buffers, run.buffers.dropFirst()) {
            #expect(b.presentationTimeStamp == a.presentationTimeStamp + a.duration)
        }
        let first = try #require(run.buffers.first).presentationTimeStamp
        #expect(first >= before - CMTime(value: 1, timescale: 48_000))
        #expect(first <= CMClockGetTime(CMClockGetHostTimeClock()))
    }

    @Test("A tone's frequency and level by FFT are the scene's", arguments: [(85, 80.0), (170, 66.0)])
    func toneByFFT(bin: Int, level: Double) throws {
        // A frequency on an FFT bin (bin × 48000 / 4096 Hz), so no window is needed.
        let frequency = Double(bin) * 48_000 / 4096
        let run = try record(buffers: 4, roomTone: 20, tones: [(frequency, level)])
        let spectrum = amplitudeSpectrum(run.samples.prefix(4096).map { Double($0) / 32767 })
        let peak = spectrum.indices.max { spectrum[$0] < spectrum[$1] }
        #expect(peak == bin)
        // A sine of RMS level L dB SPL has amplitude √2 × 10^((L − 120) / 20).
        let expected = 2.0.squareRoot() * pow(10, (level - 120) / 20)
        #expect(abs(spectrum[bin] - expected) / expected < 0.005)
        let levelDB = 20 * log10(spectrum[bin] / 2.0.squareRoot()) + 120
        #expect(abs(levelDB - level) < 0.05)
    }

    @Test("Room tone is zero-mean Gaussian noise at its level, the same for the same seed")
    func roomToneStatistics() throws {
        let run = try record(buffers: 24, seed: 11, roomTone: 60)
        let values = run.samples.map { Double($0) / 32767 }
        let mean = values.reduce(0, +) / Double(values.count)
        let rms = (values.map { $0 * $0 }.reduce(0, +) / Double(values.count)).squareRoot()
        let expected = pow(10, (60.0 - 120) / 20)
        #expect(abs(mean) < 0.02 * expected)
        #expect(abs(rms - expected) / expected < 0.02)
        // Gaussian: about 68.3 % of samples within one sigma, 95.4 % within two.
        let one = Double(values.filter { abs($0) <= rms }.count) / Double(values.count)
        let two = Double(values.filter { abs($0) <= 2 * rms }.count) / Double(values.count)
        #expect(abs(one - 0.683) < 0.01 && abs(two - 0.954) < 0.006)
        let again = try record(buffers: 2, seed: 11, roomTone: 60)
        #expect(Array(again.samples) == Array(run.samples.prefix(2048)))
        let other = try record(buffers: 2, seed: 12, roomTone: 60)
        #expect(Array(other.samples) != Array(run.samples.prefix(2048)))
    }

    @Test("A clap starts on its sample and the channel meter sees it")
    func clapAndMeter() throws {
        let run = try record(buffers: 8, roomTone: 30, claps: [(0.1, 110)])
        let onset = Int((0.1 * 48_000).rounded())
        let before = run.samples[(onset - 200)..<onset].map { abs(Int($0)) }.max() ?? 0
        let after = run.samples[onset..<(onset + 48)].map { abs(Int($0)) }.max() ?? 0
        #expect(before < 10)
        #expect(after > 1000)
        // Meter readings: quiet before the clap's buffer (index 4 holds sample 4800), loud at it.
        #expect(run.levels.count == 8)
        #expect(run.levels[0].0 < -80)
        #expect(run.levels[4].0 > -40 && run.levels[4].1 > -20)
        #expect(run.levels[6].1 >= run.levels[4].1 - 0.001)  // the peak is held
    }

    @Test("Real-time pacing delivers each buffer once its last sample is due, one after the other on the host clock")
    func realTimePacing() throws {
        let host = CMClockGetHostTimeClock()
        let start = CMClockGetTime(host)
        let run = try record(buffers: 3, pacing: .realTime)
        let end = CMClockGetTime(host)
        #expect(run.buffers.count == 3)
        // Three buffers are 64 ms of sound: never sooner, however idle the machine. (No upper
        // bound: a busy machine may take longer, and the wait fails the test if none come.)
        #expect((end - start).seconds >= 3 * 1024 / 48_000 - 0.002)
        // Stamped on the host clock after the start, each where the one before it ended, and
        // the last one's sound was over by the time it had been delivered.
        let times = run.buffers.map { ($0.presentationTimeStamp.seconds, $0.duration.seconds) }
        #expect(times.first.map { $0.0 >= start.seconds - 1e-4 } ?? false, "\(times) from \(start.seconds)")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($0.0 + $0.1 - $1.0) < 1e-6 }, "\(times)")
        #expect(times.last.map { $0.0 + $0.1 <= end.seconds } ?? false, "\(times) until \(end.seconds)")
    }

    @Test("Unplugging the microphone ends its stream with deviceWasDisconnected")
    func disconnect() async {
        await #expect(processExitsWith: .success) {
            let microphone = AVCaptureDevice(uniqueID: "sim:microphone")!
            microphone.microphoneSimulation!.pacing = .virtual
            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: microphone))
            let output = AVCaptureAudioDataOutput()
            let collector = AudioCollector(wanted: 2)
            output.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "audio test"))
            session.addOutput(output)
            let failure = Completion<Int>("the runtime error")
            let observer = NotificationCenter.default.addObserver(
                forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil
            ) { notification in
                failure.fulfil((notification.userInfo?[AVCaptureSessionErrorKey] as? AVError)?.code.rawValue ?? 0)
            }
            session.startRunning()
            try collector.done.wait(within: .seconds(10))
            microphone.microphoneSimulation!.disconnect()
            let code = try failure.wait(within: .seconds(10))
            NotificationCenter.default.removeObserver(observer)
            let alone = AVCaptureDevice.default(for: .audio)
            exit(code == AVError.Code.deviceWasDisconnected.rawValue && !microphone.isConnected && alone == nil ? 0 : 1)
        }
    }

    @Test("A delegate without a queue raises")
    func delegateWithoutQueue() {
        let output = AVCaptureAudioDataOutput()
        #expect(throws: AVCaptureException.self) {
            try output.setSampleBufferDelegateChecked(AudioCollector(wanted: 1), queue: nil)
        }
        #expect(output.sampleBufferDelegate == nil && output.sampleBufferCallbackQueue == nil)
    }
}
