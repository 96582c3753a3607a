import Foundation
import Testing
import TestSupport
@testable import CaptureCore
@testable import MediaIO

/// The writer's audio track: AAC next to video, fragmented, placed by sample count.
@Suite("Movie writer audio")
struct MovieWriterAudioTests {
    /// `count` 16-bit mono samples of a 440 Hz tone.
    static func tone(_ count: Int) -> [Int16] {
        (0..<count).map { Int16((sin(2 * Double.pi * 440 * Double($0) / 48_000) * 6000).rounded()) }
    }

    static func probe(_ url: URL) throws -> [[String: Any]] {
        try FFprobe.streams(url.path, ["-show_streams"])
    }

    @Test("fragmented MP4 with H.264 and AAC: both tracks start at 0, a gap in the audio becomes silence")
    func fragmentedAudioAndVideo() throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        var configuration = MovieWriterConfiguration(
            video: MovieVideoSettings(width: 352, height: 288, frameRate: 30),
            audio: MovieAudioSettings(codec: .aac(bitRate: 64_000), sampleRate: 48_000, channels: 1))
        configuration.fragmentInterval = 0.5
        let writer = try MovieWriter(url: url, configuration: configuration)
        let origin = CMTime(value: 100, timescale: 1)
        writer.startSession(at: origin)
        let layout = PCMLayout(sample: .int16, channels: 1, sampleRate: 48_000)
        let samples = Self.tone(48_000)
        // Audio in 1024-sample buffers with the middle 0.1 s missing (lost buffers).
        var first = 0
        while first < 48_000 {
            let count = min(1024, 48_000 - first)
            if !(19_200..<24_000).contains(first) {
                try samples[first..<first + count].withUnsafeBytes { raw in
                    try writer.appendAudio(raw, frames: count, layout: layout, presentationTime: origin + CMTime(value: Int64(first), timescale: 48_000))
                }
            }
            first += count
        }
        let frame = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 352, height: 288)
        for index in 0..<30 { try writer.append(frame, presentationTime: origin + CMTime(value: Int64(index), timescale: 30)) }
        #expect(writer.audioSamplesWritten == 48_000, "the gap was filled")
        try writer.finish()
        #expect(writer.fragmentsWritten == 2)
        let streams = try Self.probe(url)
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        #expect(audio["codec_name"] as? String == "aac")
        let videoStart = Double(video["start_time"] as? String ?? "") ?? -1
        let audioStart = Double(audio["start_time"] as? String ?? "") ?? -1
        #expect(videoStart == 0)
        #expect(abs(audioStart) < 0.001, "audio starts with the video, its priming at 0")
        #expect(abs((Double(audio["duration"] as? String ?? "") ?? 0) - 1) < 0.03)
    }

    /// The order the tracks' first packets reach the muxer: it must not move either track.
    enum FirstTrack: String, CaseIterable, CustomTestStringConvertible {
        case audio, video
        var testDescription: String { "\(rawValue) first" }
    }

    /// The CI failure of the movie output's flash-and-clap test, made deterministic: with video
    /// packets muxed before the first audio packet, the sound came out one AAC frame (21 ms) late.
    @Test(
        "fragmented or not, a tone that starts at 0.5 s decodes at 0.5 s whichever track reaches the muxer first",
        arguments: FirstTrack.allCases, [0.0, 0.5])
    func soundStaysInPlace(first: FirstTrack, fragmentInterval: Double) throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        var configuration = MovieWriterConfiguration(
            video: MovieVideoSettings(width: 192, height: 144, frameRate: 30),
            audio: MovieAudioSettings(codec: .aac(bitRate: 64_000), sampleRate: 48_000, channels: 1))
        configuration.fragmentInterval = fragmentInterval
        let writer = try MovieWriter(url: url, configuration: configuration)
        let origin = CMTime(value: 7, timescale: 1)
        writer.startSession(at: origin)
        // Silence, then a 1 kHz tone from sample 24 000 (0.5 s) on.
        let samples = (0..<48_000).map { $0 < 24_000 ? Int16(0) : Int16((sin(2 * Double.pi * 1000 * Double($0) / 48_000) * 16_000).rounded()) }
        let appendVideo = { () throws in
            let frame = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 192, height: 144)
            for index in 0..<30 { try writer.append(frame, presentationTime: origin + CMTime(value: Int64(index), timescale: 30)) }
        }
        if first == .video { try appendVideo() }
        try samples.withUnsafeBytes { raw in
            try writer.appendAudio(raw, frames: 48_000, layout: PCMLayout(sample: .int16, channels: 1, sampleRate: 48_000), presentationTime: origin)
        }
        if first == .audio { try appendVideo() }
        try writer.finish()

        let streams = try Self.probe(url)
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        let audioStart = try #require(Double(audio["start_time"] as? String ?? ""))
        let frames = try FFprobe.text(url.path, ["-select_streams", "v", "-show_entries", "packet=pts_time", "-of", "csv=p=0"])
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(frames.count == 30 && frames.first == 0, "video frames at \(frames.prefix(3))")
        if let second = frames.dropFirst().first { #expect(abs(second - 1.0 / 30) < 0.001, "the second frame at \(second) s") }
        // ffmpeg decodes the sound from the track's start; the tone's onset is where it sits in the file.
        let decoded = try ChildProcess.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-i", url.path, "-map", "0:a", "-f", "f32le", "-"]).stdoutData
        let pcm = decoded.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let onset = try #require(pcm.firstIndex { abs($0) > 0.25 })
        let onsetTime = audioStart + Double(onset) / 48_000
        #expect(abs(onsetTime - 0.5) < 0.002, "the tone starts at \(onsetTime) s (track start \(audioStart) s)")
    }

    @Test("M4A: AAC only, stereo float input")
    func m4a() throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        var configuration = MovieWriterConfiguration(audio: MovieAudioSettings(codec: .aac(bitRate: 96_000), sampleRate: 44_100, channels: 2))
        configuration.container = .m4a
        let writer = try MovieWriter(url: url, configuration: configuration)
        let floats = (0..<(2 * 22_050)).map { Float(sin(Double($0 / 2) / 10)) * 0.3 }
        try floats.withUnsafeBytes { raw in
            try writer.appendAudio(raw, frames: 22_050, layout: PCMLayout(sample: .float32, channels: 2, sampleRate: 44_100), presentationTime: .zero)
        }
        #expect(throws: MovieWriterError.self) {
            try floats.withUnsafeBytes { raw in
                try writer.appendAudio(raw, frames: 100, layout: PCMLayout(sample: .float32, channels: 2, sampleRate: 48_000), presentationTime: .zero)
            }
        }
        try writer.finish()
        let streams = try Self.probe(url)
        #expect(streams.count == 1)
        #expect(streams.first?["codec_name"] as? String == "aac" && streams.first?["channels"] as? Int == 2)
        #expect(abs((Double(streams.first?["duration"] as? String ?? "") ?? 0) - 0.5) < 0.03)
    }
}
