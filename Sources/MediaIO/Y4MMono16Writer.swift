import Foundation

/// Writes 16-bit grey YUV4MPEG2 files (`C mono16`: little-endian samples, luma plane only),
/// which ffmpeg reads as gray16le: the format for raw Bayer mosaics. Like `Y4MWriter`, it
/// writes to a file or to a sink.
package final class Y4MMono16Writer {
    private let handle: FileHandle?
    private let sink: Y4MWriter.Sink
    private let width: Int
    private let height: Int
    package private(set) var framesWritten = 0
    package private(set) var bytesWritten = 0

    /// Creates (or truncates) the file and writes the stream header.
    package convenience init(url: URL, width: Int, height: Int, frameRate: (numerator: Int, denominator: Int)) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        try self.init(handle: handle, sink: { try handle.write(contentsOf: $0) }, width: width, height: height, frameRate: frameRate)
    }

    /// Writes the stream header to `sink`, which then receives every frame; `close` does
    /// nothing to it.
    package convenience init(sink: @escaping Y4MWriter.Sink, width: Int, height: Int, frameRate: (numerator: Int, denominator: Int)) throws {
        try self.init(handle: nil, sink: sink, width: width, height: height, frameRate: frameRate)
    }

    private init(handle: FileHandle?, sink: @escaping Y4MWriter.Sink, width: Int, height: Int, frameRate: (numerator: Int, denominator: Int)) throws {
        self.handle = handle
        self.sink = sink
        self.width = width
        self.height = height
        let header = "YUV4MPEG2 W\(width) H\(height) F\(frameRate.numerator):\(frameRate.denominator) Ip A1:1 Cmono16 XCOLORRANGE=FULL\n"
        try write(Data(header.utf8))
    }

    /// Appends one frame of `width`×`height` samples, row-major.
    package func append(_ samples: UnsafeBufferPointer<UInt16>) throws {
        precondition(samples.count == width * height, "frame size changed mid-stream")
        try write(Data("FRAME\n".utf8))
        var data = Data(count: 2 * samples.count)
        data.withUnsafeMutableBytes { out in
            for (i, sample) in samples.enumerated() { out.storeBytes(of: sample.littleEndian, toByteOffset: 2 * i, as: UInt16.self) }
        }
        try write(data)
        framesWritten += 1
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
