import CaptureCore
import Foundation
import Testing
import TestSupport

@testable import MediaIO

/// Backwards, the playhead holds a byte budget of decoded frames, not a count: frames of
/// 8192x4320 took 48 × 53 MB where 48 of 1080p took 150 MB.
@Suite("Movie playhead backward budget")
struct MoviePlayheadBudgetTests {
    /// A 30-frame, one-GOP clip of 160x120 at 25 fps (an MP4, or a raw stream as "h264").
    static func clip(_ ext: String = "mp4") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oc-playhead-\(getpid())-\(UUID().uuidString.prefix(8)).\(ext)")
        let ffmpeg = try ChildProcess.run(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "30",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-pix_fmt", "yuv420p", "-y", url.path,
            ], within: .seconds(30))
        try #require(ffmpeg.status == 0, "ffmpeg failed")
        return url
    }

    @Test("a budget of five frames plays a 30-frame GOP backwards, every frame once, holding at most five")
    func backwardsWithinBudget() throws {
        let url = try Self.clip()
        defer { try? FileManager.default.removeItem(at: url) }
        let track = try #require(try MovieReader(url: url).tracks.first { $0.kind == .video })
        let format = PixelFormat.yuv420BiPlanarVideoRange
        let frameBytes = CVPixelBufferGetDataSize(CVBuffer(format: format, width: track.width, height: track.height))
        let playhead = try MoviePlayhead(url: url, track: track, pixelFormat: format, reverseBudget: 5 * frameBytes)
        #expect(playhead.reverseLimit(for: format) == 5)
        playhead.windToEnd()
        var times: [Double] = []
        while let frame = try playhead.step(forward: false) { times.append(frame.time.seconds) }
        #expect(times.count == 30)
        #expect(zip(times, (0..<30).reversed()).allSatisfy { abs($0 - Double($1) * 0.04) < 1e-6 }, "\(times)")
        // The peak inside each window: `heldBytes` after a step has already handed one frame out.
        let peak = playhead.peakHeldBytes
        #expect(peak > 4 * frameBytes && peak <= 5 * frameBytes, "held \(peak) bytes, budget \(5 * frameBytes)")
    }

    @Test("a frame larger than the budget is still held alone, so backward play goes on")
    func oneFrameOverBudget() throws {
        let url = try Self.clip()
        defer { try? FileManager.default.removeItem(at: url) }
        let track = try #require(try MovieReader(url: url).tracks.first { $0.kind == .video })
        let playhead = try MoviePlayhead(url: url, track: track, pixelFormat: .yuv420BiPlanarVideoRange, reverseBudget: 1)
        #expect(playhead.reverseLimit(for: .yuv420BiPlanarVideoRange) == 1)
        playhead.windToEnd()
        var count = 0
        while try playhead.step(forward: false) != nil { count += 1 }
        #expect(count == 30)
    }

    @Test("backwards, a raw stream (no times: every window decodes from byte 0) spans at most 16 windows, else a one-line error")
    func untimedStreamIsBounded() throws {
        let url = try Self.clip("h264")
        defer { try? FileManager.default.removeItem(at: url) }
        let track = try #require(try MovieReader(url: url).tracks.first { $0.kind == .video })
        let format = PixelFormat.yuv420BiPlanarVideoRange
        let frameBytes = CVPixelBufferGetDataSize(CVBuffer(format: format, width: track.width, height: track.height))
        // A one-frame window: 30 windows, each from byte 0, is refused.
        let narrow = try MoviePlayhead(url: url, track: track, pixelFormat: format, reverseBudget: frameBytes)
        narrow.windToEnd()
        #expect {
            _ = try narrow.step(forward: false)
        } throws: { error in
            "\(error)".contains("without timestamps") && "\(error)".contains("30 frames")
        }
        // A two-frame window: 15 windows play, every frame once.
        let wide = try MoviePlayhead(url: url, track: track, pixelFormat: format, reverseBudget: 2 * frameBytes)
        wide.windToEnd()
        var count = 0
        while try wide.step(forward: false) != nil { count += 1 }
        #expect(count == 30)
    }
}
