import CaptureCore
import Foundation
import Testing
import TestSupport
@testable import V4L2Camera

/// Motion JPEG passthrough on the V4L2 frame path, fed a recorded MJPEG stream (ffmpeg,
/// made in the test's temp dir; vivid sends no MJPEG): a still of a frame carries the JPEG
/// the camera sent for it, byte for byte, when it is that frame unchanged.
@Suite("V4L2 Motion JPEG stills")
struct V4L2MJPEGStillTests {
    static let width = 320, height = 240

    /// The stream's JPEGs, one per frame, split at each start-of-image after an end-of-image.
    static func recordedFrames() throws -> [[UInt8]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("v4l2-mjpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("camera.mjpeg")
        let ffmpeg = try ChildProcess.run(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=\(width)x\(height):rate=10", "-frames:v", "4", "-c:v", "mjpeg",
             "-pix_fmt", "yuvj422p", "-f", "mjpeg", file.path],
            stderr: .discard, within: .seconds(60))
        try #require(ffmpeg.status == 0, "ffmpeg failed")
        let bytes = [UInt8](try Data(contentsOf: file))
        var frames: [[UInt8]] = []
        var start = 0
        var index = 2
        while index + 1 < bytes.count {
            if bytes[index - 2] == 0xFF, bytes[index - 1] == 0xD9, bytes[index] == 0xFF, bytes[index + 1] == 0xD8 {
                frames.append(Array(bytes[start..<index]))
                start = index
            }
            index += 1
        }
        frames.append(Array(bytes[start...]))
        return frames
    }

    /// Delivers frame `sequence` as the capture thread does for a Motion JPEG camera: the
    /// JPEG noted while a still may want it, the decoded picture to the stills.
    static func deliver(_ jpeg: [UInt8], sequence: Int64, to taker: V4L2StillTaker) throws {
        let picture = CVBuffer(format: .yuv420BiPlanarVideoRange, width: width, height: height)
        let converter = V4L2FrameConverter(source: .mjpeg, width: width, height: height, sourceStride: 0)
        try #require(jpeg.withUnsafeBytes { converter.convert($0.baseAddress!, bytes: $0.count, into: picture) })
        if taker.wantsFrames { taker.noteJPEG(jpeg, sequence: sequence) }
        let time = CMClockGetTime(CMClockGetHostTimeClock()).value + 1
        taker.frameArrived(picture, metadata: V4L2StillTests.metadata(sequence, at: time), device: V4L2StillTests.driver)
    }

    static func take(_ request: StillRequest, from taker: V4L2StillTaker, feeding frames: [[UInt8]], from first: Int64) throws -> StillCapture {
        let results = V4L2StillTests.Results()
        #expect(taker.add(request) { results.add($0) })
        for (offset, frame) in frames.enumerated() { try deliver(frame, sequence: first + Int64(offset), to: taker) }
        return try #require(results.waitFor(1).first).get()
    }

    @Test func stillOfAFrameCarriesTheJPEGTheCameraSent() throws {
        let frames = try Self.recordedFrames()
        try #require(frames.count == 4 && frames.allSatisfy { $0.starts(with: [0xFF, 0xD8]) })
        let taker = V4L2StillTaker(controls: [])
        taker.open()
        #expect(!taker.wantsFrames, "nothing waits: the stream copies no JPEG")
        let request = StillRequest(width: Self.width, height: Self.height, pixelFormat: .yuv420BiPlanarFullRange, flash: false)
        let still = try Self.take(request, from: taker, feeding: [frames[1]], from: 1)
        #expect(still.metadata.sequence == 1)
        #expect(still.deviceJPEG == frames[1])
        #expect(still.buffer.width == Self.width)
        // A smaller still is not that frame unchanged: encoded again.
        var smaller = request
        smaller.width = 160
        smaller.height = 120
        #expect(try Self.take(smaller, from: taker, feeding: [frames[2]], from: 2).deviceJPEG == nil)
    }

