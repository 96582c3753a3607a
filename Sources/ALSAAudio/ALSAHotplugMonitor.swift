import Foundation
import Glibc

/// Watches /dev/snd for capture PCM nodes (`pcmC<card>D<device>c`) and control nodes appearing and
/// disappearing (inotify), as devtmpfs creates and removes them when a card is plugged,
/// unplugged, its driver loaded or removed. /dev/snd itself exists only while some card
/// does, so /dev is watched for it too.
package final class ALSAHotplugMonitor: @unchecked Sendable {
    package static let directory = "/dev/snd"

    private let fd: Int32
    private let handler: @Sendable () -> Void
    private let parentWatch: Int32
    private let soundWatch = Mutex<Int32>(-1)

    /// Starts watching; nil when inotify is unavailable. `handler` runs on the monitor's
    /// thread after any capture or control node came or went.
    package init?(handler: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let parent = inotify_add_watch(fd, "/dev", UInt32(IN_CREATE | IN_DELETE))
        guard parent >= 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.parentWatch = parent
        self.handler = handler
        watchSoundDirectory()
        let thread = Thread { [self] in run() }
        thread.name = "OpenCapture.alsa.hotplug"
        thread.start()
    }

    private func watchSoundDirectory() {
        let watch = inotify_add_watch(fd, Self.directory, UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB))
        soundWatch.withLock { $0 = watch }
    }

    /// Whether a node's coming or going can change the capture PCMs: a capture PCM's node,
    /// or a card's control node. The control node counts because a card registers it after
    /// its PCMs, and discovery reads a card through it: a scan run on the PCM node's event
    /// alone can miss the card being plugged in.
    static func isRelevantNode(_ name: String) -> Bool {
        (name.hasPrefix("pcmC") && name.hasSuffix("c") && name.contains("D")) || name.hasPrefix("controlC")
    }

    /// Reads events for the life of the process (the registry that owns this is process-wide).
    private func run() {
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
            var changed = false
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name = event.len > 0 ? String(cString: (buffer + nameStart).assumingMemoryBound(to: CChar.self)) : ""
                offset = nameStart + Int(event.len)
                if event.wd == parentWatch {
                    // /dev/snd came (watch it; nodes made before the watch count as changes)
                    // or went (its nodes went with it).
                    if name == "snd" {
                        if event.mask & UInt32(IN_CREATE) != 0 { watchSoundDirectory() }
                        changed = true
                    }
                } else if Self.isRelevantNode(name) {
                    changed = true
                }
            }
            if changed { handler() }
        }
    }
}
