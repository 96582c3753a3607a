import CaptureCore
import Foundation
import Testing
import TestSupport

@testable import MediaIO

/// The multi-scan refusal counts the primary image's scans only: an EXIF thumbnail (a whole
/// JPEG inside APP1) or an MPF image after the EOI has scan markers of its own, which made a
/// single-scan baseline photo count as multi-scan (issue 26).
@Suite("JPEG scan count")
struct JPEGScanCountTests {
    /// Runs a tool (30 s at most); returns its standard output.
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let outcome = try ChildProcess.run(tool, arguments, stderr: .discard, within: .seconds(30))
        try #require(outcome.status == 0, "\(tool) failed")
        return outcome.stdoutData
    }

    /// A baseline (single-scan) JPEG of testsrc2 made by ffmpeg.
    static func baseline(width: Int, height: Int) throws -> Data {
        try run(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height)", "-frames:v", "1", "-f", "mjpeg", "-"])
    }

    /// `jpeg` with an APP1 EXIF segment right after SOI whose IFD1 data is `thumbnail`.
    static func withThumbnail(_ jpeg: Data, _ thumbnail: Data) -> Data {
        // "Exif\0\0", a little-endian TIFF header, an empty IFD0, then the thumbnail's bytes.
        let payload = Data("Exif".utf8) + Data([0, 0, 0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + thumbnail
        let length = payload.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]) + payload + jpeg.dropFirst(2)
    }

    static func scans(_ data: Data) -> Int {
        [UInt8](data).withUnsafeBufferPointer { JPEGFrameHeader.scanCount($0) }
    }

    @Test("a baseline JPEG with an EXIF thumbnail, and with an MPF image after its EOI, is one scan")
    func thumbnailIsNotAScan() throws {
        let photo = try Self.baseline(width: 320, height: 240)
        let thumbnail = try Self.baseline(width: 80, height: 60)
        #expect(Self.scans(photo) == 1)
        #expect(Self.scans(thumbnail) == 1)
        let tagged = Self.withThumbnail(photo, thumbnail)
        #expect(Self.scans(tagged) == 1)
        #expect(Self.scans(tagged + thumbnail) == 1)
        // libjpeg-turbo reads the tagged file as the photo.
        let decoded = try JPEGEncoder.decode(tagged)
        #expect(CVPixelBufferGetWidth(decoded) == 320 && CVPixelBufferGetHeight(decoded) == 240)
    }

    @Test("a progressive JPEG still counts its many scans, with or without a thumbnail")
    func progressiveCountsEveryScan() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oc-scans-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = folder.appendingPathComponent("b.jpg")
        try Self.baseline(width: 320, height: 240).write(to: baseline)
        let progressive = try Self.run("/usr/bin/jpegtran", ["-progressive", baseline.path])
        let count = Self.scans(progressive)
        #expect(count > 1, "\(count) scans")
        #expect(Self.scans(Self.withThumbnail(progressive, try Self.baseline(width: 80, height: 60))) == count)
    }

    @Test("scans cut short or markers without lengths end the count, never read past the data")
    func truncatedDataIsBounded() throws {
        let photo = [UInt8](try Self.baseline(width: 64, height: 48))
        for length in stride(from: 0, through: photo.count, by: 7) {
            let count = Self.scans(Data(photo.prefix(length)))
            #expect(count <= 1)
        }
        #expect(Self.scans(Data([0xFF, 0xD8, 0xFF, 0xDA])) == 0)
        #expect(Self.scans(Data([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xDA, 0x00, 0x02])) == 2)
    }
}
