import Foundation
import Testing
import TestSupport

/// Runs a command-line client (heif-info, python3 ...) through `ChildProcess` and returns its
/// standard output; nil when it cannot start or exits with a failure.
func runTool(_ path: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    guard let outcome = try? ChildProcess.run(path, arguments, stderr: .discard, sourceLocation: sourceLocation), outcome.succeeded else {
        return nil
    }
    return outcome.stdout
}

/// exiftool's tags of one file (`-j` output, numbers as numbers with `-n` in `arguments`).
func exiftoolTags(_ url: URL, _ arguments: [String] = []) -> [String: Any] {
    (try? ExifTool.tags(url.path, arguments)) ?? [:]
}

/// A fresh path in the temporary directory with `ext`, removed by the caller.
func temporaryFile(_ ext: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("oc-\(UUID().uuidString).\(ext)")
}

/// The width and height in a JPEG's first SOF marker; nil when there is none.
func jpegSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data)
    guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var offset = 2
    while offset + 9 < bytes.count, bytes[offset] == 0xFF {
        let marker = bytes[offset + 1]
        let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        if (0xC0...0xC2).contains(marker) {
            return (Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8]), Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]))
        }
        offset += 2 + length
    }
    return nil
}
