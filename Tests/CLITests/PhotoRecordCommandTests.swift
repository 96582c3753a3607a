import Foundation
import Testing
import TestSupport

@Suite("capture photo and capture record", .serialized, .tags(.slow))
struct PhotoRecordCommandTests {
    static func exiftool(_ path: String) throws -> [String: Any] {
        try ExifTool.tags(path, ["-n"])
    }

    static func probe(_ path: String) throws -> [String: Any] {
        try FFprobe.streams(path, ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height,nb_read_frames"]).first ?? [:]
    }

    @Test("photo writes a full-resolution JPEG whose EXIF exiftool reads")
    func photo() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shot.jpg").path
        // Two video frames first, not the default 15: at 4032x3024 each costs, and what is
        // tested here is the photo, not how exposure settles.
        let output = try ToolRunner.capture("photo", "--virtual-time", "--settle", "2", "--rotation", "90", "-o", path)
        #expect(output.status == 0, "\(output.stderr)")
        let exif = try Self.exiftool(path)
        #expect(exif["ImageWidth"] as? Int == 4032 && exif["ImageHeight"] as? Int == 3024)
        #expect(exif["Make"] as? String == "OpenCapture")
        #expect((exif["ExposureTime"] as? Double ?? 0) > 0)
        #expect((exif["ISO"] as? Int ?? 0) >= 34)
        #expect(abs((exif["FNumber"] as? Double ?? 0) - 1.78) < 0.01)
        #expect((exif["FocalLength"] as? Double ?? 0) > 1)
        #expect(exif["Orientation"] as? Int == 6, "rotation 90 is EXIF orientation 6")
        #expect(exif["DateTimeOriginal"] != nil && exif["WhiteBalance"] as? Int == 0)
        let again = try ToolRunner.capture("photo", "--virtual-time", "-o", path)
        #expect(again.status == 2 && again.stderr.contains("use --overwrite"))
        // Replacing it needs no full-resolution photo: a small one shows the flash fired.
        let replaced = try ToolRunner.capture("photo", "--virtual-time", "--preset", "640x480", "--overwrite", "--flash", "on", "-o", path)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect((try Self.exiftool(path)["Flash"] as? Int ?? 0) & 1 == 1)
    }

