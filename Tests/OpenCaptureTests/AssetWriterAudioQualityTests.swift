import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// AVAudioSettings.h's encoder quality keys on the asset writer's AAC: the quality picks
/// FFmpeg's coder, and variable bit rate at a quality sizes the track by that quality.
@Suite("Asset writer AAC quality")
struct AssetWriterAudioQualityTests {
    typealias Fixture = AssetWriterFixture

    /// Two seconds of three tones over seeded noise, mono 16-bit at 48 kHz.
    static let signal: [Int16] = {
        var state: UInt32 = 12345
        return (0..<96_000).map { index in
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = Double(Int32(bitPattern: state) >> 16) / 32768 * 2500
            let t = Double(index) / 48_000
            let tones = 4000 * sin(2 * .pi * 440 * t) + 2500 * sin(2 * .pi * 2750 * t) + 1500 * sin(2 * .pi * 9100 * t)
            return Int16((tones + noise).rounded())
        }
    }()

    /// Writes the signal as AAC in an M4A with `settings` added to mono 48 kHz; returns the
    /// file's audio bit rate as ffprobe reads it, and an MD5 of its AAC packets (not of the
    /// file, whose header holds the time it was written).
    static func write(_ extra: [String: Any]) async throws -> (bitRate: Double, packets: String) {
        let url = Fixture.temporaryURL("m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .m4a)
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1]
        let input = AVAssetWriterInput(mediaType: .audio, outputSettings: settings.merging(extra) { $1 })
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for start in stride(from: 0, to: signal.count, by: 4800) {
            try await input.waitUntilReady()
            input.append(Fixture.audioSample(Array(signal[start..<start + 4800]), at: CMTime(value: Int64(start), timescale: 48_000)))
        }
        await writer.finishWriting()
        try #require(writer.status == .completed, "\(String(describing: writer.error))")
        let audio = try #require(Fixture.stream(try Fixture.probe(url), "audio"))
        #expect(audio["codec_name"] as? String == "aac")
        let digest = try Fixture.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-i", url.path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
        return (Fixture.number(audio["bit_rate"]) ?? 0, String(decoding: digest, as: UTF8.self))
    }

    @Test("variable bit rate at a quality: the track's rate follows AVEncoderAudioQualityForVBRKey")
    func variableBitRate() async throws {
        let low = try await Self.write([
            AVEncoderBitRateStrategyKey: AVAudioBitRateStrategy_Variable, AVEncoderAudioQualityForVBRKey: AVAudioQuality.min.rawValue,
        ])
        let high = try await Self.write([
            AVEncoderBitRateStrategyKey: AVAudioBitRateStrategy_Variable, AVEncoderAudioQualityForVBRKey: AVAudioQuality.max.rawValue,
        ])
        #expect(high.bitRate > 2 * low.bitRate, "VBR .min \(low.bitRate) b/s, .max \(high.bitRate) b/s")
        // A bit rate given wins over the VBR quality, as an average rate.
        let average = try await Self.write([
            AVEncoderBitRateStrategyKey: AVAudioBitRateStrategy_Variable, AVEncoderAudioQualityForVBRKey: AVAudioQuality.max.rawValue,
            AVEncoderBitRateKey: 64_000,
        ])
        #expect(abs(average.bitRate - 64_000) < 8_000, "\(average.bitRate) b/s")
    }

    @Test("AVEncoderAudioQualityKey .min takes FFmpeg's fast coder: another bitstream than .max at the same rate")
    func encoderQuality() async throws {
        let fast = try await Self.write([AVEncoderAudioQualityKey: AVAudioQuality.min.rawValue, AVEncoderBitRateKey: 64_000])
        let searched = try await Self.write([AVEncoderAudioQualityKey: AVAudioQuality.max.rawValue, AVEncoderBitRateKey: 64_000])
        let again = try await Self.write([AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue, AVEncoderBitRateKey: 64_000])
        #expect(fast.packets.hasPrefix("MD5=") && fast.packets != searched.packets)
        #expect(again.packets == searched.packets, "the default coder for .medium and above; encoding is deterministic")
        #expect(AVAudioQuality(rawValue: 0x40) == .medium && AVAudioQuality.max.rawValue == 127)
    }
}
