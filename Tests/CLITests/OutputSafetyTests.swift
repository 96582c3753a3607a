import Foundation
import Testing
import TestSupport

/// What `-o` names is written by the rules of the tool's `OutputTarget`: devices and FIFOs
/// are written as they are, an existing file only with --overwrite and then with its
/// permissions kept, a symbolic link stays a link, and `-` is standard output.
@Suite("capture outputs: devices, FIFOs, links, existing files and standard output", .serialized)
struct OutputSafetyTests {
    static let quick = ["--preset", "352x288", "--count", "2", "--virtual-time"]

    func status(_ path: String) -> stat {
        var result = stat()
        lstat(path, &result)
        return result
    }

    @Test("-o /dev/null writes to the device and leaves it a device, with or without --overwrite")
    func devNull() throws {
        for extra in [[], ["--overwrite"]] {
            let output = try ToolRunner.run("capture", ["frames"] + Self.quick + extra + ["-o", "/dev/null"])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.hasSuffix("to /dev/null\n"))
            #expect(status("/dev/null").st_mode & S_IFMT == S_IFCHR)
        }
    }

    @Test("frames refuses an existing file; --overwrite replaces it keeping its permissions, and a link stays a link")
    func existingFiles() throws {
        let sentinels = try Sentinels()
        defer { sentinels.remove() }
        let before = try sentinels.snapshot()
        for name in ["kept.y4m", "link.y4m"] {
            let output = try ToolRunner.run("capture", ["frames"] + Self.quick + ["-o", name], directory: sentinels.folder)
            #expect(output.status == 2 && output.stderr == "capture: '\(name)' exists (use --overwrite to replace it)\n")
        }
        #expect(try sentinels.snapshot() == before)
        let replaced = try ToolRunner.run("capture", ["frames"] + Self.quick + ["--overwrite", "-o", "kept.y4m"], directory: sentinels.folder)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(status(sentinels.regular).st_mode & 0o7777 == 0o640, "the permissions stay")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sentinels.regular)).starts(with: Data("YUV4MPEG2 ".utf8)))
        let throughLink = try ToolRunner.run("capture", ["frames"] + Self.quick + ["--overwrite", "-o", "link.y4m"], directory: sentinels.folder)
        #expect(throughLink.status == 0, "\(throughLink.stderr)")
        #expect(status(sentinels.link).st_mode & S_IFMT == S_IFLNK, "the link stays a link")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sentinels.linkTarget)).starts(with: Data("YUV4MPEG2 ".utf8)))
        let names = try FileManager.default.contentsOfDirectory(atPath: sentinels.folder.path)
        #expect(Set(names) == ["kept.y4m", "link.y4m", "target.y4m", "pipe.y4m", "folder.y4m"], "no temporary file left: \(names)")
    }

    @Test("record and photo refuse an existing file too, and --overwrite keeps a link and the permissions")
    func recordAndPhotoOverwrite() throws {
        let sentinels = try Sentinels()
        defer { sentinels.remove() }
        let before = try sentinels.snapshot()
        let record = ["record", "--preset", "352x288", "--duration", "0.3", "--virtual-time"]
        let photo = ["photo", "--virtual-time", "--settle", "0", "--preset", "352x288"]
        for command in [record, photo] {
            let refused = try ToolRunner.run("capture", command + ["-o", "link.y4m"], directory: sentinels.folder)
            #expect(refused.status == 2 && refused.stderr.contains("exists (use --overwrite"))
        }
        #expect(try sentinels.snapshot() == before)
        let recorded = try ToolRunner.run("capture", record + ["--overwrite", "-o", "link.y4m"], directory: sentinels.folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(status(sentinels.link).st_mode & S_IFMT == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sentinels.linkTarget)).dropFirst(4).starts(with: Data("ftyp".utf8)))
        let taken = try ToolRunner.run("capture", photo + ["--overwrite", "-o", "kept.y4m"], directory: sentinels.folder)
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(status(sentinels.regular).st_mode & 0o7777 == 0o640)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sentinels.regular)).starts(with: [0xFF, 0xD8]))
        let names = try FileManager.default.contentsOfDirectory(atPath: sentinels.folder.path)
        #expect(names.count == 5, "no temporary file left: \(names)")
    }

    @Test("a FIFO is written to its reader and stays a FIFO; without a reader it is refused at once")
    func fifo() throws {
        let sentinels = try Sentinels()
        defer { sentinels.remove() }
        let unread = try ToolRunner.run("capture", ["frames"] + Self.quick + ["-o", "pipe.y4m"], directory: sentinels.folder)
        #expect(unread.status == 2 && unread.stderr == "capture: cannot write 'pipe.y4m': it is a FIFO nobody reads\n")
        // ChildProcess drains cat as it goes: a full pipe would stop cat, and so the tool
        // writing to the FIFO.
        let reader = try ChildProcess("/bin/cat", [sentinels.fifo])
        // The tool opens the FIFO without blocking, so it needs a reader there first: cat
        // counts as one once it sits in open(2) waiting for a writer.
        try #require(eventually("cat is opening the FIFO") { Self.isInOpen(reader.pid) })
        let output = try ToolRunner.run("capture", ["frames"] + Self.quick + ["-o", "pipe.y4m"], directory: sentinels.folder)
        let data = try reader.wait().stdoutData
        #expect(output.status == 0, "\(output.stderr)")
        #expect(data.starts(with: Data("YUV4MPEG2 W352 H288 ".utf8)))
        #expect(data.count == data.firstIndex(of: 0x0A)! + 1 + 2 * (6 + 352 * 288 * 3 / 2))
        #expect(status(sentinels.fifo).st_mode & S_IFMT == S_IFIFO)
    }

    @Test("-o - writes Y4M or JPEG to standard output and the report to standard error; record refuses it")
    func standardOutput() throws {
        let frames = try ToolRunner.run("capture", ["frames"] + Self.quick + ["-o", "-"])
        #expect(frames.status == 0, "\(frames.stderr)")
        #expect(frames.stdoutData.starts(with: Data("YUV4MPEG2 W352 H288 ".utf8)))
        #expect(frames.stdoutData.count == frames.stdoutData.firstIndex(of: 0x0A)! + 1 + 2 * (6 + 352 * 288 * 3 / 2))
        #expect(frames.stderr.hasPrefix("wrote 2 frames") && frames.stderr.hasSuffix("to standard output\n"))
        let photo = try ToolRunner.run("capture", ["photo", "--virtual-time", "--settle", "0", "--preset", "352x288", "-o", "-"])
        #expect(photo.status == 0, "\(photo.stderr)")
        #expect(photo.stdoutData.starts(with: [0xFF, 0xD8]) && photo.stdoutData.suffix(2) == Data([0xFF, 0xD9]))
        #expect(photo.stderr.contains("JPEG") && photo.stderr.contains("to standard output"))
        let record = try ToolRunner.run("capture", ["record", "--duration", "1", "-o", "-"])
        #expect(record.status == 2 && record.stderr.contains("record cannot write to standard output"))
        #expect(record.stdoutData.isEmpty)
    }

    /// No SIGPIPE death: the write error is reported like any other.
    @Test("a reader that goes away: exit 1 and one line, not a signal")
    func closedPipe() throws {
        let out = Pipe()
        try out.fileHandleForReading.close()
        let ended = try ChildProcess(ToolRunner.executable("capture"), ["frames"] + Self.quick + ["-o", "-"], stdout: .handle(out.fileHandleForWriting))
            .wait()
        #expect(ended.exited && ended.status == 1)
        #expect(ended.stderr == "capture: standard output: the reader closed the pipe (after 0 complete frames)\n")
    }

    @Test("frames with --metadata - writes the JSON lines to standard output")
    func metadataToStandardOutput() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try ToolRunner.run("capture", ["frames"] + Self.quick + ["--metadata", "-", "-o", "f.y4m"], directory: folder)
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
    }

    /// The 1280x720 format listed first runs up to 60 fps; the binned one after it, 240.
    @Test("--size 1280x720 --fps 240 picks the 1280x720 format that runs at 240 fps")
    func sizeWithFrameRate() throws {
        let output = try ToolRunner.run(
            "capture", ["frames", "--size", "1280x720", "--fps", "240", "--count", "2", "--virtual-time", "-o", "-"])
        #expect(output.status == 0, "\(output.stderr)")
        let header = String(decoding: output.stdoutData.prefix(while: { $0 != 0x0A }), as: UTF8.self)
        #expect(header.hasPrefix("YUV4MPEG2 W1280 H720 F240:1 "), "\(header)")
        let refused = try ToolRunner.capture("frames", "--size", "1280x720", "--fps", "500", "-o", "-")
        #expect(refused.status == 2 && refused.stderr == "capture: --fps 500 is outside the 1280x720 formats' frame rates (1-60, 1-240 fps)\n")
    }
}

