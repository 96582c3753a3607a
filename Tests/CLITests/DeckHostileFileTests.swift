import Foundation
import Testing

/// Hostile files named as a deck or a scene picture (issue 26): each is a one-line error
/// (exit 2) or plays, never a trap, a hang or gigabytes of memory.
@Suite("CLI file deck: hostile files")
struct DeckHostileFileTests {
    /// Peak memory a refused file may cost (`capture` itself takes about 60 MB).
    static let refusalMegabytes = 300

    @Test("a frame rate of 2,500,000.5 fps (timescale 5000001, 2-tick samples) is exit 2 naming the rate, for frames, photo and bench --deck")
    func frameRateNoCameraHas() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try HostileMedia.timescaleTrick(folder.appendingPathComponent("fast.mp4"))
        let runs: [[String]] = [
            ["frames", "--device", "file:\(clip.path)", "--count", "3", "-o", folder.appendingPathComponent("o.y4m").path],
            ["photo", "--device", "file:\(clip.path)", "-o", folder.appendingPathComponent("p.jpg").path],
            ["bench", "--deck", clip.path],
        ]
        for arguments in runs {
            let run = try MeasuredRun(arguments)
            #expect(run.status == 2, "\(arguments[0]): \(run.status) \(run.stderr)")
            #expect(run.stderrLines.count == 1 && run.stderr.contains("2500000.5 fps"), "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr.contains(arguments[0] == "bench" ? "--deck" : "--device"), "\(run.stderr)")
        }
    }

    @Test("an MP4 whose SPS claims 16000x16000 is refused at once, forwards and backwards, in bounded memory", arguments: ["1", "-1"])
    func hugeClaimedPicture(speed: String) throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try HostileMedia.claimedSize(folder.appendingPathComponent("huge.mp4"), width: 16000, height: 16000)
        let run = try MeasuredRun([
            "frames", "--device", "file:\(clip.path)", "--speed", speed, "--virtual-time", "--count", "5", "-o", folder.appendingPathComponent("o.y4m").path,
        ])
        #expect(run.status == 2, "\(run.status) \(run.stderr)")
        #expect(run.stderrLines.count == 1 && run.stderr.contains("16000x16000"), "\(run.stderr)")
        #expect(run.peakMegabytes > 0 && run.peakMegabytes < Self.refusalMegabytes, "peak \(run.peakMegabytes) MB")
    }

    @Test("a raw H.264 stream whose SPS claims 8192x8192 is refused at once, in bounded memory")
    func hugeRawStream() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try HostileMedia.claimedSize(folder.appendingPathComponent("huge.h264"), width: 8192, height: 8192)
        let run = try MeasuredRun(["frames", "--device", "file:\(clip.path)", "--count", "3", "-o", folder.appendingPathComponent("o.y4m").path])
        #expect(run.status == 2, "\(run.status) \(run.stderr)")
        #expect(run.stderrLines.count == 1 && run.stderr.contains("8192x8192"), "\(run.stderr)")
        #expect(run.peakMegabytes > 0 && run.peakMegabytes < Self.refusalMegabytes, "peak \(run.peakMegabytes) MB")
    }

    @Test("a FIFO named as the deck is exit 2 at once (it blocked in open), for frames and for serve --duration 2")
    func fifoIsNoDeck() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.mp4")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        for arguments in [["frames", "--count", "3", "-o", folder.appendingPathComponent("o.y4m").path], ["serve", "--duration", "2", "--listen", "127.0.0.1:0"]] {
            // Nothing ever writes the FIFO: a command that opens it waits until the timeout kills it.
            let run = try MeasuredRun([arguments[0], "--device", "file:\(fifo.path)"] + arguments.dropFirst(), timeout: 20)
            #expect(run.status == 2, "\(arguments[0]): \(run.status) \(run.stderr)")
            #expect(run.stderrLines.count == 1 && run.stderr.contains("not a regular file"), "\(run.stderr)")
        }
    }

    @Test("raw .h264 and .hevc elementary streams play, as ffmpeg decodes them, forwards and backwards")
    func rawStreamsPlay() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let h264 = try HostileMedia.clip(
            folder.appendingPathComponent("clip.h264"), frames: 12, ["-c:v", "libx264", "-preset", "ultrafast", "-g", "5", "-pix_fmt", "yuv420p"])
        let hevc = try HostileMedia.clip(
            folder.appendingPathComponent("clip.hevc"), frames: 12, ["-c:v", "libx265", "-x265-params", "log-level=none:keyint=5", "-pix_fmt", "yuv420p"])
        for (clip, speed) in [(h264, "1"), (h264, "-1"), (hevc, "1"), (hevc, "-1")] {
            let out = folder.appendingPathComponent("\(clip.pathExtension)\(speed).y4m")
            let run = try MeasuredRun([
                "frames", "--device", "file:\(clip.path)", "--speed", speed, "--virtual-time", "--pixel-format", "y420", "--count", "12", "-o", out.path,
            ])
            #expect(run.status == 0, "\(clip.lastPathComponent) at \(speed): \(run.stderr)")
            #expect(run.stderr.contains("wrote 12 frames (160x120 y420, 25.00 fps"), "\(run.stderr)")
            let expected = try Self.hashes(clip)
            #expect(expected.count == 12)
            #expect(try Self.hashes(out) == (speed == "1" ? expected : expected.reversed()), "\(clip.lastPathComponent) at \(speed)")
        }
    }

    @Test("two raw H.264 encodes concatenated (320x240 then 160x120) play forwards and backwards, every frame at one size", arguments: ["1", "-1"])
    func sizeChangeMidStream(speed: String) throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let large = folder.appendingPathComponent("a.h264")
        try HostileMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "6", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-y", large.path,
        ])
        let small = try HostileMedia.clip(folder.appendingPathComponent("b.h264"), frames: 6, ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let clip = folder.appendingPathComponent("ab.h264")
        try (try Data(contentsOf: large) + Data(contentsOf: small)).write(to: clip)
        let out = folder.appendingPathComponent("o.y4m")
        // The old converter, made for the first frame's size, wrote 320x240 into the smaller frames' buffers.
        let run = try MeasuredRun(["frames", "--device", "file:\(clip.path)", "--speed", speed, "--virtual-time", "--pixel-format", "y420", "--count", "12", "-o", out.path])
        #expect(run.status == 0, "\(run.status) \(run.stderr)")
        // One size throughout, the one the track declares (FFmpeg's probe of this short file saw 160x120 last).
        let size = try #require(["320x240", "160x120"].first { run.stderr.contains("wrote 12 frames (\($0)") }, "\(run.stderr)")
        let pixels = size == "320x240" ? 320 * 240 : 160 * 120
        let data = try Data(contentsOf: out)
        let header = try #require(data.firstIndex(of: 0x0A)) + 1
        #expect(data.count - header == 12 * (6 + pixels * 3 / 2), "\(data.count) bytes")
    }

    @Test("FFmpeg's own log stays quiet by default; OPENCAPTURE_FFMPEG_LOG=error shows it, each line marked")
    func ffmpegLogIsQuiet() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try HostileMedia.scrambled(
            try HostileMedia.clip(folder.appendingPathComponent("bad.mp4"), frames: 10, ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]),
            seed: 7)
        let arguments = ["frames", "--device", "file:\(clip.path)", "--virtual-time", "--count", "10", "-o", folder.appendingPathComponent("o.y4m").path]
        let verbose = try MeasuredRun(arguments, environment: ["OPENCAPTURE_FFMPEG_LOG": "error"])
        let ffmpegLines = verbose.stderrLines.filter { $0.hasPrefix("OpenCapture: FFmpeg: ") }
        try #require(!ffmpegLines.isEmpty, "the damaged clip made FFmpeg say nothing: \(verbose.stderr)")
        #expect(verbose.stderrLines.allSatisfy { $0.hasPrefix("OpenCapture: FFmpeg: ") || $0.hasPrefix("capture: ") || $0.hasPrefix("wrote ") }, "\(verbose.stderr)")
        let quiet = try MeasuredRun(arguments)
        #expect(quiet.status == verbose.status)
        #expect(!quiet.stderr.contains("FFmpeg") && !quiet.stderr.contains(" @ 0x"), "\(quiet.stderr)")
        #expect(quiet.status != 2 || quiet.stderrLines.count == 1, "\(quiet.stderr)")
    }

    @Test("a progressive 16384x16384 JPEG as a scene is refused, saying so, before libjpeg holds its 768 MiB of coefficients")
    func progressiveScenePicture() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = folder.appendingPathComponent("huge.jpg")
        try HostileMedia.progressiveJPEG(width: 16384, height: 16384).write(to: picture)
        let run = try MeasuredRun(["frames", "--scene", "image:\(picture.path)", "--count", "1", "-o", folder.appendingPathComponent("o.y4m").path])
        #expect(run.status == 2, "\(run.status) \(run.stderr)")
        #expect(run.stderrLines.count == 1 && run.stderr.contains("--scene") && run.stderr.contains("progressive JPEG of 16384x16384 is refused"), "\(run.stderr)")
        #expect(run.peakMegabytes > 0 && run.peakMegabytes < Self.refusalMegabytes, "peak \(run.peakMegabytes) MB")
        // Small ones of the same making are scenes as usual.
        for (name, small) in [("p", HostileMedia.progressiveJPEG(width: 640, height: 480)), ("m", HostileMedia.multiScanJPEG(width: 640, height: 480))] {
            let url = folder.appendingPathComponent("small-\(name).jpg")
            try small.write(to: url)
            let fine = try MeasuredRun(["frames", "--scene", "image:\(url.path)", "--count", "1", "-o", folder.appendingPathComponent("\(name).y4m").path])
            #expect(fine.status == 0, "\(fine.stderr)")
        }
    }

    @Test("a baseline 16384x16384 JPEG in three scans (one per component) is refused as well: it needs the same buffers")
    func multiScanScenePicture() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = folder.appendingPathComponent("scans.jpg")
        try HostileMedia.multiScanJPEG(width: 16384, height: 16384).write(to: picture)
        let run = try MeasuredRun(["frames", "--scene", "image:\(picture.path)", "--count", "1", "-o", folder.appendingPathComponent("o.y4m").path])
        #expect(run.status == 2, "\(run.status) \(run.stderr)")
        #expect(run.stderrLines.count == 1 && run.stderr.contains("multi-scan JPEG of 16384x16384 is refused"), "\(run.stderr)")
        #expect(run.peakMegabytes > 0 && run.peakMegabytes < Self.refusalMegabytes, "peak \(run.peakMegabytes) MB")
    }

    @Test("backwards through a 4K clip the deck holds a byte budget of frames (48 frames were 600 MB)")
    func backwardWindowIsBytes() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("uhd.mp4")
        try HostileMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=25", "-frames:v", "60", "-c:v", "libx264", "-preset", "ultrafast", "-g", "60",
            "-pix_fmt", "yuv420p", "-y", clip.path,
        ])
        let run = try MeasuredRun(["frames", "--device", "file:\(clip.path)", "--speed", "-1", "--virtual-time", "--count", "3", "-o", "/dev/null"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote 3 frames (3840x2160"), "\(run.stderr)")
        // 150 MB of frames held, the decoder's and the ones in flight: about 340 MB. 48 frames were 600 MB alone.
        #expect(run.peakMegabytes > 0 && run.peakMegabytes < 520, "peak \(run.peakMegabytes) MB")
    }

    /// ffmpeg's SHA-256 of each frame of a file, as yuv420p.
    private static func hashes(_ url: URL) throws -> [String] {
        let text = String(
            decoding: try HostileMedia.ffmpeg(["-i", url.path, "-fps_mode", "passthrough", "-pix_fmt", "yuv420p", "-f", "framehash", "-hash", "sha256", "-"]),
            as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}
