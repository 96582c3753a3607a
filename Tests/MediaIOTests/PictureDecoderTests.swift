import Foundation
import Testing
import TestSupport

@testable import MediaIO

@Suite("Picture decoder (scenes from files)")
struct PictureDecoderTests {
    /// Writes a 64×48 picture of one colour (a PPM made here, converted by ffmpeg) and decodes it.
    private func decode(extension ext: String, colour: [UInt8]) throws -> PictureDecoder.Picture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("picture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ppm = folder.appendingPathComponent("picture.ppm")
        var bytes = Array("P6\n64 48\n255\n".utf8)
        for _ in 0..<(64 * 48) { bytes += colour }
        try Data(bytes).write(to: ppm)
        let file = folder.appendingPathComponent("picture.\(ext)")
        let ffmpeg = try ChildProcess.run("/usr/bin/ffmpeg", ["-v", "error", "-i", ppm.path, "-y", file.path])
        #expect(ffmpeg.status == 0)
        return try PictureDecoder.decode(Data(contentsOf: file))
    }

    @Test func pngDecodesExactly() throws {
        let picture = try decode(extension: "png", colour: [0xC0, 0x30, 0x20])
        #expect(picture.width == 64 && picture.height == 48 && picture.rgb.count == 3 * 64 * 48)
        #expect(Array(picture.rgb[0..<3]) == [0xC0, 0x30, 0x20])
        #expect(Array(picture.rgb[(picture.rgb.count - 3)...]) == [0xC0, 0x30, 0x20])
    }

    @Test func jpegDecodesWithinCompressionError() throws {
        let picture = try decode(extension: "jpg", colour: [0x30, 0x80, 0xC0])
        #expect(picture.width == 64 && picture.height == 48)
        let centre = 3 * (24 * 64 + 32)
        let rgb = picture.rgb[centre..<(centre + 3)].map(Int.init)
        #expect(abs(rgb[0] - 0x30) <= 4 && abs(rgb[1] - 0x80) <= 4 && abs(rgb[2] - 0xC0) <= 4, "\(rgb)")
    }

    @Test func otherFilesAreRefused() {
        #expect(throws: PictureDecoder.Failure.self) { try PictureDecoder.decode(Data("GIF89a".utf8)) }
        #expect(throws: PictureDecoder.Failure.self) { try PictureDecoder.decode(Data([0x89, 0x50, 0x4E, 0x47, 0, 0])) }
    }
}
