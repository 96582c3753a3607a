import Foundation
import Testing
import TestSupport
@testable import CaptureCore
@testable import MediaIO

/// Records generated frames and checks the files with FFmpeg's own tools (ffprobe, ffmpeg).
@Suite("Movie writer", .tags(.slow))
struct MovieWriterTests {
    @Test("60 NV12 frames at 30 fps: H.264, 640x480, 60 frames, 2 s from 0, fragmented, index at the end")
    func nv12() throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30)
        try MovieFixture.record(writer, frames: 60, format: .yuv420BiPlanarVideoRange)
        #expect(writer.framesWritten == 60)
        #expect(writer.recordedDuration == CMTime(value: 2, timescale: 1))
        try writer.finish()

        let probe = try MovieProbe(url)
        #expect(probe.codec == "h264")
        #expect(probe.width == 640 && probe.height == 480)
        #expect(probe.frames == 60)
        #expect(probe.averageFrameRate == "30/1")
        #expect(abs(probe.duration - 2) < 0.001)
        #expect(probe.startTime == 0)
        #expect(probe.rotation == nil)
        #expect(probe.colorRange == "tv")
        let boxes = try MovieFixture.topLevelBoxes(url)
        #expect(Array(boxes.prefix(2)) == ["ftyp", "moov"])
        #expect(boxes.contains("moof"))
        #expect(boxes.last == "mfra")
        #expect(writer.recordedFileSize == MovieFixture.fileSize(url))
        #expect(writer.fragmentsWritten == 1)
    }

    /// Frames from a V4L2 camera are BT.601 Y'CbCr: the stream's matrix says so; ours and
    /// BGRA converted by the writer are BT.709.
    @Test(arguments: [(true, "smpte170m"), (false, "bt709")])
    func matrixTag(bt601: Bool, expected: String) throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30, ycbcrBT601: bt601)
        try MovieFixture.record(writer, frames: 10, format: .yuv420BiPlanarVideoRange)
        try writer.finish()
        #expect(try MovieProbe(url).colorSpace == expected)
    }

    /// HEVC through libx265, tagged 'hvc1' as Apple's players require, fragmented alike.
    @Test func hevc() throws {
        try #require(MovieWriter.canEncodeHEVC)
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30, fragmentInterval: 1, hevc: true)
        try MovieFixture.record(writer, frames: 60, format: .yuv420BiPlanarVideoRange)
        try writer.finish()
        let probe = try MovieProbe(url)
        #expect(probe.codec == "hevc" && probe.codecTag == "hvc1")
        #expect(probe.frames == 60 && abs(probe.duration - 2) < 0.001)
        #expect(writer.fragmentsWritten == 2)
        let picture = try MovieFixture.firstFrameLuma(url)
        #expect(picture.corners(inset: 20) == [true, false, false, false])
    }

    @Test("BGRA frames are converted; full range is tagged 'pc'", arguments: [
        (PixelFormat.bgra, false, "tv"), (.bgra, true, "pc"), (.yuv420BiPlanarFullRange, true, "pc"),
        (.yuv420PlanarVideoRange, false, "tv"), (.yuv420BiPlanarFullRange, false, "tv"),
    ])
    func otherFormats(format: PixelFormat, fullRange: Bool, range: String) throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        // A second of video: what is tested is the conversion and the tag, not the length.
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30, fullRange: fullRange)
        try MovieFixture.record(writer, frames: 30, format: format)
        try writer.finish()
        let probe = try MovieProbe(url)
        #expect(probe.codec == "h264" && probe.width == 640 && probe.height == 480)
        #expect(probe.frames == 30)
        #expect(abs(probe.duration - 1) < 0.001)
        #expect(probe.colorRange == range)
        // The white marker survives conversion: decoded, the top-left corner is bright.
        let picture = try MovieFixture.firstFrameLuma(url)
        #expect(picture.width == 640 && picture.height == 480)
        #expect(picture.corners(inset: 20) == [true, false, false, false])
    }

    /// FFmpeg's display-matrix angle is counterclockwise, so a movie that players turn 90
    /// degrees clockwise reads `rotation: -90` in ffprobe; ffmpeg, rotating on decode as
    /// players do, puts the picture's top-left corner at the top right.
    @Test("rotation is the track's display matrix: ffprobe shows the negative angle, players turn clockwise", arguments: [
        (0, nil, [true, false, false, false]),
        (90, -90, [false, true, false, false]),
        (180, 180, [false, false, false, true]),
        (270, 90, [false, false, true, false]),
        (-90, 90, [false, false, true, false]),
    ])
    func rotation(degrees: Int, ffprobeRotation: Int?, corners: [Bool]) throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30, rotationDegrees: degrees)
        try MovieFixture.record(writer, frames: 30, format: .yuv420BiPlanarVideoRange)
        try writer.finish()
        let probe = try MovieProbe(url)
        #expect(probe.width == 640 && probe.height == 480, "the pixels are stored as captured")
        #expect(probe.frames == 30)
        // 180 degrees may come back as either sign.
        #expect(probe.rotation.map { $0 == -180 ? 180 : $0 } == ffprobeRotation)
        let picture = try MovieFixture.firstFrameLuma(url)
        let turned = degrees % 180 != 0
        #expect(picture.width == (turned ? 480 : 640) && picture.height == (turned ? 640 : 480))
        #expect(picture.corners(inset: 20) == corners)
    }

    @Test("one-second fragments: a keyframe and a 'moof' every second")
    func oneSecondFragments() throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30, fragmentInterval: 1)
        try MovieFixture.record(writer, frames: 75, format: .yuv420BiPlanarVideoRange)
        try writer.finish()
        let boxes = try MovieFixture.topLevelBoxes(url)
        #expect(boxes.filter { $0 == "moof" }.count == 3)
        #expect(writer.fragmentsWritten == 3)
        #expect(try MovieFixture.keyframeTimes(url) == [0, 1, 2])
        let probe = try MovieProbe(url)
        #expect(probe.frames == 75)
        #expect(abs(probe.duration - 2.5) < 0.001)
    }

    @Test("no fragmentation: one 'mdat' and the 'moov' after it")
    func unfragmented() throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30, fragmentInterval: 0)
        try MovieFixture.record(writer, frames: 60, format: .yuv420BiPlanarVideoRange)
        try writer.finish()
        let boxes = try MovieFixture.topLevelBoxes(url)
        #expect(!boxes.contains("moof"))
        #expect(boxes.firstIndex(of: "mdat")! < boxes.firstIndex(of: "moov")!)
        let probe = try MovieProbe(url)
        #expect(probe.frames == 60)
        #expect(abs(probe.duration - 2) < 0.001)
        #expect(probe.startTime == 0)
        #expect(writer.recordedFileSize == MovieFixture.fileSize(url))
    }

    @Test("frames keep their own timing: a dropped frame leaves a gap, not a shift")
    func irregularTiming() throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30)
        let buffer = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 640, height: 480)
        // Frames 0-29 and 40-59 of a 30 fps stream: ten frames were dropped.
        for index in Array(0..<30) + Array(40..<60) {
            MovieFixture.paint(buffer, frame: index)
            try writer.append(buffer, presentationTime: CMTime(value: 1000 + Int64(index) * 20, timescale: 600))
        }
        #expect(writer.recordedDuration == CMTime(value: 2, timescale: 1))
        try writer.finish()
        let probe = try MovieProbe(url)
        #expect(probe.frames == 50)
        #expect(abs(probe.duration - 2) < 0.001)
    }

    @Test("an average bit rate is honoured roughly")
    func bitRate() throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30, bitRate: 200_000)
        try MovieFixture.record(writer, frames: 90, format: .yuv420BiPlanarVideoRange)
        try writer.finish()
        // 3 s at 200 kbit/s is 75 kB; constant quality makes several times that for this pattern.
        #expect(writer.recordedFileSize < 150_000)
        #expect(try MovieProbe(url).frames == 90)
    }

    @Test("recorded size counts the current fragment and is the file's size once finished")
    func recordedFileSize() throws {
        let url = MovieFixture.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30, fragmentInterval: 1)
        let header = writer.recordedFileSize
        #expect(header > 0 && header == MovieFixture.fileSize(url), "ftyp and moov are on disk at once")
        #expect(writer.recordedDuration == .zero)
        try MovieFixture.record(writer, frames: 45, format: .yuv420BiPlanarVideoRange)
        let onDisk = MovieFixture.fileSize(url)
        #expect(onDisk > header, "the first fragment is on disk")
        #expect(writer.recordedFileSize > onDisk, "the second fragment's frames count before they are on disk")
        #expect(writer.recordedDuration == CMTime(value: 3, timescale: 2))
        try writer.finish()
        #expect(writer.recordedFileSize == MovieFixture.fileSize(url))
    }
}

