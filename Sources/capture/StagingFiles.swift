import Foundation

/// The temporary files the tool writes beside an output until it is complete,
/// `.NAME.capture-PID-XXXXXX.EXT`, and the removal of those a killed run left behind.
///
/// A run that is killed (SIGKILL, a crash, the machine losing power) cannot remove its
/// temporary, so the next run that writes in the same folder does: it removes each of
/// the tool's temporaries there whose writer is gone. Two things say a writer is alive, and
/// either keeps its temporary: the PID in the name belongs to a running process, or someone
/// holds an flock(2) on the file (every writer locks its temporary while writing; the lock
/// also covers a writer in another PID namespace sharing the folder). A PID reused by
/// another process only keeps a stale file until a run after that process ends.
///
/// A temporary exists a moment before its writer locks it (the writer creates it: the MP4
/// writer refuses a file that exists). So a run holds a shared flock on the folder from
/// before its temporary is made until it holds the temporary's own lock (`holdFolder`), and
/// a clean-up takes the folder's lock exclusively without waiting: while any run is making
/// a temporary there, the clean-up leaves the folder to a later run.
enum StagingFiles {
    /// The tag between an output's name and the writer's PID.
    private static let tag = ".capture-"

    /// A fresh name beside `path`: `.NAME.capture-PID-XXXXXX.EXT` in the same folder (so a
    /// rename can put the file in place), naming this process as its writer.
    static func path(beside path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let suffix = String((0..<6).map { _ in letters.randomElement()! })
        // The extension stays last: some writers check it (FFmpeg's M4A muxer warns otherwise).
        let ext = url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"
        let name = ".\(url.lastPathComponent)\(tag)\(getpid())-\(suffix)\(ext)"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The PID of the writer a file name of the tool's temporaries names, or nil when the
    /// name is not one of them.
    static func writer(ofName name: String) -> pid_t? {
        guard name.hasPrefix("."), let tagged = name.range(of: tag, options: .backwards), tagged.lowerBound > name.index(after: name.startIndex)
        else { return nil }
        let rest = name[tagged.upperBound...]
        let core = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = core.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 6, parts[1].allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }),
            parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let pid = pid_t(parts[0]), pid > 0
        else { return nil }
        return pid
    }

    /// Removes the tool's temporaries in `folder` whose writer is gone (see above); returns
    /// their names. Only this user's regular files are touched, never through a link.
    @discardableResult
    static func removeStale(in folder: String) -> [String] {
        let guarding = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if guarding >= 0 { close(guarding) } }
        // A run is making a temporary here (see above); a filesystem without flock(2) on
        // folders has only the temporaries' own locks.
        if guarding >= 0 && flock(guarding, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { name in
            guard let pid = writer(ofName: name), kill(pid, 0) != 0, errno == ESRCH else { return false }
            return removeIfUnlocked(URL(fileURLWithPath: folder).appendingPathComponent(name).path)
        }
    }

    /// Keeps clean-ups out of the folder of `path` (a temporary about to be made) until the
    /// returned descriptor is closed: hold it until the temporary is locked. -1 if the
    /// folder cannot be locked (a clean-up then relies on the temporary's own lock).
    static func holdFolder(of path: String) -> Int32 {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        // Waits: a clean-up holds the lock only while it looks through the folder.
        while flock(descriptor, LOCK_SH) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                return -1
            }
        }
        return descriptor
    }

    /// Takes the writer's lock on a temporary this process has just made; the returned
    /// descriptor holds it until closed (or the process ends). -1 if it could not.
    static func lock(_ path: String) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    /// Removes `path` if it is this user's regular file and nobody holds its lock.
    private static func removeIfUnlocked(_ path: String) -> Bool {
        // O_NOFOLLOW: a link is not ours to follow; O_NONBLOCK: a FIFO put there never blocks.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG, opened.st_uid == getuid(),
            flock(descriptor, LOCK_EX | LOCK_NB) == 0
        else { return false }
        // Still the file that was locked (not one put under the name meanwhile).
        var named = stat()
        guard lstat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino else { return false }
        return unlink(path) == 0
    }
}