    @Test("photo --codec hevc writes HEIC, --raw a DNG, each read by its client", arguments: [
        (["--codec", "hevc", "--quality", "speed"], "heic"), (["--raw"], "dng"), (["--raw", "--quality", "speed"], "dng"),
    ])
    func photoCodecs(options: [String], ext: String) throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("photo.\(ext)").path
        let output = try ToolRunner.run("capture", ["photo", "--virtual-time", "--settle", "2", "--preset", "352x288"] + options + ["-o", path])
        #expect(output.status == 0, "\(output.stderr)")
        let tags = try Self.exiftool(path)
        #expect(tags["FileType"] as? String == (ext == "heic" ? "HEIC" : "DNG"), "\(tags)")
        #expect(tags["Make"] as? String == "OpenCapture")
    }

    @Test("photo --live writes the still and a .mov beside it sharing one content identifier")
    func livePhoto() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("live.jpg").path
        let movie = folder.appendingPathComponent("live.mov").path
        let output = try ToolRunner.run("capture", ["photo", "--virtual-time", "--preset", "352x288", "--live", "-o", path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("Live Photo movie"), "\(output.stderr)")
        // One exiftool run for both files (a perl start costs a tenth of a second).
        let files = try ExifTool.tags([movie, path], ["-n"])
        let clip = files.first ?? [:], still = files.last ?? [:]
        // exiftool names the maker note's tag 0x0011 MediaGroupUUID since 12.19 (ContentIdentifier before).
        let identifier = (still["MediaGroupUUID"] ?? still["ContentIdentifier"]) as? String
        #expect(identifier != nil && clip["ContentIdentifier"] as? String == identifier, "\(still) \(clip)")
        #expect(abs((clip["Duration"] as? Double ?? 0) - 3) < 0.15 && clip["CompressorID"] as? String == "avc1")
        // The movie is checked like the photo: an existing one needs --overwrite.
        try FileManager.default.removeItem(atPath: path)
        let again = try ToolRunner.run("capture", ["photo", "--virtual-time", "--preset", "352x288", "--live", "-o", path])
        #expect(again.status == 2 && again.stderr.contains("live.mov exists; use --overwrite"), "\(again.stderr)")
    }

    @Test("bad photo and record input gets one line and exit status 2", arguments: [
        (["photo", "--flash", "sometimes", "-o", "/tmp/p.jpg"], "--flash must be off, on or auto, not 'sometimes'"),
        (["photo", "--device", "sim:front-wide", "--flash", "on", "-o", "/tmp/p.jpg"], "has no flash"),
        (["photo"], "missing -o"),
        (["photo", "--codec", "hevc", "-o", "/tmp/p.jpg"], "HEIC photos are written to .heic files"),
        (["photo", "--raw", "-o", "/tmp/p.heic"], "DNG photos are written to .dng files"),
        (["photo", "--quality", "best", "-o", "/tmp/p.jpg"], "--quality must be speed, balanced or quality"),
        (["photo", "--live", "--raw", "-o", "/tmp/p.dng"], "--live takes a processed photo"),
        (["photo", "--raw", "--quality", "balanced", "-o", "/tmp/p.dng"], "--raw takes --quality speed only (Bayer raw photos are taken at speed prioritization), not --quality balanced"),
        (["photo", "--raw", "--quality", "quality", "-o", "/tmp/p.dng"], "--raw takes --quality speed only (Bayer raw photos are taken at speed prioritization), not --quality quality"),
        (["record", "--duration", "-1", "-o", "/tmp/r.mp4"], "--duration must be a positive number up to 86400 s, not '-1'"),
        (["record", "--fragment", "zero", "-o", "/tmp/r.mp4"], "--fragment must be a number in 0.1...60 s, not 'zero'"),
        (["record", "--codec", "vp9", "-o", "/tmp/r.mp4"], "--codec must be h264 or hevc"),
        (["record", "-o", "/no/such/dir/r.mp4"], "does not exist"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("capture", arguments)
        #expect(output.status == 2)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test("record --duration writes an H.264 MP4 that ffprobe reads")
    func recordDuration() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("clip.mp4").path
        let output = try ToolRunner.capture("record", "--preset", "640x480", "--duration", "1", "--virtual-time", "-o", path)
        #expect(output.status == 0, "\(output.stderr)")
        let stream = try Self.probe(path)
        #expect(stream["codec_name"] as? String == "h264" && stream["width"] as? Int == 640)
        #expect((29...31).contains(Int(stream["nb_read_frames"] as? String ?? "") ?? 0))
        let refused = try ToolRunner.capture("record", "--duration", "1", "-o", path)
        #expect(refused.status == 2 && refused.stderr.contains("use --overwrite"))
        let hevc = folder.appendingPathComponent("clip-hevc.mp4").path
        let encoded = try ToolRunner.capture("record", "--preset", "640x480", "--duration", "0.5", "--codec", "hevc", "--virtual-time", "-o", hevc)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(try Self.probe(hevc)["codec_name"] as? String == "hevc")
    }

    @Test("SIGINT finishes the file properly; SIGKILL leaves it playable up to its last fragment", arguments: [SIGINT, SIGKILL])
    func signals(signal number: Int32) throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("signal.mp4").path
        // Virtual time: the camera runs as fast as the encoder takes frames (what is tested is
        // what the signal leaves behind, not the pace).
        let process = try ChildProcess(
            ToolRunner.executable("capture"), ["record", "--preset", "640x480", "--fragment", "0.5", "--virtual-time", "-o", path],
            stdout: .discard, stderr: .discard)
        // Three complete half-second fragments on disk: more than a second of video.
        eventually("the recording wrote three fragments", checkingEvery: .milliseconds(20)) { Self.completeFragments(path) >= 3 }
        process.signal(number)
        let ended = try process.wait()
        if number == SIGINT {
            #expect(ended.status == 0)
        } else {
            #expect(!ended.exited)
        }
        let frames = Int(try Self.probe(path)["nb_read_frames"] as? String ?? "") ?? 0
        #expect(frames >= 30, "at least a second of video survives (\(frames) frames)")
    }

    /// How many fragments (a `moof` box and the `mdat` after it) lie complete in the MP4 at
    /// `path` as it is being written.
    static func completeFragments(_ path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        var offset = 0, fragments = 0, sawFragmentHeader = false
        while offset + 8 <= data.count {
            var size = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if size == 1, offset + 16 <= data.count {
                size = data[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
            }
            guard size >= 8, offset + size <= data.count else { break }
            if type == "moof" { sawFragmentHeader = true }
            if type == "mdat" && sawFragmentHeader {
                fragments += 1
                sawFragmentHeader = false
            }
            offset += size
        }
        return fragments
    }
}