/// Frames, files and boxes for the movie tests.
enum MovieFixture {
    static func temporaryURL(_ name: String = "movie") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).mp4")
    }

    static func fileSize(_ url: URL) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? -1
    }

    /// Appends `frames` frames at 30 fps, starting at an arbitrary host time.
    static func record(
        _ writer: MovieWriter, frames: Int, from first: Int = 0, format: PixelFormat, width: Int = 640, height: Int = 480
    ) throws {
        let buffer = CVBuffer(format: format, width: width, height: height)
        for index in first..<(first + frames) {
            paint(buffer, frame: index)
            let time = CMTime(value: 5_000_000_000 + Int64(index) * 1_000_000_000 / 30, timescale: 1_000_000_000)
            try writer.append(buffer, presentationTime: time)
        }
    }

    /// A moving diagonal gradient with a white square in the top-left corner, which shows
    /// where the picture's top-left ends up after rotation. Each row is a window on one
    /// repeating gradient, copied rather than worked out per pixel (the tests build without
    /// optimisation).
    static func paint(_ buffer: CVBuffer, frame: Int) {
        let width = buffer.width
        let height = buffer.height
        let marker = min(width, height) / 8
        let period = 160
        // One repeating gradient, long enough for a row: row y starts at x + y + 4·frame = 0.
        let values = (0..<(width + period)).map { UInt8(16 + $0 % period) }
        func pixels(_ bytes: (UInt8) -> [UInt8]) -> (gradient: [UInt8], marker: [UInt8], size: Int) {
            (values.flatMap(bytes), (0..<marker).flatMap { _ in bytes(235) }, bytes(0).count)
        }
        func fill(_ line: UnsafeMutablePointer<UInt8>, _ y: Int, _ pattern: (gradient: [UInt8], marker: [UInt8], size: Int)) {
            let start = (y + frame * 4) % period * pattern.size
            pattern.gradient.withUnsafeBufferPointer { line.update(from: $0.baseAddress! + start, count: width * pattern.size) }
            if y < marker { line.update(from: pattern.marker, count: pattern.marker.count) }
        }
        switch buffer.format {
        case .bgra:
            let pattern = pixels { value in [value, value, UInt8(min(Int(value) + 40, 255)), 255] }
            let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
            for y in 0..<height { fill(base + y * buffer.bytesPerRow(0), y, pattern) }
        default:
            let pattern = pixels { [$0] }
            let y0 = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
            for y in 0..<height { fill(y0 + y * buffer.bytesPerRow(0), y, pattern) }
            for plane in 1..<buffer.format.planeCount {
                let base = buffer.planeAddress(plane).assumingMemoryBound(to: UInt8.self)
                let rowBytes = buffer.format.planeCount == 2 ? width : width / 2
                let chroma = (0..<rowBytes).map { UInt8(96 + ($0 + frame) % 64) }
                for y in 0..<(height / 2) { (base + y * buffer.bytesPerRow(plane)).update(from: chroma, count: rowBytes) }
            }
        }
    }

    /// The types of the file's top-level ISO boxes, in order.
    static func topLevelBoxes(_ url: URL) throws -> [String] {
        let data = try Data(contentsOf: url)
        var types: [String] = []
        var offset = 0
        while offset + 8 <= data.count {
            let size32 = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self))
            var size = size32
            if size32 == 1, offset + 16 <= data.count {
                size = data[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
            } else if size32 == 0 {
                size = data.count - offset
            }
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }

    /// The first frame as ffmpeg decodes it for display (rotated by the display matrix), as 8-bit grey.
    static func firstFrameLuma(_ url: URL) throws -> GreyPicture {
        let stream = try FFprobe.streams(url.path, ["-show_entries", "stream=width,height:stream_side_data=rotation"]).first ?? [:]
        let rotation = ((stream["side_data_list"] as? [[String: Any]])?.first?["rotation"] as? Int) ?? 0
        var width = stream["width"] as? Int ?? 0
        var height = stream["height"] as? Int ?? 0
        if rotation % 180 != 0 { swap(&width, &height) }
        let pixels = try ChildProcess.run(
            "/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"], stderr: .discard
        ).stdoutData
        return GreyPicture(width: pixels.count == width * height ? width : 0, height: height, pixels: [UInt8](pixels))
    }

    /// Times of the keyframes, in seconds.
    static func keyframeTimes(_ url: URL) throws -> [Double] {
        let csv = try FFprobe.text(url.path, ["-select_streams", "v", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0"])
        return csv.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count == 2, fields[1].hasPrefix("K") else { return nil }
            return Double(fields[0])
        }
    }
}

