import Foundation
import Testing
import TestSupport

/// A full disk: the files the tool made keep what was complete (frames, fragments) and
/// lose the partial piece, or are removed when nothing was; one line says "disk full".
@Suite("capture on a full disk", .serialized)
struct DiskFullTests {
    @Test("frames to /dev/full: exit 1, one line saying disk full, /dev/full still a device")
    func framesToDevFull() throws {
        let output = try ToolRunner.capture("frames", "--preset", "352x288", "--count", "3", "--virtual-time", "-o", "/dev/full")
        #expect(output.exited && output.status == 1)
        #expect(output.stderr == "capture: /dev/full: disk full (after 0 complete frames)\n")
        var status = stat()
        #expect(stat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("photo to /dev/full: exit 1, one line saying disk full")
    func photoToDevFull() throws {
        let output = try ToolRunner.capture("photo", "--virtual-time", "--settle", "0", "--preset", "352x288", "-o", "/dev/full")
        #expect(output.exited && output.status == 1)
        #expect(output.stderr == "capture: /dev/full: disk full (the photo was not written in full)\n")
    }

    /// 600 KB holds the Y4M header and three 352x288 frames (152070 bytes each), not ten.
    @Test("frames on a full tmpfs keeps the complete frames and their metadata lines", .enabled(if: SmallDisk.isAvailable, "mounting a tmpfs needs root"))
    func framesOnFullDisk() throws {
        let disk = try SmallDisk(kilobytes: 600)
        defer { disk.unmount() }
        let video = disk.folder.appendingPathComponent("f.y4m").path
        let metadata = disk.folder.appendingPathComponent("f.jsonl").path
        let output = try ToolRunner.capture(
            "frames", "--preset", "352x288", "--count", "10", "--virtual-time", "--metadata", metadata, "-o", video)
        #expect(output.exited && output.status == 1)
        let kept = try #require(Self.keptCount(output.stderr, unit: "frames"), "\(output.stderr)")
        #expect(output.stderr == "capture: \(video): disk full (kept \(kept) complete frames)\n")
        #expect((1..<10).contains(kept))
        let data = try Data(contentsOf: URL(fileURLWithPath: video))
        let header = try #require(data.firstIndex(of: 0x0A)) + 1
        #expect(data.count == header + kept * (6 + 352 * 288 * 3 / 2), "the file ends after its last complete frame")
        #expect(try String(contentsOfFile: metadata, encoding: .utf8).split(separator: "\n").count == kept)
        #expect(Set(disk.entries) == ["f.y4m", "f.jsonl"], "no temporary file left: \(disk.entries)")
    }

    /// Fragments of 0.1 s (3 frames) at 352x288 fill 600 KB after about a hundred.
    @Test("record on a full tmpfs cuts the movie after its last complete fragment", .enabled(if: SmallDisk.isAvailable, "mounting a tmpfs needs root"))
    func recordOnFullDisk() throws {
        let disk = try SmallDisk(kilobytes: 600)
        defer { disk.unmount() }
        let movie = disk.folder.appendingPathComponent("r.mp4").path
        let output = try ToolRunner.capture(
            "record", "--preset", "352x288", "--fragment", "0.1", "--duration", "60", "--virtual-time", "-o", movie)
        #expect(output.exited && output.status == 1)
        let kept = try #require(Self.keptCount(output.stderr, unit: "fragments"), "\(output.stderr)")
        #expect(output.stderr == "capture: \(movie): disk full (kept \(kept) complete fragments)\n")
        let probe = try FFprobe.run(movie, ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0"])
        #expect(probe.status == 0 && probe.stderr.isEmpty, "ffprobe reads it without complaint: \(probe.stderr)")
        #expect(Int(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == 3 * kept, "three frames a fragment")
        #expect(disk.entries == ["r.mp4"])
    }

    @Test("photo on a full tmpfs leaves nothing", .enabled(if: SmallDisk.isAvailable, "mounting a tmpfs needs root"))
    func photoOnFullDisk() throws {
        // A 352x288 photo (about 20 KB) on 8 KB: a full-resolution one would say the same
        // in ten times the time.
        let disk = try SmallDisk(kilobytes: 8)
        defer { disk.unmount() }
        let photo = disk.folder.appendingPathComponent("p.jpg").path
        let output = try ToolRunner.capture("photo", "--virtual-time", "--settle", "0", "--preset", "352x288", "-o", photo)
        #expect(output.exited && output.status == 1)
        #expect(output.stderr == "capture: \(photo): disk full (no photo written)\n")
        #expect(disk.entries.isEmpty, "\(disk.entries)")
    }

    /// 200 KB holds the header and one 352x288 frame (152070 bytes), not two.
    @Test("one frame kept is \"1 complete frame\", not \"1 complete frames\"", .enabled(if: SmallDisk.isAvailable, "mounting a tmpfs needs root"))
    func oneFrameKept() throws {
        let disk = try SmallDisk(kilobytes: 200)
        defer { disk.unmount() }
        let video = disk.folder.appendingPathComponent("f.y4m").path
        let output = try ToolRunner.capture("frames", "--preset", "352x288", "--count", "10", "--virtual-time", "-o", video)
        #expect(output.exited && output.status == 1)
        #expect(output.stderr == "capture: \(video): disk full (kept 1 complete frame)\n")
    }

    /// The N of "(kept N complete frames)".
    static func keptCount(_ text: String, unit: String) -> Int? {
        guard let range = text.range(of: "(kept "), let end = text.range(of: " complete \(unit))") else { return nil }
        return Int(text[range.upperBound..<end.lowerBound])
    }
}
