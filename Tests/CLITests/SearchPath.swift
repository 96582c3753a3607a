import Foundation

/// Finds a program as the shell would, on `PATH` and then in the folders given.
enum SearchPath {
    static func find(_ program: String, also folders: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map(String.init) + folders
        return candidates.map { $0 + "/" + program }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
