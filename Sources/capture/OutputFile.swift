import Foundation

/// An open output, written by the rules of `OutputTarget`: a file the tool creates is
/// written under a staging name and put in place by `commit`; standard output, a device or
/// a FIFO is written directly. Writes report `errno` (`OutputError`), so that a full disk
/// is recognised and the partial piece can be cut off (`truncate`).
///
/// Not thread-safe: one thread (or serial queue) at a time.
final class OutputFile {
    let target: OutputTarget
    private var descriptor: Int32
    /// The staging file for a file the tool creates, nil when writing directly.
    private let staged: String?
    /// Bytes written so far.
    private(set) var size: Int64 = 0

    /// Opens the output, creating the staging file when the tool makes the file.
    init(_ target: OutputTarget) throws {
        self.target = target
        switch target.kind {
        case .standardOutput:
            descriptor = STDOUT_FILENO
            staged = nil
        case .special:
            // O_NONBLOCK so that a FIFO nobody reads fails now (ENXIO) instead of hanging;
            // no O_CREAT or O_TRUNC: what is there is written, never made or emptied.
            descriptor = open(target.path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            staged = nil
            guard descriptor >= 0 else {
                if errno == ENXIO { throw UsageError("cannot write \(ErrorText.quoted(target.name)): it is a FIFO nobody reads") }
                throw UsageError("cannot write \(ErrorText.quoted(target.name)): \(String(cString: strerror(errno)))")
            }
            var status = stat()
            // It was checked by name; refuse it if it became a regular file since.
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFREG else {
                close(descriptor)
                throw UsageError("\(ErrorText.quoted(target.name)) changed while starting; it was left alone")
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        case .newFile, .replacing:
            // No clean-up may see the temporary before it is locked (see StagingFiles).
            let folder = StagingFiles.holdFolder(of: target.path)
            defer { if folder >= 0 { close(folder) } }
            var path = target.stagingPath()
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor < 0 && errno == EEXIST {
                path = target.stagingPath()
                descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            }
            guard descriptor >= 0 else { throw OutputError(name: target.name, number: errno) }
            // The writer's lock (see StagingFiles): held until the descriptor closes.
            _ = flock(descriptor, LOCK_EX | LOCK_NB)
            staged = path
        }
    }

    deinit { discard() }

    /// Writes all of `data`.
    func write(_ data: Data) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw OutputError(name: target.name, number: errno)
                }
                offset += written
                size += Int64(written)
            }
        }
    }

    /// Cuts the file back to its first `length` bytes: the tool's own files only (a device
    /// or a pipe keeps what reached it). Returns whether it could.
    @discardableResult
    func truncate(to length: Int64) -> Bool {
        guard staged != nil, descriptor >= 0, ftruncate(descriptor, off_t(length)) == 0 else { return false }
        size = length
        return true
    }

    /// Finishes the output: a file the tool made is synced to disk and put in place (see
    /// `OutputTarget.install`).
    func commit() throws {
        guard descriptor >= 0 else { return }
        defer {
            if descriptor != STDOUT_FILENO { close(descriptor) }
            descriptor = -1
        }
        guard let staged else { return }
        guard fsync(descriptor) == 0 else {
            let number = errno
            unlink(staged)
            throw OutputError(name: target.name, number: number)
        }
        try target.install(staged)
    }

    /// Abandons the output: a file the tool made is removed; anything else is left as it is.
    func discard() {
        guard descriptor >= 0 else { return }
        if descriptor != STDOUT_FILENO { close(descriptor) }
        descriptor = -1
        if let staged { unlink(staged) }
    }
}
