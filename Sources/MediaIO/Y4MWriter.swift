import CaptureCore
import Foundation
import ImageOps

/// Writes YUV4MPEG2 (.y4m) files that ffmpeg, mpv and x264 read.
///
/// Frames are stored as planar 4:2:0 ('C420jpeg' chroma siting). NV12 buffers are
/// de-interleaved on the way; BGRA buffers are converted to full-range 4:2:0 with BT.709,
/// since Y4M carries Y'CbCr only. The header records the range (XCOLORRANGE) so readers
/// interpret video-range and full-range samples correctly.
///
/// The bytes go to a file (`init(url:...)`) or to any sink (`init(sink:...)`), such as a
/// pipe or a device the caller opened; a sink's error stops the frame being written.
package final class Y4MWriter {
    /// Receives the bytes in order; it throws to report a failed write.
    package typealias Sink = (Data) throws -> Void

    private let handle: FileHandle?
    private let sink: Sink
    private let width: Int
    private let height: Int
    private var row: [UInt8]
    private var scratch: CVPixelBuffer?
    package private(set) var framesWritten = 0
    package private(set) var bytesWritten = 0

    /// Creates (or truncates) the file and writes the stream header.
    package convenience init(url: URL, width: Int, height: Int, frameRate: (numerator: Int, denominator: Int), fullRange: Bool) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        try self.init(handle: handle, sink: { try handle.write(contentsOf: $0) }, width: width, height: height, frameRate: frameRate, fullRange: fullRange)
    }

    /// Writes the stream header to `sink`, which then receives every frame; `close` does
    /// nothing to it (the caller owns what is behind it).
    package convenience init(sink: @escaping Sink, width: Int, height: Int, frameRate: (numerator: Int, denominator: Int), fullRange: Bool) throws {
        try self.init(handle: nil, sink: sink, width: width, height: height, frameRate: frameRate, fullRange: fullRange)
    }

    private init(handle: FileHandle?, sink: @escaping Sink, width: Int, height: Int, frameRate: (numerator: Int, denominator: Int), fullRange: Bool) throws {
        self.handle = handle
        self.sink = sink
        self.width = width
        self.height = height
        row = [UInt8](repeating: 0, count: max(width, 1))
        let range = fullRange ? "FULL" : "LIMITED"
        let header = "YUV4MPEG2 W\(width) H\(height) F\(frameRate.numerator):\(frameRate.denominator) Ip A1:1 C420jpeg XCOLORRANGE=\(range)\n"
        try write(Data(header.utf8))
    }

    /// Appends one frame; its size must match the header.
    package func append(_ buffer: CVPixelBuffer) throws {
        var source = buffer
        if buffer.format == .bgra {
            if scratch == nil { scratch = CVBuffer(format: .yuv420PlanarFullRange, width: width, height: height) }
            _ = ImageTransform.transform(buffer, into: scratch!, rotation: .none, mirrored: false)
            source = scratch!
        }
        precondition(source.width == width && source.height == height, "frame size changed mid-stream")
        try write(Data("FRAME\n".utf8))
        try writePlane(source, plane: 0, width: width, height: height, step: 1, offset: 0)
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        if source.format.planeCount == 2 {
            try writePlane(source, plane: 1, width: chromaWidth, height: chromaHeight, step: 2, offset: 0)
            try writePlane(source, plane: 1, width: chromaWidth, height: chromaHeight, step: 2, offset: 1)
        } else {
            try writePlane(source, plane: 1, width: chromaWidth, height: chromaHeight, step: 1, offset: 0)
            try writePlane(source, plane: 2, width: chromaWidth, height: chromaHeight, step: 1, offset: 0)
        }
        framesWritten += 1
    }

    private func writePlane(_ buffer: CVPixelBuffer, plane: Int, width: Int, height: Int, step: Int, offset: Int) throws {
        let base = buffer.planeAddress(plane).assumingMemoryBound(to: UInt8.self)
        let stride = buffer.bytesPerRow(plane)
        var data = Data(capacity: width * height)
        for y in 0..<height {
            let line = base + y * stride + offset
            if step == 1 {
                data.append(line, count: width)
            } else {
                for x in 0..<width { row[x] = line[x * step] }
                data.append(contentsOf: row[0..<width])
            }
        }
        try write(data)
    }

    private func write(_ data: Data) throws {
        try sink(data)
        bytesWritten += data.count
    }

    /// Flushes and closes the file (nothing for a sink).
    package func close() throws {
        guard let handle else { return }
        try handle.synchronize()
        try handle.close()
    }
}
