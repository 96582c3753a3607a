import Foundation
import Testing
import TestSupport

/// Exiting while a face detection runs: `frames --count 1 --metadata --types face` ends
/// right after the first frame, while OpenCV (loaded at run time by the face-detector
/// plugin) may still be reading it. The session's stop waits for that detection, so the
/// process never tears OpenCV down under it (it died of SIGSEGV in 10 of 21 runs before).
@Suite("capture: exit with detection in flight", .tags(.slow))
struct MetadataExitLoopTests {
    /// scikit-image's photo of Eileen Collins (PyPI, installed by install-deps): a face to find.
    private static var astronaut: String {
        let run = try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import os, skimage.data; print(os.path.dirname(skimage.data.__file__))"])
        let folder = (run?.stdout ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return folder + "/astronaut.png"
    }

    static let runs = 200
    /// Runs at once: enough to keep both cores busy, few enough that each stays short.
    static let parallel = 4

    @Test("frames --count 1 --metadata --types face exits cleanly 200 times out of 200")
    func exitRightAfterFirstFrame() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = Self.astronaut
        try #require(FileManager.default.fileExists(atPath: picture), "scikit-image's astronaut.png")
        let lock = NSLock()
        nonisolated(unsafe) var outcomes: [(index: Int, output: ToolRunner.Output)] = []
        nonisolated(unsafe) var next = 0
        let done = DispatchSemaphore(value: 0)
        // Threads, not a dispatch queue: the global pool has as many threads as cores.
        for _ in 0..<Self.parallel {
            Thread {
                defer { done.signal() }
                while true {
                    let index = lock.withLock {
                        defer { next += 1 }
                        return next
                    }
                    guard index < Self.runs else { return }
                    let arguments = [
                        "frames", "--preset", "352x288", "--scene", "image:\(picture)", "--count", "1",
                        "-o", folder.appendingPathComponent("f\(index).y4m").path,
                        "--metadata", folder.appendingPathComponent("f\(index).jsonl").path, "--types", "face",
                    ]
                    let output = (try? ToolRunner.run("capture", arguments)) ?? ToolRunner.Output(status: -1, exited: false, stderrData: Data("could not start".utf8))
                    lock.withLock { outcomes.append((index, output)) }
                }
            }.start()
        }
        for _ in 0..<Self.parallel { done.wait() }
        let results = lock.withLock { outcomes }
        #expect(results.count == Self.runs)
        let failed = results.filter { !$0.output.exited || $0.output.status != 0 }
        let example = failed.first.map { "run \($0.index): \($0.output.exited ? "status" : "signal") \($0.output.status) \($0.output.stderr)" } ?? ""
        #expect(failed.isEmpty, "\(failed.count) of \(Self.runs) runs failed, e.g. \(example)")
    }
}
