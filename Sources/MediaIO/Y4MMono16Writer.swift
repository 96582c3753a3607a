import Foundation

/// Writes 16-bit grey YUV4MPEG2 files (`C mono16`: little-endian samples, luma plane only),
/// which ffmpeg reads as gray16le: the format for raw Bayer mosaics.
package final class Y4MMono16Writer {
    private let handle: FileHandle
    private let width: Int
    private let height: Int
    package private(set) var framesWritten = 0
    package private(set) var bytesWritten = 0

    /// Creates (or truncates) the file and writes the stream header.
    package init(url: URL, width: Int, height: Int, frameRate: (numerator: Int, denominator: Int)) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        handle = try FileHandle(forWritingTo: url)
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
        try handle.write(contentsOf: data)
        bytesWritten += data.count
    }

    /// Flushes and closes the file.
    package func close() throws {
        try handle.synchronize()
        try handle.close()
    }
}
