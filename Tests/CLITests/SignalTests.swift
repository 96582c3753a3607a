import Foundation
import Testing

/// Signals end a run cleanly: frames keeps what it captured, photo leaves nothing. The tool
/// is started by Foundation's Process, which passes on the spawning thread's blocked
/// signals, so these also check that the tool unblocks them.
@Suite("capture and signals", .serialized)
struct SignalTests {
    /// Starts the tool in `folder`, sends `number` after `delay` seconds, waits for the end.
    static func interrupt(_ arguments: [String], in folder: URL, with number: Int32, after delay: Double) throws -> Process {
        let process = Process()
        process.executableURL = ToolRunner.executable("capture")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, number)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process
    }

    @Test("SIGTERM stops frames early; the file holds the complete frames and no temporary file is left")
    func framesStoppedBySIGTERM() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try Self.interrupt(
            ["frames", "--preset", "352x288", "--count", "100000", "-o", "f.y4m"], in: folder, with: SIGTERM, after: 2)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
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
        let process = try Self.interrupt(["photo", "--settle", "10000", "-o", "p.jpg"], in: folder, with: SIGINT, after: 2)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
