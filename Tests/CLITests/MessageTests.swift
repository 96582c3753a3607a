import Foundation
import Testing

/// The tool's one-line messages read right: counts agree with their nouns, a name is not
/// said twice, a rate is not made up from one frame, and frames a file deck skips are
/// counted as drops with their reason.
@Suite("capture messages", .serialized)
struct MessageTests {
    @Test("one frame: \"wrote 1 frame\", and no frame rate (one frame has none)")
    func oneFrame() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try ToolRunner.capture(
            "frames", "--preset", "352x288", "--virtual-time", "--count", "1", "-o", folder.appendingPathComponent("f.y4m").path)
        #expect(output.status == 0)
        #expect(output.stderr == "wrote 1 frame (352x288 420v, 0 dropped) to \(folder.appendingPathComponent("f.y4m").path)\n")
        let two = try ToolRunner.capture(
            "frames", "--preset", "352x288", "--virtual-time", "--count", "2", "-o", folder.appendingPathComponent("g.y4m").path)
        #expect(two.stderr.hasPrefix("wrote 2 frames (352x288 420v, 30.00 fps, 0 dropped) to "), "\(two.stderr)")
    }

    @Test("a scene picture that is not a PNG names the file once", arguments: [Data("P".utf8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2])])
    func badPictureNamedOnce(_ bytes: Data) throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = folder.appendingPathComponent("P")
        try bytes.write(to: picture)
        let output = try ToolRunner.capture("frames", "--scene", "image:\(picture.path)", "--count", "1", "-o", folder.appendingPathComponent("f.y4m").path)
        #expect(output.status == 2)
        #expect(output.stderr.components(separatedBy: "'\(picture.path)'").count == 2, "named once: \(output.stderr)")
        #expect(output.stderr.hasPrefix("capture: --scene image: '\(picture.path)': "), "\(output.stderr)")
    }

    /// 120 frames at 30 frames/s, every fourth 2 ms after the one before: less than a tick of
    /// the 1/30 s time base, so those 30 carry the time of the frame before, and the deck
    /// cannot show them.
    @Test("a variable-frame-rate file whose deck skips 30 of 120 frames reports them as drops, with the reason")
    func deckSkipsAreDrops() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("vfr.mkv").path
        let made = try ToolRunner.run(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-frames:v", "120",
             "-vf", "setpts='if(eq(mod(N,4),1),PREV_OUTPTS+0.002/TB,N/30/TB)'", "-fps_mode", "passthrough",
             "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", movie],
            path: "/usr/bin/ffmpeg")
        try #require(made.status == 0, "\(made.stderr)")
        let output = try ToolRunner.capture(
            "frames", "--device", "file:\(movie)", "--virtual-time", "--count", "1000", "-o", folder.appendingPathComponent("f.y4m").path)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("wrote 90 frames (") && output.stderr.contains(", 30 dropped: 30 skipped by the source) to "), "\(output.stderr)")
        let recorded = try ToolRunner.capture(
            "record", "--device", "file:\(movie)", "--virtual-time", "--audio", "none", "--duration", "10",
            "-o", folder.appendingPathComponent("r.mp4").path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stderr.contains("90 frames (30 dropped)"), "a recording misses what the source skipped: \(recorded.stderr)")
    }
}