    @Test func zeroShutterLagStillCarriesTheKeptFramesJPEG() throws {
        let frames = try Self.recordedFrames()
        try #require(frames.count == 4)
        let taker = V4L2StillTaker(controls: [])
        taker.open()
        taker.recentFrames.keep(true, for: ObjectIdentifier(Self.self))
        #expect(taker.wantsFrames)
        for (index, frame) in frames.prefix(3).enumerated() { try Self.deliver(frame, sequence: Int64(index), to: taker) }
        var request = StillRequest(width: Self.width, height: Self.height, pixelFormat: .yuv420BiPlanarFullRange, flash: false)
        request.zeroShutterLag = true
        let results = V4L2StillTests.Results()
        #expect(taker.add(request) { results.add($0) })
        try Self.deliver(frames[3], sequence: 3, to: taker)
        let still = try #require(results.waitFor(1).first).get()
        #expect(still.fromRecentFrames && still.metadata.sequence == 2)
        #expect(still.deviceJPEG == frames[2])
    }

    /// Delivers frame `sequence` of a larger still's own stream as the capture thread does
    /// for a Motion JPEG mode: the JPEG noted while the sink wants it, then the picture.
    static func deliver(_ jpeg: [UInt8], sequence: Int64, to sink: V4L2SingleFrameSink) throws {
        let picture = CVBuffer(format: .yuv420BiPlanarVideoRange, width: width, height: height)
        let converter = V4L2FrameConverter(source: .mjpeg, width: width, height: height, sourceStride: 0)
        try #require(jpeg.withUnsafeBytes { converter.convert($0.baseAddress!, bytes: $0.count, into: picture) })
        if sink.wantsFrames { sink.noteJPEG(jpeg, sequence: sequence) }
        sink.backendDidCapture(picture, metadata: V4L2StillTests.metadata(sequence, at: CMClockGetTime(CMClockGetHostTimeClock()).value))
    }

    /// A still larger than the session's stream comes from a stream of its own at the
    /// still's size (`V4L2Camera+LargerStills.swift`): its first frame keeps the JPEG the
    /// camera sent, and the still of it at that size carries it byte for byte.
    @Test func largerStillFromItsOwnStreamCarriesTheJPEG() throws {
        let frames = try Self.recordedFrames()
        try #require(frames.count == 4)
        let sink = V4L2SingleFrameSink()
        #expect(sink.wantsFrames)
        try Self.deliver(frames[0], sequence: 0, to: sink)
        #expect(!sink.wantsFrames, "the first frame is in: no more copies")
        try Self.deliver(frames[1], sequence: 1, to: sink)
        let frame = try sink.wait(seconds: 0).get()
        #expect(frame.metadata.sequence == 0 && frame.jpeg == frames[0])
        let taker = V4L2StillTaker(controls: [])
        taker.open()
        let results = V4L2StillTests.Results()
        let request = StillRequest(width: Self.width, height: Self.height, pixelFormat: .yuv420BiPlanarFullRange, flash: false)
        taker.complete(
            PendingStills.Entry(request: request) { results.add($0) }, buffer: frame.buffer, metadata: frame.metadata,
            device: V4L2StillTests.driver, jpeg: frame.jpeg)
        let still = try #require(results.waitFor(1).first).get()
        #expect(still.deviceJPEG == frames[0])
        #expect(still.buffer.width == Self.width && still.buffer.height == Self.height)
    }

    /// A JPEG noted for another frame than the one delivered is not that frame's: dropped.
    @Test func largerStillKeepsNoJPEGOfAnotherFrame() throws {
        let frames = try Self.recordedFrames()
        try #require(frames.count == 4)
        let sink = V4L2SingleFrameSink()
        sink.noteJPEG(frames[0], sequence: 0)
        let picture = CVBuffer(format: .yuv420BiPlanarVideoRange, width: Self.width, height: Self.height)
        sink.backendDidCapture(picture, metadata: V4L2StillTests.metadata(1, at: 1))
        #expect(try sink.wait(seconds: 0).get().jpeg == nil)
    }
}
