import Foundation

/// Runs a command-line client (exiftool, heif-info, python3 ...) and returns its standard
/// output; nil when it cannot start or exits with a failure.
func runTool(_ path: String, _ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self)
}

/// exiftool's tags of one file (`-j` output, numbers as numbers with `-n` in `arguments`).
func exiftoolTags(_ url: URL, _ arguments: [String] = []) -> [String: Any] {
    guard let text = runTool("/usr/bin/exiftool", ["-j"] + arguments + [url.path]),
        let files = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
    else { return [:] }
    return files.first ?? [:]
}

/// A fresh path in the temporary directory with `ext`, removed by the caller.
func temporaryFile(_ ext: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("oc-\(UUID().uuidString).\(ext)")
}
