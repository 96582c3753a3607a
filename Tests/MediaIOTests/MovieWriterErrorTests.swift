import CFFmpeg
import Foundation
import Testing
@testable import CaptureCore
@testable import MediaIO

/// What the writer refuses, and how failures are reported.
@Suite("Movie writer errors")
struct MovieWriterErrorTests {
    @Test("an existing file is refused and left alone")
    func existingFile() throws {
        let url = MovieFixture.temporaryURL("existing")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("keep me".utf8).write(to: url)
        #expect(throws: MovieWriterError.fileExists) {
            try MovieWriter(url: url, width: 640, height: 480, frameRate: 30)
        }
        #expect(try Data(contentsOf: url) == Data("keep me".utf8))
    }

    @Test("a folder that cannot hold the file gives .cannotOpen")
    func unwritableFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("movie-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer {
            chmod(folder.path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        let notAFolder = folder.appendingPathComponent("file")
        try Data().write(to: notAFolder)
        var urls = [
            folder.appendingPathComponent("missing/movie.mp4"),
            notAFolder.appendingPathComponent("movie.mp4"),
            URL(string: "https://example.com/movie.mp4")!,
        ]
        // Permissions do not stop root, which the test machines run as.
        if geteuid() != 0 {
            let readOnly = folder.appendingPathComponent("read-only")
            try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
            chmod(readOnly.path, 0o555)
            urls.append(readOnly.appendingPathComponent("movie.mp4"))
        }
        for url in urls {
            #expect {
                try MovieWriter(url: url, width: 640, height: 480, frameRate: 30)
            } throws: { error in
                guard case MovieWriterError.cannotOpen = error else { return false }
                return true
            }
        }
    }

    @Test("settings it cannot record are refused before a file is made", arguments: [
        (641, 480, 30.0, 0, 10.0, nil as Int?),
        (640, 0, 30, 0, 10, nil),
        (640, 480, 0, 0, 10, nil),
        (640, 480, .infinity, 0, 10, nil),
        (640, 480, 30, 45, 10, nil),
        (640, 480, 30, 0, .nan, nil),
        (640, 480, 30, 0, 10, 0),
    ])
    func invalidSettings(width: Int, height: Int, frameRate: Double, rotation: Int, interval: Double, bitRate: Int?) {
        let url = MovieFixture.temporaryURL("invalid")
        #expect {
            try MovieWriter(
                url: url, width: width, height: height, frameRate: frameRate, fragmentInterval: interval,
                rotationDegrees: rotation, bitRate: bitRate)
        } throws: { error in
            guard case MovieWriterError.invalidSettings = error else { return false }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("a frame of the wrong size or time is refused and the recording goes on")
    func refusedFrames() throws {
        let url = MovieFixture.temporaryURL("refused")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30)
        let buffer = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 640, height: 480)
        MovieFixture.paint(buffer, frame: 0)
        #expect(throws: MovieWriterError.invalidTimestamp) { try writer.append(buffer, presentationTime: .invalid) }
        try writer.append(buffer, presentationTime: CMTime(value: 100, timescale: 30))
        #expect(throws: MovieWriterError.invalidTimestamp) {
            try writer.append(buffer, presentationTime: CMTime(value: 100, timescale: 30))
        }
        #expect(throws: MovieWriterError.invalidTimestamp) {
            try writer.append(buffer, presentationTime: CMTime(value: 99, timescale: 30))
        }
        // Less than half a 1/90000 s tick later rounds to the same time.
        #expect(throws: MovieWriterError.invalidTimestamp) {
            try writer.append(buffer, presentationTime: CMTime(value: 100 * 3_000_000 + 1, timescale: 90_000_000))
        }
        #expect(throws: MovieWriterError.frameSizeMismatch) {
            try writer.append(CVBuffer(format: .yuv420BiPlanarVideoRange, width: 320, height: 240),
                              presentationTime: CMTime(value: 101, timescale: 30))
        }
        try writer.append(buffer, presentationTime: CMTime(value: 101, timescale: 30))
        #expect(writer.framesWritten == 2)
        try writer.finish()
        #expect(try MovieProbe(url).frames == 2)
    }

    @Test("after finish: append throws .notWriting, finish does nothing")
    func afterFinish() throws {
        let url = MovieFixture.temporaryURL("finished")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30)
        try MovieFixture.record(writer, frames: 3, format: .yuv420BiPlanarVideoRange)
        try writer.finish()
        #expect(throws: MovieWriterError.notWriting) {
            try MovieFixture.record(writer, frames: 1, from: 3, format: .yuv420BiPlanarVideoRange)
        }
        try writer.finish()
        #expect(writer.framesWritten == 3)
    }

    @Test("an empty recording is still a valid file")
    func emptyRecording() throws {
        let url = MovieFixture.temporaryURL("empty")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MovieWriter(url: url, width: 640, height: 480, frameRate: 30)
        try writer.finish()
        #expect(writer.recordedDuration == .zero)
        let probe = try MovieProbe(url)
        #expect(probe.codec == "h264")
        #expect((probe.frames ?? 0) == 0, "ffprobe leaves out the count when there is nothing to count")
    }

    @Test("ENOSPC and EDQUOT are .diskFull; other failures keep FFmpeg's message")
    func errorMapping() {
        #expect(MovieWriterError.writing(cffmpeg_averror(ENOSPC), "writing") == .diskFull)
        #expect(MovieWriterError.writing(cffmpeg_averror(EDQUOT), "writing") == .diskFull)
        #expect(MovieWriterError.writing(cffmpeg_averror(EIO), "writing a fragment") == .io("writing a fragment: Input/output error"))
        #expect(MovieWriterError.system(ENOSPC, opening: "/x") == .diskFull)
        #expect(MovieWriterError.system(EEXIST, opening: "/x") == .fileExists)
        #expect(MovieWriterError.system(EACCES, opening: "/x") == .cannotOpen("/x: Permission denied"))
    }
}