/// As a user without privileges, `-o /dev/null` works (it was once refused because the
/// tool wanted to create a file in /dev).
@Suite("capture as an unprivileged user")
struct UnprivilegedOutputTests {
    static let canSwitchUser = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")

    @Test("-o /dev/null as nobody", .enabled(if: canSwitchUser, "needs root and runuser to run as nobody"))
    func devNullAsNobody() throws {
        let output = try ToolRunner.run(
            "runuser", ["-u", "nobody", "--", ToolRunner.executable("capture").path, "frames"] + OutputSafetyTests.quick + ["-o", "/dev/null"],
            path: "/usr/sbin/runuser", directory: URL(fileURLWithPath: "/"))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.hasSuffix("to /dev/null\n"))
        let refused = try ToolRunner.run(
            "runuser", ["-u", "nobody", "--", ToolRunner.executable("capture").path, "frames"] + OutputSafetyTests.quick + ["-o", "/dev/x.y4m"],
            path: "/usr/sbin/runuser", directory: URL(fileURLWithPath: "/"))
        #expect(refused.status == 2 && refused.stderr == "capture: cannot write '/dev/x.y4m': folder '/dev' is not writable\n")
    }
}

extension OutputSafetyTests {
    /// Whether process `pid` is blocked in open(2)/openat(2): the first field of
    /// /proc/PID/syscall is the number of the system call it sleeps in.
    static func isInOpen(_ pid: Int32) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return false }
        #if arch(x86_64)
        let openCalls: Set<Substring> = ["2", "257"]  // open, openat
        #else
        let openCalls: Set<Substring> = ["56"]  // openat (the generic table)
        #endif
        return text.split(separator: " ").first.map(openCalls.contains) ?? false
    }
}
