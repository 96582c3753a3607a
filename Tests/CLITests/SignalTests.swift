import Foundation
import Testing
import TestSupport

/// Signals end a run cleanly: frames keeps what it captured, photo leaves nothing. The tool
/// is started by Foundation's Process (inside `ChildProcess`), which passes on the spawning thread's blocked
/// signals, so these also check that the tool unblocks them.
@Suite("capture and signals", .serialized)
struct SignalTests {
    /// Starts the tool in `folder`, sends `number` once `ready` holds for it (checked every
    /// 10 ms), and waits for the end (20 s at most).
    static func interrupt(
        _ arguments: [String], in folder: URL, with number: Int32, sourceLocation: SourceLocation = #_sourceLocation,
        when ready: (ChildProcess) -> Bool
    ) throws -> ChildProcess.Outcome {
        // A suite started in the background (nohup, `cmd &` in a script) ignores SIGINT and
        // SIGQUIT, and a child inherits what is ignored: give the tool the default, as a
        // terminal gives it.
        signal(number, SIG_DFL)
        let process = try ChildProcess(ToolRunner.executable("capture"), arguments, directory: folder, stdout: .discard, stderr: .discard)
        eventually("the tool got going", checkingEvery: .milliseconds(10), sourceLocation: sourceLocation) {
            ready(process) || !process.isRunning
        }
        process.signal(number)
        return try process.wait(within: .seconds(20), sourceLocation: sourceLocation)
    }

    /// Seconds of CPU the process has used (utime + stime of /proc/PID/stat).
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return 0 }
        // After the command's name in parentheses: state is field 3, utime 14, stime 15.
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The bytes in the folder's files (the tool's output, under whatever temporary name).
    static func bytes(in folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { total, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size]) as? Int
            return total + (size ?? 0)
        }
    }

    @Test("SIGTERM stops frames early; the file holds the complete frames and no temporary file is left")
    func framesStoppedBySIGTERM() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ended = try Self.interrupt(
            ["frames", "--preset", "352x288", "--count", "100000", "-o", "f.y4m"], in: folder, with: SIGTERM
        ) { _ in Self.bytes(in: folder) > 3 * (6 + 352 * 288 * 3 / 2) }
        #expect(ended.exited && ended.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f.y4m"])
        let data = try Data(contentsOf: folder.appendingPathComponent("f.y4m"))
        let header = try #require(data.firstIndex(of: 0x0A)) + 1
        let frameSize = 6 + 352 * 288 * 3 / 2
        #expect(data.count > header && (data.count - header) % frameSize == 0, "whole frames only (\(data.count) bytes)")
    }

    @Test("SIGINT while a photo settles leaves no file")
    func photoInterrupted() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Settling 10,000 frames takes minutes; a quarter of a second of CPU means the
        // session is running and rendering them.
        let ended = try Self.interrupt(["photo", "--settle", "10000", "-o", "p.jpg"], in: folder, with: SIGINT) { process in
            Self.cpuSeconds(process.pid) >= 0.25
        }
        #expect(!ended.exited && ended.status == SIGINT)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
