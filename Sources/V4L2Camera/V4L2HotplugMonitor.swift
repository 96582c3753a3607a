import Foundation
import Glibc

/// Watches /dev for video nodes (or others named `prefix` and a number: media nodes for
/// libcamera) appearing and disappearing (inotify), as devtmpfs and udev create and remove
/// them on plug and unplug.
package final class V4L2HotplugMonitor: @unchecked Sendable {
    /// What happened to a node.
    package enum Change: Sendable, Equatable {
        case added(String)
        case removed(String)
    }

    private let fd: Int32
    private let prefix: String
    private let handler: @Sendable (Change) -> Void

    /// Starts watching; nil when inotify is unavailable. `handler` runs on the monitor's thread.
    package init?(
        directory: String = V4L2Discovery.deviceDirectory, prefix: String = "video", handler: @escaping @Sendable (Change) -> Void
    ) {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB)) >= 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.prefix = prefix
        self.handler = handler
        let thread = Thread { [self] in run(directory: directory) }
        thread.name = "OpenCapture.hotplug.\(prefix)"
        thread.start()
    }

    /// Reads events for the life of the process (the registry that owns this is process-wide).
    private func run(directory: String) {
        let capacity = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name = String(cString: (buffer + nameStart).assumingMemoryBound(to: CChar.self))
                offset = nameStart + Int(event.len)
                guard name.hasPrefix(prefix), Int(name.dropFirst(prefix.count)) != nil else { continue }
                let path = "\(directory)/\(name)"
                if event.mask & UInt32(IN_DELETE) != 0 {
                    handler(.removed(path))
                } else {
                    // A new node may not be usable until udev has set its permissions (IN_ATTRIB).
                    handler(.added(path))
                }
            }
        }
    }
}
