import Foundation
import MediaIO
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Holds the camera at its first frames (virtual time stands still: the microphone keeps
/// step with the camera) until the test has started recording.
private final class FrameGate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let open = DispatchSemaphore(value: 0)
    private let opened = Atomic<Bool>(false)

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard !opened.load(ordering: .acquiring) else { return }
        open.wait()
        open.signal()
        opened.store(true, ordering: .releasing)
    }

    func release() { open.signal() }
}

/// A movie recorded with sound from the simulated back camera and microphone in virtual
/// time: 192x144 at 10 frames/s, a flash (the light ×10 for 50 ms) with a clap at each of
/// `events` (seconds on the session's scene clock), `seconds` long (by `maxRecordedDuration`),
/// or ended by `stopRecording` once `stopAfterFrames` frames are written.
struct SoundMovie {
    let url: URL
    let error: AVError?
    let started: Bool

    static func record(seconds: Double, events: [Double], fragment: Double = 10, stopAfterFrames: Int? = nil) throws -> SoundMovie {
        let camera = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        // Not `default(for: .audio)`: on a machine with a sound card that is ALSA's default PCM.
        let microphone = try #require(AVCaptureDevice(uniqueID: "sim:microphone"))
        let simulation = try #require(camera.simulation)
        let sound = try #require(microphone.microphoneSimulation)
        simulation.pacing = .virtual
        simulation.seed = 7
        simulation.clearSceneTimeline()
        simulation.sceneIlluminance = 300
        sound.pacing = .virtual
        sound.seed = 7
        sound.roomToneLevel = 35
        sound.removeAllSounds()
        for time in events {
            simulation.scheduleSceneIlluminance(3000, atTime: time)
            simulation.scheduleSceneIlluminance(300, atTime: time + 0.05)
            sound.addClap(at: time, level: 110)
        }
        defer {
            simulation.pacing = .realTime
            simulation.clearSceneTimeline()
            simulation.sceneIlluminance = 628
            sound.pacing = .realTime
            sound.removeAllSounds()
        }
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .low
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        try camera.lockForConfiguration()
        camera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 10)
        camera.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 10)
        camera.unlockForConfiguration()
        let movie = AVCaptureMovieFileOutput()
        movie.movieFragmentInterval = CMTime(seconds: fragment, preferredTimescale: 600)
        if stopAfterFrames == nil { movie.maxRecordedDuration = CMTime(seconds: seconds, preferredTimescale: 600) }
        session.addOutput(movie)
        let gate = FrameGate()
        let frames = AVCaptureVideoDataOutput()
        frames.setSampleBufferDelegate(gate, queue: DispatchQueue(label: "gate"))
        session.addOutput(frames)
        session.commitConfiguration()
        #expect(movie.connection(with: .audio) != nil, "the movie output takes the microphone, as on iOS")
        session.startRunning()
        defer { session.stopRunning() }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sound-\(UUID().uuidString).mp4")
        let delegate = RecordingRecorder()
        movie.startRecording(to: url, recordingDelegate: delegate)
        try #require(eventually("recording") { movie.isRecording })
        gate.release()
        if let stopAfterFrames {
            try #require(eventually("\(stopAfterFrames) frames recorded") { movie.recordedFrameCount >= stopAfterFrames })
            movie.stopRecording()
        }
        try delegate.wait()
        return SoundMovie(url: url, error: delegate.error, started: !delegate.started.withLock { $0 }.isEmpty)
    }

    /// The presentation times of frames whose mean luma jumps by more than 40 codes.
    func flashTimes() async throws -> [Double] {
        let (_, samples) = try await AssetReaderFixture.frames(url)
        var times: [Double] = []
        var previous: Double?
        for sample in samples {
            let luma = AssetReaderFixture.bytes(try #require(sample.imageBuffer))
            let mean = Double(luma.reduce(0) { $0 + Int($1) }) / Double(luma.count)
            if let previous, mean > previous + 40 { times.append(sample.presentationTimeStamp.seconds) }
            previous = mean
        }
        return times
    }

    /// The decoded sound (AAC to 32-bit floats): the first buffer's time and the samples.
    func sound() async throws -> (start: Double, rate: Double, samples: [Float]) {
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .audio).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: track, outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true])
        reader.add(output)
        #expect(reader.startReading())
        var start: Double?
        var rate = 0.0
        var samples: [Float] = []
        for sample in AssetReaderFixture.drain(output) {
            let block = try #require(CMSampleBufferGetDataBuffer(sample))
            start = start ?? sample.presentationTimeStamp.seconds
            rate = sample.formatDescription?.audioStreamBasicDescription?.mSampleRate ?? 0
            var floats = [Float](repeating: 0, count: CMBlockBufferGetDataLength(block) / 4)
            floats.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!) }
            samples += floats
        }
        return (try #require(start), rate, samples)
    }

    /// Clap onsets: the first sample above 0.05 of full scale (-26 dBFS; the room tone is at -85) after each quiet half second.
    func clapTimes() async throws -> [Double] {
        let (start, rate, samples) = try await sound()
        var times: [Double] = []
        var last = -Double.infinity
        for (index, value) in samples.enumerated() where abs(value) > 0.05 {
            let time = start + Double(index) / rate
            if time - last > 0.5 { times.append(time) }
            last = time
        }
        return times
    }
}

