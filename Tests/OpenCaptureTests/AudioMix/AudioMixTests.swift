import Foundation
import Testing

@testable import OpenCapture

/// Audio mixes applied for real: the mix output's samples and an export's audio follow the
/// volume ramps and set volumes (AVAudioMix.h's rules), on files written by hand.
@Suite("Audio mix")
struct AudioMixTests {
    /// A mono 16-bit WAV at 48 kHz: `sample(n)` for each frame.
    static func wav(seconds: Double, _ sample: (Int) -> Int16) throws -> URL {
        let rate = 48_000
        let frames = Int(seconds * Double(rate))
        var data = Data()
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        put(UInt32(36 + frames * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        put(UInt32(16))
        put(UInt16(1))  // linear PCM
        put(UInt16(1))  // mono
        put(UInt32(rate))
        put(UInt32(rate * 2))
        put(UInt16(2))
        put(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        put(UInt32(frames * 2))
        for n in 0..<frames { put(sample(n)) }
        let url = AssetWriterFixture.temporaryURL("wav")
        try data.write(to: url)
        return url
    }

    /// Every float sample a mix output gives, with the time of the first.
    static func mixedSamples(_ asset: AVAsset, tracks: [AVAssetTrack], mix: AVAudioMix) throws -> (samples: [Float], start: CMTime) {
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderAudioMixOutput(audioTracks: tracks, audioSettings: nil)
        output.audioMix = mix
        try #require(reader.canAdd(output))
        reader.add(output)
        try #require(reader.startReading())
        var samples: [Float] = []
        var start: CMTime?
        while let buffer = output.copyNextSampleBuffer() {
            if start == nil { start = buffer.presentationTimeStamp }
            let block = try #require(CMSampleBufferGetDataBuffer(buffer))
            var bytes = [UInt8](repeating: 0, count: CMBlockBufferGetDataLength(block))
            CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: bytes.count, destination: &bytes)
            samples += bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }
        #expect(reader.status == .completed)
        return (samples, start ?? .invalid)
    }

    @Test func mixOutputScalesAFileTrackByRampsAndSetVolumes() throws {
        let url = try Self.wav(seconds: 1) { _ in 8192 }  // 0.25 throughout
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let track = try #require(asset.tracks(withMediaType: .audio).first)
        let parameters = AVMutableAudioMixInputParameters(track: track)
        parameters.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: CMTimeRange(start: CMTime(value: 2, timescale: 10), duration: CMTime(value: 4, timescale: 10)))
        parameters.setVolume(0.5, at: CMTime(value: 8, timescale: 10))
        let mix = AVMutableAudioMix()
        mix.inputParameters = [parameters]
        let (samples, start) = try Self.mixedSamples(asset, tracks: [track], mix: mix)
        #expect(start == .zero)
        #expect(samples.count == 48_000)
        func at(_ seconds: Double) -> Float { samples[Int(seconds * 48_000)] }
        #expect(abs(at(0.1) - 0.25) < 1e-4, "before the ramp: volume 1")
        #expect(abs(at(0.4) - 0.125) < 1e-4, "half-way down the ramp")
        #expect(abs(at(0.5) - 0.0625) < 1e-4, "three quarters down the ramp")
        #expect(abs(at(0.7)) < 1e-4, "after the ramp: its end volume, 0")
        #expect(abs(at(0.9) - 0.125) < 1e-4, "the volume set at 0.8 s")
    }

    @Test func mixOutputSumsCompositionTracksEachAtItsVolume() throws {
        let loud = try Self.wav(seconds: 1) { _ in 8192 }  // 0.25
        let quiet = try Self.wav(seconds: 1) { _ in 4096 }  // 0.125
        defer { for url in [loud, quiet] { try? FileManager.default.removeItem(at: url) } }
        let composition = AVMutableComposition()
        let range = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        // Tracks refer to their assets weakly: the assets are kept while inserting.
        let sources = [AVURLAsset(url: loud), AVURLAsset(url: quiet)]
        let first = try #require(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: 1))
        let second = try #require(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: 2))
        try withExtendedLifetime(sources) {
            try first.insertTimeRange(range, of: try #require(sources[0].tracks(withMediaType: .audio).first), at: .zero)
            try second.insertTimeRange(range, of: try #require(sources[1].tracks(withMediaType: .audio).first), at: .zero)
        }
        let halved = AVMutableAudioMixInputParameters(track: first)
        halved.setVolume(0.5, at: .zero)
        let rising = AVMutableAudioMixInputParameters(track: second)
        rising.setVolumeRamp(fromStartVolume: 0, toEndVolume: 1, timeRange: range)
        let mix = AVMutableAudioMix()
        mix.inputParameters = [halved, rising]
        let tracks: [AVMutableCompositionTrack] = composition.tracks(withMediaType: .audio)
        let (samples, _) = try Self.mixedSamples(composition, tracks: tracks, mix: mix)
        #expect(samples.count == 48_000)
        for seconds in [0.0, 0.25, 0.5, 0.75] {
            let expected = Float(0.25 * 0.5 + 0.125 * seconds)
            #expect(abs(samples[Int(seconds * 48_000)] - expected) < 1e-4, "at \(seconds) s")
        }
    }

    @Test func exportAppliesTheRampToTheEncodedAudio() async throws {
        // A 1 kHz sine at amplitude 0.5 for 2 s; the mix fades it from 1 to 0 over 0.5 ... 1.5 s.
        let source = try Self.wav(seconds: 2) { n in Int16((0.5 * sin(2 * Double.pi * 1000 * Double(n) / 48_000) * 32767).rounded()) }
        let output = AssetWriterFixture.temporaryURL("m4a")
        defer { for url in [source, output] { try? FileManager.default.removeItem(at: url) } }
        let asset = AVURLAsset(url: source)
        let track = try #require(asset.tracks(withMediaType: .audio).first)
        let fade = AVMutableAudioMixInputParameters(track: track)
        fade.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1)))
        let mix = AVMutableAudioMix()
        mix.inputParameters = [fade]
        let session = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetAppleM4A))
        session.audioMix = mix
        await AssetExportFixture.export(session, to: output, as: .m4a)
        #expect(session.status == .completed, "\(String(describing: session.error))")

        // Read the AAC back as float and measure the level in 40 ms windows.
        let exported = AVURLAsset(url: output)
        let reader = try AVAssetReader(asset: exported)
        let readBack = AVAssetReaderTrackOutput(
            track: try #require(exported.tracks(withMediaType: .audio).first),
            outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMIsFloatKey: true, AVLinearPCMBitDepthKey: 32])
        reader.add(readBack)
        try #require(reader.startReading())
        var timed: [(Double, Float)] = []
        while let buffer = readBack.copyNextSampleBuffer() {
            let start = buffer.presentationTimeStamp.seconds
            let block = try #require(CMSampleBufferGetDataBuffer(buffer))
            var bytes = [UInt8](repeating: 0, count: CMBlockBufferGetDataLength(block))
            CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: bytes.count, destination: &bytes)
            let floats = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            for (index, value) in floats.enumerated() { timed.append((start + Double(index) / 48_000, value)) }
        }
        func level(at seconds: Double) -> Double {
            let window = timed.filter { abs($0.0 - seconds) < 0.02 }.map { Double($0.1) }
            return (window.map { $0 * $0 }.reduce(0, +) / Double(max(window.count, 1))).squareRoot()
        }
        let full = 0.5 / 2.0.squareRoot()
        for (seconds, gain) in [(0.25, 1.0), (0.75, 0.75), (1.0, 0.5), (1.25, 0.25), (1.75, 0.0)] {
            #expect(abs(level(at: seconds) - full * gain) < 0.02, "level at \(seconds) s: \(level(at: seconds)), expected \(full * gain)")
        }
    }

    @Test func volumeRampsFollowAppleRules() {
        let parameters = AVMutableAudioMixInputParameters()
        #expect(parameters.trackID == kCMPersistentTrackID_Invalid)
        parameters.setVolume(1, at: .zero)
        let ramp = CMTimeRange(start: CMTime(value: 4, timescale: 1), duration: CMTime(value: 5, timescale: 1))
        parameters.setVolumeRamp(fromStartVolume: 0.5, toEndVolume: 0.2, timeRange: ramp)
        var start: Float = 0
        var end: Float = 0
        var range = CMTimeRange.invalid
        #expect(parameters.getVolumeRamp(for: CMTime(value: 6, timescale: 1), startVolume: &start, endVolume: &end, timeRange: &range))
        #expect(start == 0.5 && end == 0.2 && range == ramp)
        // Between the set volume and the ramp: the first ramp starting after the time.
        #expect(parameters.getVolumeRamp(for: CMTime(value: 2, timescale: 1), startVolume: &start, endVolume: nil, timeRange: &range))
        #expect(start == 0.5 && range == ramp)
        #expect(!parameters.getVolumeRamp(for: CMTime(value: 10, timescale: 1), startVolume: nil, endVolume: nil, timeRange: nil))
        let curve = parameters.curve
        #expect(curve.volume(at: 2) == 1 && abs(curve.volume(at: 6.5) - 0.35) < 1e-6 && curve.volume(at: 20) == 0.2)
    }
}