/// A decoded grey picture.
struct GreyPicture {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// Whether each corner (top left, top right, bottom left, bottom right) is the white
    /// marker (235 or more; the gradient stays below 190), read `inset` pixels in from both edges.
    func corners(inset: Int) -> [Bool] {
        guard width > 2 * inset, height > 2 * inset, pixels.count == width * height else { return [] }
        let points = [(inset, inset), (width - 1 - inset, inset), (inset, height - 1 - inset), (width - 1 - inset, height - 1 - inset)]
        return points.map { pixels[$0.1 * width + $0.0] > 215 }
    }
}

/// What ffprobe says about a movie's video stream, decoding every frame to count them.
struct MovieProbe {
    var codec: String?
    var width: Int?
    var height: Int?
    var frames: Int?
    var averageFrameRate: String?
    var colorRange: String?
    var colorSpace: String?
    var codecTag: String?
    /// The display matrix's rotation in FFmpeg's sign: counterclockwise degrees.
    var rotation: Int?
    var duration: Double
    var startTime: Double?

    init(_ url: URL) throws {
        let json = try FFprobe.json(url.path, [
            "-count_frames",
            "-show_entries", "stream=codec_name,codec_tag_string,width,height,nb_read_frames,avg_frame_rate,color_range,color_space,start_time:stream_side_data=rotation:format=duration",
        ])
        let stream = (json["streams"] as? [[String: Any]])?.first ?? [:]
        codec = stream["codec_name"] as? String
        width = stream["width"] as? Int
        height = stream["height"] as? Int
        frames = (stream["nb_read_frames"] as? String).flatMap { Int($0) }
        averageFrameRate = stream["avg_frame_rate"] as? String
        colorRange = stream["color_range"] as? String
        colorSpace = stream["color_space"] as? String
        codecTag = stream["codec_tag_string"] as? String
        startTime = (stream["start_time"] as? String).flatMap { Double($0) }
        let sideData = stream["side_data_list"] as? [[String: Any]] ?? []
        rotation = sideData.compactMap { $0["rotation"] as? Int }.first
        let format = json["format"] as? [String: Any] ?? [:]
        duration = (format["duration"] as? String).flatMap { Double($0) } ?? 0
    }
}