@Suite("AVCaptureMovieFileOutput with sound", .serialized)
struct MovieAudioTests {
    @Test("a microphone gives the movie output an audio connection with a meter; keys and settings for it")
    func audioConnection() throws {
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
        let output = AVCaptureMovieFileOutput()
        session.addOutput(output)
        #expect(output.connection(with: .audio) == nil)
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
        let audio = try #require(output.connection(with: .audio))
        #expect(output.connections.count == 2 && output.connection(with: .video) != nil)
        #expect(audio.audioChannels.count == 1)
        #expect(output.supportedOutputSettingsKeys(for: audio) == [AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVEncoderBitRateKey])
        let settings = output.outputSettings(for: audio)
        #expect(settings[AVFormatIDKey] as? Int == Int(kAudioFormatMPEG4AAC))
        #expect(settings[AVSampleRateKey] as? Double == 48_000 && settings[AVNumberOfChannelsKey] as? Int == 1)
        #expect(settings[AVEncoderBitRateKey] as? Int == 64_000)
        output.setOutputSettings([AVEncoderBitRateKey: 96_000, AVSampleRateKey: 48_000.0], for: audio)
        #expect(output.outputSettings(for: audio)[AVEncoderBitRateKey] as? Int == 96_000)
        #expect(output.movieAudioSettings(for: audio) == MovieAudioSettings(codec: .aac(bitRate: 96_000), sampleRate: 48_000, channels: 1))
        // A second microphone connection has no room; the video settings are untouched.
        #expect(output.outputSettings(for: try #require(output.connection(with: .video)))[AVVideoCodecKey] as? AVVideoCodecType == .h264)
    }

