import Foundation
import Testing

@testable import MediaIO

/// FFmpeg is loaded when a movie is first written, not when the program starts: a process
/// that never records does not map libavformat and its ~135 dependencies.
@Suite("FFmpeg loading")
struct FFmpegLoadingTests {
    /// Whether the process has a file whose path contains `name` mapped. Read line by line:
    /// /proc files report a size of 0, so whole-file readers that trust the size read nothing.
    static func mapped(_ name: String) -> Bool {
        guard let maps = fopen("/proc/self/maps", "r") else { return false }
        defer { fclose(maps) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            if String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).contains(name) { return true }
        }
        return false
    }

    /// In a fresh process (an exit test): no FFmpeg at start, FFmpeg once a writer opens.
    @Test("no FFmpeg library is mapped until a movie writer opens")
    func loadedOnFirstUse() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            // libswiftCore is always mapped: proof the maps were read at all.
            guard FFmpegLoadingTests.mapped("libswiftCore.so") else { exit(2) }
            guard !FFmpegLoadingTests.mapped("libavformat.so"), !FFmpegLoadingTests.mapped("libavcodec.so") else { exit(3) }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("ffmpeg-loading-\(getpid()).mp4")
            defer { try? FileManager.default.removeItem(at: url) }
            let writer: MovieWriter
            do {
                writer = try MovieWriter(url: url, width: 64, height: 48, frameRate: 30)
            } catch {
                // Why, for the parent to show: it failed once on a busy machine (exit 4).
                FileHandle.standardError.write(Data("MovieWriter: \(error)\n".utf8))
                exit(4)
            }
            try? writer.finish()
            exit(FFmpegLoadingTests.mapped("libavformat.so") && FFmpegLoadingTests.mapped("libavcodec.so") ? 0 : 5)
        }
        if let result, result.exitStatus != .exitCode(0) {
            Issue.record("the child said: \(String(decoding: result.standardErrorContent, as: UTF8.self))")
        }
    }
}
