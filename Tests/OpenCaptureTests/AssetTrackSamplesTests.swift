import Foundation
import Testing

@testable import OpenCapture

/// The iOS 16-deprecated track accessors of the deprecation walk (#30) on files ffmpeg
/// made: segments, sample presentation times, sample data length, audio dependencies,
/// language tags and track references, sync and loaded alike.
@Suite("Asset track segments, samples and associations")
struct AssetTrackSamplesTests {
    /// The packet sizes of one stream, as ffprobe reads them.
    private static func probedPacketBytes(_ url: URL, stream: String) throws -> Int64 {
        let output = try AssetWriterFixture.run(
            "/usr/bin/ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "packet=size", "-of", "csv=p=0", url.path])
        let text = String(decoding: output, as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            // "size," and side-data lines: the first field of each packet line.
            line.split(separator: ",").first.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        }.reduce(0, +)
    }

    @Test("a plain file's track has one segment mapping its time range onto itself")
    func segments() async throws {
        let url = try AssetReaderFixture.video("mp4", frames: 10, ["-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let segments = track.segments
        try #require(segments.count == 1)
        #expect(!segments[0].isEmpty)
        #expect(segments[0].timeMapping.source == track.timeRange && segments[0].timeMapping.target == track.timeRange)
        #expect(abs(track.timeRange.duration.seconds - 1) < 0.001)
        #expect(try await track.load(.segments).count == 1)
        #expect(track.segment(forTrackTime: CMTime(value: 1, timescale: 2))?.timeMapping == segments[0].timeMapping)
        #expect(track.segment(forTrackTime: CMTime(value: 100, timescale: 1))?.timeMapping == segments[0].timeMapping, "past the end: the closest segment")
        #expect(try await track.loadSegment(forTrackTime: .zero)?.timeMapping == segments[0].timeMapping)
        #expect(track.segment(forTrackTime: .invalid) == nil)
    }

    @Test("a composition track seen as an AVAssetTrack answers its composition segments")
    func compositionSegments() throws {
        let url = try AssetReaderFixture.video("mp4", frames: 10, ["-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let source = try #require(asset.tracks(withMediaType: .video).first)
        let composition = AVMutableComposition()
        let track = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        let half = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 2))
        try track.insertTimeRange(half, of: source, at: .zero)
        try track.insertTimeRange(half, of: source, at: .invalid)
        let base: AVAssetTrack = track
        let refined: [AVCompositionTrackSegment] = track.segments
        #expect(refined.count == 2)
        #expect(base.segments.count == 2)
        #expect(base.segments.map(\.timeMapping) == refined.map(\.timeMapping))
        #expect(base.segment(forTrackTime: CMTime(value: 3, timescale: 4)) === refined[1])
    }

    @Test("samplePresentationTime: the frame shown at a time, invalid outside the track")
    func presentationTimes() async throws {
        let url = try AssetReaderFixture.video("mp4", frames: 10, ["-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: url) }
        let track = try #require(AVURLAsset(url: url).tracks(withMediaType: .video).first)
        // The track reads its file without its asset (released here). 10 frames/s: the frame at 0.2 s is shown until 0.3 s.
        #expect(abs(track.samplePresentationTime(forTrackTime: CMTime(value: 25, timescale: 100)).seconds - 0.2) < 1e-6)
        #expect(abs(track.samplePresentationTime(forTrackTime: CMTime(value: 3, timescale: 10)).seconds - 0.3) < 1e-6)
        #expect(abs(try await track.loadSamplePresentationTime(forTrackTime: CMTime(value: 99, timescale: 100)).seconds - 0.9) < 1e-6)
        #expect(track.samplePresentationTime(forTrackTime: CMTime(value: 2, timescale: 1)) == .invalid)
        #expect(track.samplePresentationTime(forTrackTime: CMTime(value: -1, timescale: 10)) == .invalid)
    }

    @Test("totalSampleDataLength is the sum of the packet sizes ffprobe reads; AAC has no sample dependencies")
    func sampleDataLength() async throws {
        let url = try AssetReaderFixture.ffmpeg(
            "mp4", input: ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=1"],
            ["-frames:v", "10", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let video = try #require(asset.tracks(withMediaType: .video).first)
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        let videoBytes = try Self.probedPacketBytes(url, stream: "v:0")
        let audioBytes = try Self.probedPacketBytes(url, stream: "a:0")
        #expect(videoBytes > 0 && audioBytes > 0)
        #expect(video.totalSampleDataLength == videoBytes)
        #expect(try await video.load(.totalSampleDataLength) == videoBytes)
        #expect(audio.totalSampleDataLength == audioBytes)
        #expect(!audio.hasAudioSampleDependencies, "every AAC packet is a sync sample")
        #expect(try await audio.load(.hasAudioSampleDependencies) == false)
        #expect(!video.hasAudioSampleDependencies, "not an audio track")
    }

    @Test("track references: the chapter reference ffmpeg writes; none on a file without any; no 'elng' tag")
    func associations() async throws {
        let chapters = FileManager.default.temporaryDirectory.appendingPathComponent("chapters-\(UUID().uuidString).txt")
        try ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=500\ntitle=First\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=500\nEND=1000\ntitle=Second\n"
            .write(to: chapters, atomically: true, encoding: .utf8)
        let url = try AssetReaderFixture.ffmpeg(
            "mp4", input: ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-i", chapters.path],
            ["-map", "0", "-map_chapters", "1", "-frames:v", "10", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let plain = try AssetReaderFixture.video("mp4", frames: 3, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        defer {
            try? FileManager.default.removeItem(at: chapters)
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: plain)
        }
        let asset = AVURLAsset(url: url)
        let video = try #require(asset.tracks(withMediaType: .video).first)
        #expect(video.availableTrackAssociationTypes == [.chapterList])
        #expect(try await video.load(.availableTrackAssociationTypes) == [.chapterList])
        let chapterTracks = video.associatedTracks(ofType: .chapterList)
        #expect(chapterTracks.count == 1 && chapterTracks.first?.trackID != video.trackID)
        #expect(chapterTracks.first?.mediaType != .video)
        #expect(try await video.loadAssociatedTracks(ofType: .chapterList).map(\.trackID) == chapterTracks.map(\.trackID))
        #expect(video.associatedTracks(ofType: .timecode).isEmpty)
        #expect(video.extendedLanguageTag == nil, "ffmpeg writes no 'elng' box")
        #expect(try await video.load(.extendedLanguageTag) == nil)
        let plainAsset = AVURLAsset(url: plain)
        let plainTrack = try #require(plainAsset.tracks.first)
        #expect(plainTrack.availableTrackAssociationTypes.isEmpty)
        #expect(plainTrack.associatedTracks(ofType: .chapterList).isEmpty)
    }
}
