import Foundation
import Testing
import TestSupport
@testable import CaptureCore
@testable import MediaIO

/// Timed-metadata tracks: written as FFmpeg data streams, rewritten into boxed metadata
/// ('mebx' with its key table), read back by ffprobe and exiftool.
@Suite("Movie writer timed metadata")
struct MovieWriterMetadataTrackTests {
    static let keys = [
        BoxedMetadataKey(namespace: BoxCoding.fourCC("mdta"), value: Data("com.apple.quicktime.video-orientation".utf8), wellKnownType: 66),
        BoxedMetadataKey(namespace: BoxCoding.fourCC("mdta"), value: Data("com.example.note".utf8), wellKnownType: 1),
    ]

    /// Records 60 frames (2 s, the fixture's frames from 5 s on its clock) and three metadata
    /// samples at 0, 0.5 and 1.2 s into the movie (the last one empty).
    static func record(fragmentInterval: Double, container: MovieContainer = .mpeg4, fastStart: Bool = false) throws -> URL {
        let url = MovieFixture.temporaryURL()
        var configuration = MovieWriterConfiguration(video: MovieVideoSettings(width: 320, height: 240, frameRate: 30))
        configuration.container = container
        configuration.fragmentInterval = fragmentInterval
        configuration.fastStart = fastStart
        configuration.metadataTracks = [MovieMetadataTrackSettings(keys: keys, describesVideo: true)]
        let writer = try MovieWriter(url: url, configuration: configuration)
        let orientation = { (value: Int16) in withUnsafeBytes(of: value.bigEndian) { Data($0) } }
        try writer.appendMetadata(
            MovieMetadataTrackSettings.sample([(1, orientation(6)), (2, Data("hello".utf8))]), track: 0, presentationTime: CMTime(value: 5, timescale: 1))
        try MovieFixture.record(writer, frames: 15, format: .yuv420BiPlanarVideoRange, width: 320, height: 240)
        try writer.appendMetadata(
            MovieMetadataTrackSettings.sample([(1, orientation(1))]), track: 0, presentationTime: CMTime(value: 11, timescale: 2))
        #expect(throws: MovieWriterError.invalidTimestamp) {
            try writer.appendMetadata(Data(), track: 0, presentationTime: CMTime(value: 21, timescale: 4))
        }
        try writer.appendMetadata(Data(), track: 0, presentationTime: CMTime(value: 62, timescale: 10))
        try MovieFixture.record(writer, frames: 45, from: 15, format: .yuv420BiPlanarVideoRange, width: 320, height: 240)
        try writer.finish()
        return url
    }

    static func dataStream(_ url: URL) throws -> [String: Any] {
        let streams = try FFprobe.streams(url.path, ["-show_streams"])
        return try #require(streams.first { $0["codec_type"] as? String == "data" })
    }

    /// The data track's packets (stream 1). All packets are listed and filtered: ffprobe
    /// 5.1 selects none of a fragmented file's data stream with `-select_streams d:0`.
    static func packets(_ url: URL) -> [(time: Double, duration: Double?, size: Int)] {
        let csv = (try? FFprobe.text(url.path, ["-show_entries", "packet=stream_index,pts_time,duration_time,size", "-of", "csv=p=0"])) ?? ""
        return csv.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 4, fields[0] == "1", let time = Double(fields[1]), let size = Int(fields[3]) else { return nil }
            // Fragmented files: ffprobe 5.1 gives the data packets no duration ("N/A").
            return (time, Double(fields[2]), size)
        }
    }

    @Test("ffprobe sees a data track: handler meta ('Core Media Metadata'), codec tag mebx, three samples at their times",
        arguments: [(10.0, MovieContainer.mpeg4, false), (0, .mpeg4, false), (0, .quickTime, false), (0, .mpeg4, true), (0.5, .quickTime, false)])
    func ffprobeSeesTrack(fragmentInterval: Double, container: MovieContainer, fastStart: Bool) throws {
        let url = try Self.record(fragmentInterval: fragmentInterval, container: container, fastStart: fastStart)
        defer { try? FileManager.default.removeItem(at: url) }
        let stream = try Self.dataStream(url)
        #expect(stream["codec_tag_string"] as? String == "mebx")
        let tags = stream["tags"] as? [String: Any]
        #expect(tags?["handler_name"] as? String == "Core Media Metadata")
        let packets = Self.packets(url)
        #expect(packets.map(\.time) == [0, 0.5, 1.2])
        if fragmentInterval == 0 {
            #expect(packets.map(\.duration) == [0.5, 0.7, 0.8], "each lasts until the next; the last until the movie's end")
        }
        #expect(packets.map(\.size) == [10 + 13, 10, 8])
        // The video still decodes whole (offsets moved with the moov under fast start).
        let probe = try MovieProbe(url)
        #expect(probe.frames == 60 && probe.codec == "h264")
    }

    @Test("exiftool reads the keys and each sample's values from the 'mebx' track")
    func exiftoolReadsSamples() throws {
        let url = try Self.record(fragmentInterval: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        let text = try ChildProcess.run(ExifTool.path, ["-ee", "-G3", "-a", "-u", url.path], stderr: .discard).stdout
        #expect(text.contains("Hello") || text.contains("hello"), "\(text)")
        let lines = text.split(separator: "\n").filter { $0.lowercased().contains("orientation") || $0.lowercased().contains("note") }
        #expect(lines.count >= 3, "\(lines)")
    }

    @Test("the track refers to the video ('tref' 'cdsc' 1) and has a null media header")
    func boxes() throws {
        let url = try Self.record(fragmentInterval: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try Data(contentsOf: url)
        let moov = try #require(BoxCoding.children(file).first { $0.type == BoxCoding.fourCC("moov") }?.payload)
        let traks = BoxCoding.children(moov).filter { $0.type == BoxCoding.fourCC("trak") }
        #expect(traks.count == 2)
        let trak = try #require(traks.last?.payload)
        let tref = try #require(BoxCoding.children(trak).first { $0.type == BoxCoding.fourCC("tref") }?.payload)
        #expect(tref == BoxCoding.box("cdsc", BoxCoding.uint32(1)))
        let mdia = try #require(BoxCoding.children(trak).first { $0.type == BoxCoding.fourCC("mdia") }?.payload)
        let minf = try #require(BoxCoding.children(mdia).first { $0.type == BoxCoding.fourCC("minf") }?.payload)
        #expect(BoxCoding.children(minf).map(\.type).contains(BoxCoding.fourCC("nmhd")))
        #expect(!BoxCoding.children(minf).map(\.type).contains(BoxCoding.fourCC("gmhd")))
        let sample = MovieMetadataTrackSettings(keys: Self.keys, describesVideo: true).sampleEntry
        #expect(file.range(of: sample) != nil, "the 'mebx' entry with its key table")
    }
}
