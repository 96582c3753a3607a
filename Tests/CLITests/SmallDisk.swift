import Foundation

/// A tiny tmpfs mounted for one test, to fill a disk without filling the machine's. Mounting
/// needs root (CAP_SYS_ADMIN); where that is refused the tests that need one are skipped.
struct SmallDisk {
    let folder: URL

    /// Whether a tmpfs can be mounted here: tried once, with a probe mounted and unmounted.
    static let isAvailable: Bool = {
        guard geteuid() == 0, let disk = try? SmallDisk(kilobytes: 64) else { return false }
        disk.unmount()
        return true
    }()

    /// Mounts a tmpfs of `kilobytes` on a fresh temporary folder.
    init(kilobytes: Int) throws {
        folder = try ToolRunner.temporaryFolder()
        let output = try ToolRunner.run("mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder.path], path: "/bin/mount")
        guard output.status == 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSLocalizedDescriptionKey: "mount: \(output.stderr)"])
        }
    }

    /// Unmounts it and removes the folder.
    func unmount() {
        _ = try? ToolRunner.run("umount", [folder.path], path: "/bin/umount")
        try? FileManager.default.removeItem(at: folder)
    }

    var entries: [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] }
}
