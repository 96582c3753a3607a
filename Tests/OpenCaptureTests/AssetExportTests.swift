import Foundation
import Testing

@testable import OpenCapture

private typealias Fixture = AssetWriterFixture
private typealias Clips = AssetExportFixture

/// Compositions of clips and their export: passthrough joins without re-encoding, presets
/// that re-encode, failures with Apple's error codes, cancellation.
@Suite("Asset export and composition")
struct AssetExportTests {
    @Test("passthrough joins three AVAssetWriter clips packet for packet: summed frames and duration, the sources' packet bytes")
    func passthroughJoinsClips() async throws {
        let clips = [try await Clips.clip(), try await Clips.clip(), try await Clips.clip()]
        let output = Fixture.temporaryURL("mp4")
        defer { for url in clips + [output] { try? FileManager.default.removeItem(at: url) } }
        let composition = try Clips.joined(clips)
        #expect(composition.tracks.count == 2)
        let video = try #require(composition.tracks(withMediaType: .video).first)
        #expect(video.segments.count == 3)
        // Two steps: `segments` has the base AVAssetTrack overload too (#30), which makes the one-expression form too costly to type-check.
        let starts = video.segments.map(\.timeMapping.target.start.seconds)
        #expect(starts.map { ($0 * 10).rounded() / 10 } == [0, 0.5, 1])
        #expect(abs(composition.duration.seconds - 1.5) < 0.05)
        #expect(video.naturalSize == CGSize(width: 320, height: 240))

        let session = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetPassthrough))
        #expect(session.supportedFileTypes.contains(.mp4))
        await Clips.export(session, to: output, as: .mp4)
        #expect(session.status == .completed, "\(String(describing: session.error))")
        #expect(session.progress == 1)

        let probe = try Fixture.probe(output)
        let v = try #require(Fixture.stream(probe, "video"))
        #expect(v["codec_name"] as? String == "h264" && v["width"] as? Int == 320 && v["height"] as? Int == 240)
        #expect(v["nb_read_frames"] as? String == "45")
        #expect(abs((Fixture.number(v["duration"]) ?? 0) - 1.5) < 0.04)
        let a = try #require(Fixture.stream(probe, "audio"))
        #expect(a["codec_name"] as? String == "aac")
        #expect(abs((Fixture.number(a["duration"]) ?? 0) - 1.5) < 0.06)
        // Not re-encoded: the output's packets are the sources' packets, byte for byte.
        let sources = try clips.flatMap { try Clips.packetHashes($0, "v") }
        #expect(sources.count == 45)
        #expect(try Clips.packetHashes(output, "v") == sources)
        // AAC's priming packet (before time 0) is kept for the first clip only: in the later
        // ones it would overlap the clip before.
        let audioSources = try clips.enumerated().flatMap { index, clip in try Clips.packetHashes(clip, "a").dropFirst(index == 0 ? 0 : 1) }
        let audioOutput = try Clips.packetHashes(output, "a")
        #expect(audioOutput == audioSources, "\(audioOutput.count) packets, \(audioSources.count) in the clips; first differing at \(String(describing: zip(audioOutput, audioSources).enumerated().first { $0.element.0 != $0.element.1 }?.offset))")
    }

    @Test("an ffmpeg clip joins our clips: passthrough when the decoder configuration matches, else the H.264 preset re-encodes them into one file")
    func ffmpegClipJoins() async throws {
        let ours = [try await Clips.clip(), try await Clips.clip(), try await Clips.clip()]
        let theirs = try AssetReaderFixture.ffmpeg(
            "mp4", input: ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000"],
            ["-frames:v", "15", "-t", "0.5", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "1", "-b:a", "64k"])
        let passthrough = Fixture.temporaryURL("mp4"), encoded = Fixture.temporaryURL("mp4")
        defer { for url in ours + [theirs, passthrough, encoded] { try? FileManager.default.removeItem(at: url) } }
        let composition = try Clips.joined(ours + [theirs])
        #expect(abs(composition.duration.seconds - 2) < 0.06)

        // The H.264 preset: the sources' decoder configurations differ, so it re-encodes.
        let session = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality))
        await Clips.export(session, to: encoded, as: .mp4)
        #expect(session.status == .completed, "\(String(describing: session.error))")
        let probe = try Fixture.probe(encoded)
        let v = try #require(Fixture.stream(probe, "video"))
        #expect(v["codec_name"] as? String == "h264" && v["width"] as? Int == 320)
        #expect(v["nb_read_frames"] as? String == "60")
        #expect(abs((Fixture.number(v["duration"]) ?? 0) - 2) < 0.05)
        #expect(Fixture.stream(probe, "audio")?["codec_name"] as? String == "aac")

        // Passthrough cannot put two decoder configurations in one track: Apple's
        // "operation not supported" error rather than a file that does not play.
        let copy = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetPassthrough))
        await Clips.export(copy, to: passthrough, as: .mp4)
        #expect(copy.status == .failed)
        #expect(Clips.code(copy.error) == AVError.Code.operationNotSupportedForAsset.rawValue)
        #expect(!FileManager.default.fileExists(atPath: passthrough.path))
    }

    @Test("the 1280x720 preset scales a 1080p clip down and re-encodes it; a 640x360 H.264 clip is copied unchanged")
    func sizePreset() async throws {
        let large = try AssetReaderFixture.ffmpeg(
            "mov", input: ["-f", "lavfi", "-i", "testsrc=size=1920x1080:rate=30"], ["-frames:v", "10", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let small = try AssetReaderFixture.ffmpeg(
            "mp4", input: ["-f", "lavfi", "-i", "testsrc=size=640x360:rate=30"], ["-frames:v", "10", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let scaled = Fixture.temporaryURL("mp4"), copied = Fixture.temporaryURL("mov")
        defer { for url in [large, small, scaled, copied] { try? FileManager.default.removeItem(at: url) } }

        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: large), presetName: AVAssetExportPreset1280x720))
        await Clips.export(session, to: scaled, as: .mp4)
        #expect(session.status == .completed, "\(String(describing: session.error))")
        let v = try #require(Fixture.stream(try Fixture.probe(scaled), "video"))
        #expect(v["codec_name"] as? String == "h264" && v["width"] as? Int == 1280 && v["height"] as? Int == 720)
        #expect(v["nb_read_frames"] as? String == "10")

        let same = try #require(AVAssetExportSession(asset: AVURLAsset(url: small), presetName: AVAssetExportPreset1280x720))
        #expect(same.supportedFileTypes == [.mov, .mp4, .m4v])
        await Clips.export(same, to: copied, as: .mov)
        #expect(same.status == .completed, "\(String(describing: same.error))")
        #expect(try Clips.packetHashes(copied, "v") == Clips.packetHashes(small, "v"), "not scaled up, so not re-encoded")
    }

    @Test("AppleM4A writes the audio of a clip into an M4A file (AAC copied)")
    func appleM4A() async throws {
        let clip = try await Clips.clip()
        let output = Fixture.temporaryURL("m4a")
        defer { for url in [clip, output] { try? FileManager.default.removeItem(at: url) } }
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: clip), presetName: AVAssetExportPresetAppleM4A))
        #expect(session.supportedFileTypes == [.m4a])
        await Clips.export(session, to: output, as: .m4a)
        #expect(session.status == .completed, "\(String(describing: session.error))")
        let probe = try Fixture.probe(output)
        #expect(Fixture.stream(probe, "video") == nil)
        #expect(Fixture.stream(probe, "audio")?["codec_name"] as? String == "aac")
        #expect(try Clips.packetHashes(output, "a") == Clips.packetHashes(clip, "a"))
    }

    @Test("a missing file, an incompatible preset and an existing output fail with .failed and Apple's error codes")
    func failures() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("oc-missing-\(UUID().uuidString).mov")
        let output = Fixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        let none = try #require(AVAssetExportSession(asset: AVURLAsset(url: missing), presetName: AVAssetExportPresetPassthrough))
        await Clips.export(none, to: output, as: .mp4)
        #expect(none.status == .failed)
        #expect(Clips.code(none.error) == AVError.Code.fileFailedToParse.rawValue)
        #expect(!FileManager.default.fileExists(atPath: output.path))

        let silent = try AssetReaderFixture.video("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: silent) }
        let asset = AVURLAsset(url: silent)
        #expect(!AVAssetExportSession.exportPresets(compatibleWith: asset).contains(AVAssetExportPresetAppleM4A))
        #expect(AVAssetExportSession.exportPresets(compatibleWith: asset).contains(AVAssetExportPreset1280x720))
        #expect(await !AVAssetExportSession.compatibility(ofExportPreset: AVAssetExportPresetAppleM4A, with: asset, outputFileType: .m4a))
        #expect(await AVAssetExportSession.compatibility(ofExportPreset: AVAssetExportPresetPassthrough, with: asset, outputFileType: .mov))
        let audioOnly = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetAppleM4A))
        let m4a = Fixture.temporaryURL("m4a")
        await Clips.export(audioOnly, to: m4a, as: .m4a)
        #expect(audioOnly.status == .failed)
        #expect(Clips.code(audioOnly.error) == AVError.Code.operationNotSupportedForAsset.rawValue)
        #expect(!FileManager.default.fileExists(atPath: m4a.path))

        try Data("keep".utf8).write(to: output)
        let taken = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetPassthrough))
        await Clips.export(taken, to: output, as: .mp4)
        #expect(taken.status == .failed)
        #expect(Clips.code(taken.error) == AVError.Code.fileAlreadyExists.rawValue)
        #expect(try Data(contentsOf: output) == Data("keep".utf8), "the existing file is left alone")

        #expect(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetAppleProRes422LPCM) == nil)
        #expect(AVAssetExportSession(asset: asset, presetName: "NoSuchPreset") == nil)
        #expect(!AVAssetExportSession.allExportPresets().contains(AVAssetExportPresetPassthrough))
    }

    @Test("cancelExport: .cancelled, the completion handler runs, no file is left")
    func cancel() async throws {
        let source = try AssetReaderFixture.ffmpeg(
            "mp4", input: ["-f", "lavfi", "-i", "testsrc=size=1280x720:rate=30"], ["-frames:v", "60", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let output = Fixture.temporaryURL("mp4")
        defer { for url in [source, output] { try? FileManager.default.removeItem(at: url) } }
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPreset640x480))
        session.outputURL = output
        session.outputFileType = .mp4
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            session.exportAsynchronously { continuation.resume() }
            session.cancelExport()
        }
        #expect(session.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("export(to:as:) (iOS 18) exports a time range; it throws the AVError of a failure")
    func asyncExport() async throws {
        let clip = try await Clips.clip(frames: 30)
        let output = Fixture.temporaryURL("mov")
        defer { for url in [clip, output] { try? FileManager.default.removeItem(at: url) } }
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: clip), presetName: AVAssetExportPresetPassthrough))
        // From the keyframe at 10/30 s: passthrough copies from a keyframe.
        session.timeRange = CMTimeRange(start: CMTime(value: 10, timescale: 30), duration: CMTime(value: 10, timescale: 30))
        try await session.export(to: output, as: .mov)
        #expect(session.status == .completed)
        let v = try #require(Fixture.stream(try Fixture.probe(output), "video"))
        #expect(v["nb_read_frames"] as? String == "10")
        #expect(try Clips.packetHashes(output, "v") == Array(Clips.packetHashes(clip, "v")[10..<20]))
        let again = try #require(AVAssetExportSession(asset: AVURLAsset(url: clip), presetName: AVAssetExportPresetPassthrough))
        await #expect(throws: AVError.self) { try await again.export(to: output, as: .mov) }
    }

    @Test("AVAssetReader reads a composition: each segment's frames in order, timed on the composition, audio too")
    func readComposition() async throws {
        let clips = [try await Clips.clip(), try await Clips.clip()]
        defer { for url in clips { try? FileManager.default.removeItem(at: url) } }
        let composition = try Clips.joined(clips)
        let reader = try AVAssetReader(asset: composition)
        let video = try #require(composition.tracks(withMediaType: .video).first)
        let audio = try #require(composition.tracks(withMediaType: .audio).first)
        let pictures = AVAssetReaderTrackOutput(track: video, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        let sound = AVAssetReaderTrackOutput(track: audio, outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16])
        #expect(reader.canAdd(pictures) && reader.canAdd(sound))
        reader.add(pictures)
        reader.add(sound)
        #expect(reader.startReading())
        let frames = AssetReaderFixture.drain(pictures)
        #expect(frames.count == 30)
        let times = frames.map { $0.presentationTimeStamp.seconds }
        #expect(times == times.sorted() && Set(times).count == 30)
        #expect(abs(times[15] - 0.5) < 0.001, "the second clip's first frame at 0.5 s")
        #expect(frames.allSatisfy { CVPixelBufferGetWidth($0.imageBuffer!) == 320 })
        let blocks = AssetReaderFixture.drain(sound)
        let samples = blocks.reduce(0) { $0 + $1.numSamples }
        #expect(abs(Double(samples) / 48_000 - 1) < 0.05, "\(samples) samples")
        #expect(reader.status == .completed)
    }

    @Test("composition editing: empty, removed and scaled ranges keep the segments end to end; IDs; compatible tracks")
    func editing() async throws {
        let clip = try await Clips.clip()
        defer { try? FileManager.default.removeItem(at: clip) }
        let asset = AVURLAsset(url: clip)
        let composition = AVMutableComposition()
        let track = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: 7))
        #expect(track.trackID == 7)
        #expect(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: 7)?.trackID == 8, "a used ID is not given again")
        let source = try #require(asset.tracks(withMediaType: .video).first)
        #expect(composition.mutableTrack(compatibleWith: source) === track)
        let second = CMTime(value: 1, timescale: 1), half = CMTime(value: 1, timescale: 2)
        try track.insertTimeRange(CMTimeRange(start: .zero, duration: half), of: source, at: .zero)
        try track.insertTimeRange(CMTimeRange(start: .zero, duration: half), of: source, at: .invalid)
        #expect(track.segments.count == 2 && track.timeRange.duration == second)
        track.insertEmptyTimeRange(CMTimeRange(start: half, duration: half))
        #expect(track.segments.map(\.isEmpty) == [false, true, false])
        #expect(track.timeRange.duration == CMTime(value: 3, timescale: 2))
        track.removeTimeRange(CMTimeRange(start: CMTime(value: 1, timescale: 4), duration: second))
        #expect(track.segments.count == 2 && track.timeRange.duration == half)
        #expect(track.segments[1].timeMapping.source.start == CMTime(value: 1, timescale: 4), "the second clip now starts a quarter in")
        track.scaleTimeRange(CMTimeRange(start: .zero, duration: half), toDuration: second)
        #expect(abs(track.timeRange.duration.seconds - 1) < 1e-6)
        #expect(abs(track.segments[0].timeMapping.target.duration.seconds - 0.5) < 1e-6, "a quarter second played at half speed")
        #expect(track.segment(forTrackTime: CMTime(value: 3, timescale: 4)) === track.segments[1])
        try track.validateSegments(track.segments)
        let gap = AVCompositionTrackSegment(url: clip, trackID: 1, sourceTimeRange: CMTimeRange(start: .zero, duration: half), targetTimeRange: CMTimeRange(start: half, duration: half))
        #expect(throws: AVError.self) { try track.validateSegments([gap]) }
        #expect(throws: AVError.self) { try track.insertTimeRange(CMTimeRange(start: CMTime(value: 10, timescale: 1), duration: half), of: source, at: .zero) }
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(throws: AVError.self) { try track.insertTimeRange(CMTimeRange(start: .zero, duration: half), of: audio, at: .zero) }
        composition.removeTrack(track)
        #expect(composition.track(withTrackID: 7) == nil)
    }
}