    @Test("a sample rate the microphone does not record raises NSInvalidArgumentException")
    func unsupportedSampleRateRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:microphone")!))
            let output = AVCaptureMovieFileOutput()
            session.addOutput(output)
            output.setOutputSettings([AVSampleRateKey: 44_100], for: output.connection(with: .audio)!)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("'NSInvalidArgumentException'") && text.contains("Unsupported sample rate 44100"), "\(text)")
    }

    @Test("a channel count the microphone does not record raises NSInvalidArgumentException")
    func unsupportedChannelCountRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:microphone")!))
            let output = AVCaptureMovieFileOutput()
            session.addOutput(output)
            output.setOutputSettings([AVNumberOfChannelsKey: 2], for: output.connection(with: .audio)!)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("'NSInvalidArgumentException'") && text.contains("Unsupported number of channels 2"), "\(text)")
    }

    @Test("a buffer the audio track cannot take ends the recording with an error, not as a finished one")
    func audioFailureIsAnError() throws {
        let camera = try #require(AVCaptureDevice.default(for: .video))
        let microphone = try #require(AVCaptureDevice(uniqueID: "sim:microphone"))
        camera.simulation?.pacing = .virtual
        microphone.microphoneSimulation?.pacing = .virtual
        defer {
            camera.simulation?.pacing = .realTime
            microphone.microphoneSimulation?.pacing = .realTime
        }
        let session = AVCaptureSession()
        session.sessionPreset = .low
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        session.startRunning()
        defer { session.stopRunning() }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bad-sound-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        movie.startRecording(to: url, recordingDelegate: delegate)
        try #require(eventually("frames recorded") { movie.recordedFrameCount > 3 })
        // 44.1 kHz stereo into the 48 kHz mono track: the writer cannot take it.
        let format = CMFormatDescription(audio: AudioFormatStorage(
            asbd: .linearPCM(sampleRate: 44_100, channels: 2, float: false), layoutTag: kAudioChannelLayoutTag_Stereo))
        let block = try #require(CMBlockBuffer(allocating: 4096))
        movie.consumeAudio(CMSampleBuffer(
            dataBuffer: block, formatDescription: format, sampleCount: 1024, presentationTimeStamp: CMClockGetHostTimeClock().time))
        try delegate.wait()
        let error = try #require(delegate.error)
        #expect(error.code == .unknown && error.localizedDescription.contains("44100"), "\(error)")
        // What was written before is complete and says so.
        #expect(error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true)
        #expect(try ProbeStreams(url).streams.map(\.codec) == ["h264", "aac"])
    }

    @Test("AAC interleaved with H.264: ffprobe reads it; the clap is within 10 ms of the flash")
    func flashAndClapInSync() async throws {
        let movie = try SoundMovie.record(seconds: 2, events: [1.0], fragment: 0.5)
        defer { try? FileManager.default.removeItem(at: movie.url) }
        #expect(movie.started)
        #expect(movie.error?.code == .maximumDurationReached)
        #expect(movie.error?.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true)
        let probe = try ProbeStreams(movie.url)
        let audio = try #require(probe.streams.first { $0.type == "audio" })
        let video = try #require(probe.streams.first { $0.type == "video" })
        #expect(audio.codec == "aac" && audio.sampleRate == 48_000 && audio.channels == 1)
        #expect(video.codec == "h264")
        // The duration limit is reached on the frame that crosses it; the sound behind it is
        // written up to that frame's end before the file closes.
        #expect(abs(audio.duration - video.duration) <= Self.trackEndTolerance, "audio \(audio.duration) s, video \(video.duration) s")
        #expect(probe.fragments >= 3, "fragmented, both tracks in the fragments")
        let flashes = try await movie.flashTimes()
        let claps = try await movie.clapTimes()
        try #require(flashes.count == 1 && claps.count == 1, "flashes \(flashes), claps \(claps)")
        #expect(abs(claps[0] - flashes[0]) <= 0.010, "A/V offset \((claps[0] - flashes[0]) * 1000) ms")
    }

    /// How far apart ffprobe may find the two tracks' ends: one AAC frame (1024 samples).
    static let trackEndTolerance = 1024.0 / 48_000

    @Test("stopRecording in virtual time: the sound track lasts to the last frame's end (ffprobe)")
    func stopKeepsTheSoundToTheLastFrame() throws {
        let movie = try SoundMovie.record(seconds: 0, events: [0.5], fragment: 0.5, stopAfterFrames: 25)
        defer { try? FileManager.default.removeItem(at: movie.url) }
        #expect(movie.started && movie.error == nil, "\(String(describing: movie.error))")
        let probe = try ProbeStreams(movie.url)
        let audio = try #require(probe.streams.first { $0.type == "audio" })
        let video = try #require(probe.streams.first { $0.type == "video" })
        print("movie-audio: stopRecording: audio \(audio.duration) s, video \(video.duration) s")
        #expect(video.duration >= 2.5)
        #expect(abs(audio.duration - video.duration) <= Self.trackEndTolerance, "audio \(audio.duration) s, video \(video.duration) s")
    }

    /// OPENCAPTURE_DRIFT_SECONDS=600 makes it the 10-minute benchmark of docs/PERFORMANCE.md
    /// (a flash and a clap every minute).
    @Test("30 s of virtual time, a flash and a clap every 7 s: each within 10 ms, no drift")
    func noDrift() async throws {
        let seconds = ProcessInfo.processInfo.environment["OPENCAPTURE_DRIFT_SECONDS"].flatMap(Double.init) ?? 30
        let step = seconds >= 120 ? 60.0 : 7
        let events = Array(stride(from: 1.0, to: seconds - 0.5, by: step))
        let movie = try SoundMovie.record(seconds: seconds, events: events)
        defer { try? FileManager.default.removeItem(at: movie.url) }
        let flashes = try await movie.flashTimes()
        let claps = try await movie.clapTimes()
        try #require(flashes.count == events.count && claps.count == events.count, "flashes \(flashes), claps \(claps)")
        let offsets = zip(claps, flashes).map { $0 - $1 }
        for offset in offsets { #expect(abs(offset) <= 0.010, "offsets \(offsets)") }
        #expect(abs(offsets.last! - offsets.first!) <= 0.001, "drift \(offsets)")
        // The events keep their spacing in the file: both clocks are the host clock.
        #expect(abs((flashes.last! - flashes.first!) - (events.last! - events.first!)) < 0.001)
        if seconds > 30 { print("drift benchmark: \(seconds) s, offsets (ms) \(offsets.map { ($0 * 1000).rounded() })") }
    }
}

/// ffprobe's streams and the number of movie fragments.
struct ProbeStreams {
    struct Stream {
        var type: String
        var codec: String
        var sampleRate: Int
        var channels: Int
        var duration: Double
    }

    var streams: [Stream] = []
    var fragments = 0

    init(_ url: URL) throws {
        let json = try FFprobe.json(url.path, ["-show_entries", "stream=codec_type,codec_name,sample_rate,channels,duration"])
        for stream in json["streams"] as? [[String: Any]] ?? [] {
            streams.append(Stream(
                type: stream["codec_type"] as? String ?? "", codec: stream["codec_name"] as? String ?? "",
                sampleRate: Int(stream["sample_rate"] as? String ?? "") ?? 0, channels: stream["channels"] as? Int ?? 0,
                duration: Double(stream["duration"] as? String ?? "") ?? 0))
        }
        let bytes = [UInt8](try Data(contentsOf: url))
        let moof = Array("moof".utf8)
        fragments = bytes.count < 4 ? 0 : (0...(bytes.count - 4)).count { bytes[$0] == moof[0] && Array(bytes[$0..<$0 + 4]) == moof }
    }
}
