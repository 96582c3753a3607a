import Foundation
import Testing

@testable import OpenCapture

/// A Live Photo movie ends once: its recorder core's phase decides whether `writeFile`
/// and `fail` still act, so `written` is left exactly once.
@Suite("Live Photo movie: ends once")
struct LivePhotoMovieTests {
    @Test("a movie whose still failed is not written afterwards: no file, its error kept, written left once")
    func failedMovieIsNotWritten() {
        let url = temporaryFile("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let movie = LivePhotoMovie(url: url, hevc: false, contentIdentifier: "test", rotationDegrees: 0, autoTrims: false)
        movie.fail(AVError(.unknown, "the still failed"))
        // Before the core was read, this left `written` a second time (a trap).
        movie.writeFile()
        #expect(movie.written.wait(timeout: .now()) == .success)
        #expect((movie.error as? AVError)?.code == .unknown)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("a movie without frames, written, fails with noDataCaptured once; a later fail changes nothing")
    func writtenMovieEndsOnce() {
        let url = temporaryFile("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let movie = LivePhotoMovie(url: url, hevc: false, contentIdentifier: "test", rotationDegrees: 0, autoTrims: false)
        movie.recorded.leave()
        movie.writeFile()
        #expect(movie.written.wait(timeout: .now()) == .success)
        // Before, this failed the written movie again and left both groups a second time (a trap).
        movie.fail(AVError(.unknown, "too late"))
        #expect((movie.error as? AVError)?.code == .noDataCaptured)
    }
}
