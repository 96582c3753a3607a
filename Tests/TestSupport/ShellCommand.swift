import Foundation

/// Runs command lines through the shell with `popen`, for the tests in the vivid VM: its
/// minimal userland cannot run Foundation's Process (waiting for a child never returns).
package enum ShellCommand {
    /// Runs `command` (a shell command line) and returns what it printed, stdout and stderr,
    /// and its exit status (pclose's, 0 when it succeeded).
    package static func run(_ command: String) -> (output: String, status: Int32) {
        guard let pipe = popen(command + " 2>&1", "r") else { return ("popen failed", -1) }
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, pipe)
            if count <= 0 { break }
            output += chunk[0..<count]
        }
        let status = pclose(pipe)
        return (String(decoding: output, as: UTF8.self), status)
    }

    /// A word quoted for the shell.
    package static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
