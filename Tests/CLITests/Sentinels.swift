import Foundation

/// Files that must survive the tool untouched: a regular file with odd permissions, a
/// symbolic link to another, a FIFO and a folder, in a folder of their own; `snapshot`
/// records what can change (inode, size, mode, modification time, contents, link target)
/// and the folder's listing, so that any file touched, replaced or left behind shows.
struct Sentinels {
    let folder: URL
    var regular: String { folder.appendingPathComponent("kept.y4m").path }
    var link: String { folder.appendingPathComponent("link.y4m").path }
    var linkTarget: String { folder.appendingPathComponent("target.y4m").path }
    var fifo: String { folder.appendingPathComponent("pipe.y4m").path }
    var subfolder: String { folder.appendingPathComponent("folder.y4m").path }

    struct Snapshot: Equatable, CustomStringConvertible {
        var files: [String: String]
        var description: String { files.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ") }
    }

    init() throws {
        folder = try ToolRunner.temporaryFolder()
        try Data("sentinel\n".utf8).write(to: URL(fileURLWithPath: regular))
        chmod(regular, 0o640)
        try Data("link target\n".utf8).write(to: URL(fileURLWithPath: linkTarget))
        guard symlink("target.y4m", link) == 0, mkfifo(fifo, 0o644) == 0, mkdir(subfolder, 0o755) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Every entry of the folder, with what a change to it would alter.
    func snapshot() throws -> Snapshot {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let path = folder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            var entry = "ino \(status.st_ino) size \(status.st_size) mode \(String(status.st_mode, radix: 8)) mtime \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
            switch status.st_mode & S_IFMT {
            case S_IFREG: entry += " data \(try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString())"
            case S_IFLNK: entry += " -> \((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")"
            default: break
            }
            files[name] = entry
        }
        return Snapshot(files: files)
    }
}
