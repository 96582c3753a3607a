import Foundation
import Testing
import TestSupport

/// A run killed with SIGKILL cannot remove its temporary (`.NAME.capture-PID-XXXXXX.EXT`);
/// the next run in the folder does, and leaves a live concurrent run's temporary alone.
@Suite("capture: temporaries of killed runs", .serialized)
struct LeftoverTests {
    /// The tool's temporaries in `folder` for the output `name`.
    static func temporaries(of name: String, in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(".\(name).capture-") }
    }

    static func size(_ name: String, in folder: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0
    }

    /// Starts the tool in `folder` and returns once its temporary for `name` holds data.
    static func start(_ arguments: [String], writing name: String, in folder: URL, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> ChildProcess
    {
        let process = try ChildProcess(ToolRunner.executable("capture"), arguments, directory: folder, stdout: .discard, stderr: .discard)
        eventually("the temporary of \(name) holds data", checkingEvery: .milliseconds(10), sourceLocation: sourceLocation) {
            !process.isRunning || temporaries(of: name, in: folder).contains { size($0, in: folder) > 0 }
        }
        #expect(process.isRunning, "the tool ended early", sourceLocation: sourceLocation)
        return process
    }

    /// SIGKILL, and how the tool ended.
    @discardableResult
    static func kill9(_ process: ChildProcess) throws -> ChildProcess.Outcome {
        process.signal(SIGKILL)
        return try process.wait()
    }

    static let camera = ["--preset", "352x288"]

    @Test(
        "a killed frames, record --overwrite or audio --overwrite leaves a temporary that the next run removes; a live run's stays",
        arguments: [
            ["frames"] + camera + ["--count", "1000000", "--overwrite", "-o", "killed.y4m"],
            ["record"] + camera + ["--audio", "none", "--fragment", "0.1", "--overwrite", "-o", "killed.mp4"],
            ["audio", "--device", "sim:microphone", "--overwrite", "-o", "killed.wav"],
            ["audio", "--device", "sim:microphone", "--overwrite", "-o", "killed.m4a"],
        ])
    func killedRunsTemporaryIsRemoved(_ arguments: [String]) throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = try #require(arguments.last)
        // --overwrite replaces an existing file: the recording goes to a temporary first.
        try Data("old".utf8).write(to: folder.appendingPathComponent(name))
        let killed = try Self.start(arguments, writing: name, in: folder)
        #expect(try Self.kill9(killed).exited == false, "SIGKILL ends the tool")
        let left = Self.temporaries(of: name, in: folder)
        #expect(left.count == 1, "SIGKILL leaves the temporary: \(left)")
        #expect(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) == "old", "the old file is untouched")

        // A run in progress beside it: its temporary must survive the clean-up.
        let live = try Self.start(["frames"] + Self.camera + ["--count", "1000000", "-o", "live.y4m"], writing: "live.y4m", in: folder)
        defer { if live.isRunning { _ = try? Self.kill9(live) } }
        let liveTemporary = Self.temporaries(of: "live.y4m", in: folder)

        let next = try ToolRunner.run("capture", ["frames", "--count", "1", "-o", "next.y4m"] + Self.camera, directory: folder)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(Self.temporaries(of: name, in: folder).isEmpty, "the killed run's temporary is gone")
        #expect(Self.temporaries(of: "live.y4m", in: folder) == liveTemporary, "the live run's temporary is kept")
        #expect(live.isRunning)

        live.signal(SIGTERM)
        let ended = try live.wait()
        #expect(ended.exited && ended.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["live.y4m", name, "next.y4m"].sorted(), "nothing else is left: \(names)")
    }

    @Test("a temporary whose writer is alive but does not hold its lock is kept; other hidden files are never touched")
    func onlyDeadWritersTemporaries() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // This test process is alive: its PID in the name keeps the file.
        let mine = ".a.y4m.capture-\(getpid())-abc123.y4m"
        // No process has PID 2^22 + 1 (above Linux's largest pid_max).
        let dead = ".b.y4m.capture-4194305-abc123.y4m"
        let others = [".c.y4m.capture-abc123.y4m", ".d.y4m.capture-4194305-ABC123.y4m", ".capture-4194305-abc123", "e.y4m.capture-4194305-abc123.y4m"]
        for name in [mine, dead] + others { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        // A link named like a stale temporary is not followed or removed.
        let target = folder.appendingPathComponent("target")
        try Data("keep".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(".l.y4m.capture-4194305-abc123.y4m").path, withDestinationPath: target.path)

        let run = try ToolRunner.run("capture", ["frames", "--count", "1", "-o", "f.y4m"] + Self.camera, directory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(!names.contains(dead))
        #expect(names.isSuperset(of: [mine, "target", ".l.y4m.capture-4194305-abc123.y4m", "f.y4m"] + others), "\(names.sorted())")
    }

    /// A temporary named for a writer that is gone (no process has PID 2^22 + 1, above
    /// Linux's largest pid_max), as one in another PID namespace looks from here.
    static let foreign = ".x.y4m.capture-4194305-abc123.y4m"

    @Test("a temporary whose PID is dead but whose lock is held (a writer in another PID namespace) is kept; once let go, removed")
    func lockedTemporaryOfDeadPIDIsKept() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(Self.foreign).path
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        let writer = open(path, O_RDONLY | O_CLOEXEC)
        try #require(writer >= 0 && flock(writer, LOCK_EX | LOCK_NB) == 0)
        let run = try ToolRunner.run("capture", ["frames", "--count", "1", "-o", "f.y4m"] + Self.camera, directory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: path), "the locked temporary is kept")
        close(writer)
        let next = try ToolRunner.run("capture", ["frames", "--count", "1", "-o", "g.y4m"] + Self.camera, directory: folder)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path), "unlocked, with its writer gone, it is removed")
    }

    @Test("while a run is making its temporary (a shared lock on the folder), another run's clean-up leaves the folder alone")
    func cleanUpWaitsForTemporariesBeingMade() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(Self.foreign).path
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        // As a writer holds it between creating its temporary and locking it.
        let making = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(making >= 0 && flock(making, LOCK_SH | LOCK_NB) == 0)
        for (arguments, name) in [
            (["frames", "--count", "1"] + Self.camera, "f.y4m"),
            (["record", "--duration", "0.2", "--audio", "none"] + Self.camera, "r.mp4"),
            (["audio", "--device", "sim:microphone", "--duration", "0.1"], "a.wav"),
        ] {
            // --overwrite of an existing file: the run makes a temporary of its own beside it.
            try Data("old".utf8).write(to: folder.appendingPathComponent(name))
            let run = try ToolRunner.run("capture", arguments + ["--overwrite", "-o", name], directory: folder)
            #expect(run.status == 0, "\(arguments[0]): \(run.stderr)")
            #expect(Self.size(name, in: folder) > 3, "\(arguments[0]) replaced \(name)")
            #expect(FileManager.default.fileExists(atPath: path), "\(arguments[0]) left the folder alone")
        }
        close(making)
        let next = try ToolRunner.run("capture", ["frames", "--count", "1", "--overwrite", "-o", "f.y4m"] + Self.camera, directory: folder)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path), "with no run making a temporary, the stale one is removed")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["a.wav", "f.y4m", "r.mp4"], "nothing else is left: \(names)")
    }
}
