import Foundation

/// A RIFF/WAVE file of 16-bit linear PCM, written as it records: the header's sizes are
/// placeholders until `finish()` fills them in (the file is a staging file until then).
final class WAVFile {
    private let handle: FileHandle
    private let rate: UInt32
    private let channels: UInt16
    private(set) var dataBytes = 0

    init(path: String, sampleRate: UInt32, channels: UInt16) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CommandFailure(message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        rate = sampleRate
        self.channels = channels
        try handle.write(contentsOf: header(dataBytes: 0))
    }

    /// The 44-byte canonical header: RIFF, a 16-byte `fmt ` chunk (format 1, PCM), `data`.
    private func header(dataBytes: Int) -> Data {
        var data = Data()
        func put32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func put16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        put32(UInt32(36 + dataBytes))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        put32(16)
        put16(1)
        put16(channels)
        put32(rate)
        put32(rate * UInt32(channels) * 2)
        put16(channels * 2)
        put16(16)
        data.append(contentsOf: Array("data".utf8))
        put32(UInt32(dataBytes))
        return data
    }

    func append(_ bytes: Data) throws {
        try handle.write(contentsOf: bytes)
        dataBytes += bytes.count
    }

    /// Writes the final sizes and closes the file.
    func finish() throws {
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: header(dataBytes: dataBytes))
        try handle.close()
    }
}
