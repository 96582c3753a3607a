import Foundation
import Testing
@testable import CaptureCore
@testable import MediaIO

/// A recording that never reaches `finish` still plays up to its last complete fragment.
@Suite("Movie writer crash safety")
struct MovieWriterCrashTests {
    @Test("an unfinished writer's file plays up to the last fragment on disk")
    func unfinishedFilePlays() throws {
        let url = MovieFixture.temporaryURL("unfinished")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30, fragmentInterval: 1)
        try MovieFixture.record(writer, frames: 120, format: .yuv420BiPlanarVideoRange)

        // The encoder holds back 14 frames on two cores (look-ahead and frame threads), so
        // at least the first two fragments have been cut; the rest is still in memory.
        let fragments = writer.fragmentsWritten
        #expect(fragments >= 2)
        let partial = try MovieProbe(url)
        #expect(partial.codec == "h264")
        #expect(partial.frames == 30 * fragments)
        #expect(abs(partial.duration - Double(fragments)) < 0.001)
        #expect(try MovieFixture.topLevelBoxes(url).filter { $0 == "moof" }.count == fragments)

        try writer.finish()
        let whole = try MovieProbe(url)
        #expect(whole.frames == 120)
        #expect(abs(whole.duration - 4) < 0.001)
    }

    @Test("a recording process killed with SIGKILL leaves a playable file")
    func killedProcess() async throws {
        let url = MovieFixture.temporaryURL("killed")
        defer { try? FileManager.default.removeItem(at: url) }
        let path = url.path
        // The child records 4 s of media in one-second fragments and kills itself without
        // finishing: no trailer, no index, whatever the encoder and muxer held is lost.
        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String] in
            let writer = try MovieWriter(
                url: URL(fileURLWithPath: path), width: 640, height: 480, frameRate: 30, fragmentInterval: 1)
            try MovieFixture.record(writer, frames: 120, format: .yuv420BiPlanarVideoRange)
            kill(getpid(), SIGKILL)
        }
        let probe = try MovieProbe(url)
        #expect(probe.codec == "h264")
        #expect(probe.width == 640 && probe.height == 480)
        #expect((probe.frames ?? 0) >= 60)
        #expect(probe.duration >= 2)
        let boxes = try MovieFixture.topLevelBoxes(url)
        #expect(boxes.filter { $0 == "moof" }.count >= 2)
        #expect(!boxes.contains("mfra"), "the child never wrote the trailer")
    }
}
