import Foundation

/// Where a command's output goes, worked out from the path before the camera starts, and
/// the rule for each case, so that no existing file is ever destroyed by accident:
///
/// - `-`: standard output (refused when it is a terminal).
/// - A device or FIFO (also through a symbolic link): opened and written as it is, never
///   created, truncated, replaced or removed. Block devices and sockets are refused.
/// - Nothing there: a new file. It is written under a temporary name beside it and linked
///   into place when complete, so a run that fails leaves nothing under the name (a killed
///   run's temporary is removed by the next run in the folder, see `StagingFiles`).
/// - An existing regular file (also through a symbolic link, which stays): refused without
///   `--overwrite`; with it, the new file is written beside the old one and renamed over it
///   when complete, with the old file's permissions and owner. A run that fails leaves the
///   old file as it was.
struct OutputTarget {
    enum Kind: Equatable {
        case standardOutput
        /// A character device or FIFO, e.g. "a character device".
        case special(String)
        case newFile
        /// An existing regular file, with the permission bits and owner it keeps.
        case replacing(mode: mode_t, owner: uid_t, group: gid_t)
    }

    /// The output as the user named it, for messages.
    let name: String
    /// What gets written: the path with its symbolic links resolved.
    let path: String
    let kind: Kind
    /// Device and inode of what exists there, to tell two names for one file apart.
    let identity: (device: UInt64, inode: UInt64)?

    /// Whether the tool creates the file (and so may truncate or remove it on failure).
    var isCreatedByUs: Bool {
        switch kind {
        case .newFile, .replacing: true
        case .standardOutput, .special: false
        }
    }

    /// Works out where `text` (the value of `option`) points and refuses what the rules
    /// above forbid, with a `UsageError` naming the file and why.
    static func check(_ text: String, option: String, overwrite: Bool) throws -> OutputTarget {
        if text == "-" {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw UsageError("\(option) -: standard output is a terminal; redirect it to a file or a pipe")
            }
            return OutputTarget(name: "standard output", path: "/dev/stdout", kind: .standardOutput, identity: nil)
        }
        let shown = ErrorText.quoted(text)
        var status = stat()
        guard lstat(text, &status) == 0 else {
            let number = errno
            guard number == ENOENT else { throw UsageError("cannot write \(shown): \(String(cString: strerror(number)))") }
            let folder = try checkFolder(of: text, shown: shown)
            // A run killed here before left its temporary behind: this run clears it.
            StagingFiles.removeStale(in: folder)
            let path = URL(fileURLWithPath: folder).appendingPathComponent(URL(fileURLWithPath: text).lastPathComponent).path
            return OutputTarget(name: text, path: path, kind: .newFile, identity: nil)
        }
        var path = text
        if status.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(text, nil) else {
                throw UsageError("cannot write \(shown): it is a symbolic link to a missing file; name the file itself")
            }
            path = String(cString: resolved)
            free(resolved)
            guard stat(path, &status) == 0 else { throw UsageError("cannot write \(shown): \(String(cString: strerror(errno)))") }
        }
        let identity = (UInt64(status.st_dev), UInt64(status.st_ino))
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard overwrite else { throw UsageError("\(shown) exists (use --overwrite to replace it)") }
            let folder = try checkFolder(of: path, shown: shown, why: " (the new file is written beside the old one first)")
            StagingFiles.removeStale(in: folder)
            return OutputTarget(
                name: text, path: path, kind: .replacing(mode: status.st_mode & 0o7777, owner: status.st_uid, group: status.st_gid),
                identity: identity)
        case S_IFCHR, S_IFIFO:
            guard access(path, W_OK) == 0 else { throw UsageError("cannot write \(shown): \(String(cString: strerror(errno)))") }
            let kind = status.st_mode & S_IFMT == S_IFCHR ? "a character device" : "a FIFO"
            return OutputTarget(name: text, path: path, kind: .special(kind), identity: identity)
        case S_IFDIR: throw UsageError("cannot write \(shown): it is a folder")
        case S_IFBLK: throw UsageError("cannot write \(shown): it is a block device, which capture does not write to")
        default: throw UsageError("cannot write \(shown): it is a socket")
        }
    }

    /// Whether `self` and `other` name the same file, directly or through links.
    func isSameFile(as other: OutputTarget) -> Bool {
        if kind == .standardOutput || other.kind == .standardOutput { return kind == other.kind }
        if let a = identity, let b = other.identity, a == b { return true }
        return Self.absolute(path) == Self.absolute(other.path)
    }

    /// A fresh name beside the file for writing it before it is complete (see `StagingFiles`).
    func stagingPath() -> String { StagingFiles.path(beside: path) }

    /// Puts the complete file at `staged` in place: renamed over the file it replaces (with
    /// that file's permissions and owner), or linked in as a new file (refusing, rather than
    /// replacing, a file that appeared there meanwhile). `staged` is gone afterwards.
    func install(_ staged: String) throws {
        defer { unlink(staged) }
        switch kind {
        case .replacing(let mode, let owner, let group):
            // Owner first: chown clears set-user-ID bits, which chmod then restores.
            _ = chown(staged, owner, group)
            guard chmod(staged, mode) == 0, rename(staged, path) == 0 else { throw OutputError(name: name, number: errno) }
        case .newFile:
            guard link(staged, path) == 0 else {
                let number = errno
                if number == EEXIST { throw UsageError("\(ErrorText.quoted(name)) appeared while capturing; it was left alone") }
                throw OutputError(name: name, number: number)
            }
        case .standardOutput, .special:
            break
        }
    }

    /// The folder the file goes in, with its links resolved; refuses one that is missing
    /// or not writable.
    private static func checkFolder(of path: String, shown: String, why: String = "") throws -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw UsageError("cannot write \(shown): folder \(ErrorText.quoted(folder)) does not exist")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw UsageError("cannot write \(shown): folder \(ErrorText.quoted(folder)) is not writable\(why)")
        }
        guard let resolved = realpath(folder, nil) else { return folder }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
