import Foundation
import Testing
@testable import CaptureCore
@testable import MediaIO

@Suite("Y4M writer")
struct Y4MWriterTests {
    @Test("header, frame markers and planar 4:2:0 samples, NV12 de-interleaved")
    func writesPlanarFrames() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("y4m-\(UUID().uuidString).y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        let buffer = CVBuffer(format: .yuv420BiPlanarFullRange, width: 4, height: 2)
        let luma = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
        for x in 0..<4 { luma[x] = UInt8(10 + x); luma[buffer.bytesPerRow(0) + x] = UInt8(20 + x) }
        let chroma = buffer.planeAddress(1).assumingMemoryBound(to: UInt8.self)
        chroma[0] = 100; chroma[1] = 200; chroma[2] = 101; chroma[3] = 201
        let writer = try Y4MWriter(url: url, width: 4, height: 2, frameRate: (30, 1), fullRange: true)
        try writer.append(buffer)
        try writer.append(buffer)
        try writer.close()
        let data = try Data(contentsOf: url)
        let header = "YUV4MPEG2 W4 H2 F30:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\n"
        #expect(data.prefix(header.utf8.count) == Data(header.utf8))
        let frame = Array(data.dropFirst(header.utf8.count).prefix(6 + 12))
        #expect(Array(frame.prefix(6)) == Array("FRAME\n".utf8))
        #expect(Array(frame[6..<18]) == [10, 11, 12, 13, 20, 21, 22, 23, 100, 101, 200, 201])
        #expect(data.count == header.utf8.count + 2 * 18)
        #expect(writer.framesWritten == 2)
    }
}
