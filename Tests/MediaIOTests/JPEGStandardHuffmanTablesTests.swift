import Foundation
import Testing
import TestSupport
@testable import MediaIO

/// Motion JPEG frames without Huffman tables become standalone JPEGs: the standard tables of
/// T.81 Annex K.3 go in, checked against ffmpeg, whose mjpeg encoder writes those same tables
/// with `-huffman default` (and optimal, file-specific ones otherwise).
@Suite("JPEG standard Huffman tables")
struct JPEGStandardHuffmanTablesTests {
    /// A temp dir of its own for each test's files.
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-dht-\(UUID().uuidString)")

    /// One testsrc frame from ffmpeg's mjpeg encoder.
    private func ffmpegJPEG(pixelFormat: String, huffman: String) throws -> [UInt8] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("\(pixelFormat)-\(huffman).jpg")
        let run = try ChildProcess.run(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc=size=96x64:rate=10", "-frames:v", "1",
             "-c:v", "mjpeg", "-huffman", huffman, "-pix_fmt", pixelFormat, "-f", "mjpeg", file.path],
            stderr: .discard, within: .seconds(60))
        try #require(run.succeeded, "ffmpeg failed")
        return [UInt8](try Data(contentsOf: file))
    }

    /// The picture ffmpeg decodes from `jpeg`, as RGB bytes.
    private func decoded(_ jpeg: [UInt8], name: String) throws -> Data {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name + ".jpg")
        try Data(jpeg).write(to: file)
        let run = try ChildProcess.run(
            "/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
            stderr: .discard, within: .seconds(60))
        try #require(run.succeeded, "ffmpeg could not decode \(name)")
        return run.stdoutData
    }

    @Test("each table's BITS count its HUFFVAL symbols, which are distinct; DC symbols are sizes 0-11")
    func tablesAreConsistent() {
        for table in JPEGStandardHuffmanTables.all {
            #expect(table.bits.count == 16)
            #expect(table.bits.reduce(0) { $0 + Int($1) } == table.values.count)
            #expect(Set(table.values).count == table.values.count)
        }
        #expect(JPEGStandardHuffmanTables.luminanceDC.values == Array(0...11) && JPEGStandardHuffmanTables.chrominanceDC.values == Array(0...11))
        #expect(JPEGStandardHuffmanTables.luminanceAC.values.count == 162 && JPEGStandardHuffmanTables.chrominanceAC.values.count == 162)
        #expect(JPEGStandardHuffmanTables.segment.count == 2 + 2 + 4 * 17 + 12 + 12 + 162 + 162)
    }

    @Test("a frame stripped of its tables gets the standard ones back: ffmpeg's file byte for byte, decoding to the same pixels",
          arguments: ["yuvj420p", "yuvj422p", "yuvj444p"])
    func restoresStandardTables(pixelFormat: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try ffmpegJPEG(pixelFormat: pixelFormat, huffman: "default")
        let stripped = MotionJPEGFrames.strippingHuffmanTables(original)
        #expect(stripped.count < original.count - 400, "ffmpeg's DHT segment was removed")
        let restored = try JPEGSegments.insertingStandardHuffmanTables(into: stripped)
        // ffmpeg writes the four standard tables in one DHT segment before SOF, as the insertion does.
        #expect(restored == original)
        let pixels = try decoded(original, name: "original")
        #expect(pixels.count == 96 * 64 * 3)
        #expect(try decoded(restored, name: "restored") == pixels)
    }

    @Test("a frame with tables of its own, even non-standard ones, is left byte for byte")
    func keepsOwnTables() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        for huffman in ["default", "optimal"] {
            let jpeg = try ffmpegJPEG(pixelFormat: "yuvj422p", huffman: huffman)
            #expect(try JPEGSegments.insertingStandardHuffmanTables(into: jpeg) == jpeg)
        }
    }

    @Test("without a SOF before the scan the tables go right before SOS; non-JPEG data and a missing scan throw")
    func placementAndErrors() throws {
        let scan: [UInt8] = [0xFF, 0xDA, 0, 2, 0x12, 0x34, 0xFF, 0xD9]
        let comment: [UInt8] = [0xFF, 0xFE, 0, 3, 0x41]
        let result = try JPEGSegments.insertingStandardHuffmanTables(into: [0xFF, 0xD8] + comment + scan)
        #expect(result == [0xFF, 0xD8] + comment + JPEGStandardHuffmanTables.segment + scan)
        #expect(throws: JPEGError.notJPEG) { try JPEGSegments.insertingStandardHuffmanTables(into: Array("GIF89a".utf8)) }
        #expect(throws: JPEGError.notJPEG) { try JPEGSegments.insertingStandardHuffmanTables(into: [0xFF, 0xD8] + comment + [0xFF, 0xD9]) }
        #expect(throws: JPEGError.notJPEG) { try JPEGSegments.insertingStandardHuffmanTables(into: [0xFF, 0xD8, 0xFF, 0xFE, 0, 9, 0x41]) }
    }
}
