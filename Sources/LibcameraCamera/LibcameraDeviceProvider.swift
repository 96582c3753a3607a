import CaptureCore
import Dispatch
import Glibc
import Synchronization
import V4L2Camera

/// The libcamera cameras: what libcamera's CameraManager lists at the registry's first use
/// (through the plug-in, `LibcameraSystem`), each a `LibcameraCamera`, then followed
/// through hot-plug.
///
/// UVC webcams, which libcamera's UVC pipeline lists too (IDs ending in the USB
/// "vendor:product"), stay with the V4L2 backend so a webcam is not listed twice.
///
/// Hot-plug: libcamera lists only cameras udev has initialised and hears of changes from
/// udev's monitor, so where no udevd runs (containers) cameras plugged in later are not
/// found; a streaming camera unplugged there is still found gone by the plug-in's watch (a
/// media node vanished and requests stopped completing). With udevd: from libcamera 0.0.5
/// its manager runs for the process's life and announces cameras added and removed; before,
/// it runs only while used (`LibcameraSystem.keepsRunning`), and a media node appearing or
/// vanishing in /dev makes this provider look again. Either way the list is compared with
/// the cameras known: a new camera is reported added (plugged in again, it takes the place
/// of the disconnected one with the same unique ID), a missing one is disconnected
/// (`DisconnectReporting`). Changes are handled on a queue of its own: libcamera's thread,
/// which announces them, must not wait for itself.
package final class LibcameraDeviceProvider: DeviceProvider {
    private let cameras = Mutex<[LibcameraCamera]>([])
    private let system = Mutex<LibcameraSystem?>(nil)
    private let changes = DispatchQueue(label: "opencapture.libcamera.changes")
    private let report = Mutex<(@Sendable (DeviceChange) -> Void)?>(nil)
    private let monitor = Mutex<V4L2HotplugMonitor?>(nil)
    /// The process's libcamera (one CameraManager a process), made at the first use.
    private static let shared = Mutex<LibcameraSystem?>(nil)

    package init() {}

    private static func sharedSystem() -> LibcameraSystem {
        shared.withLock { system in
            if let system { return system }
            let made = LibcameraSystem()
            system = made
            return made
        }
    }

    /// Whether libcamera lists a camera it drives through a media-controller pipeline (any
    /// but a UVC webcam): the V4L2 backend then leaves media-controller nodes to it, so such
    /// a camera is listed once, here, rather than as each of its raw capture nodes. Starts
    /// libcamera when it has not started yet (without the plug-in or media devices: false);
    /// afterwards answers from the last lookup, which hot-plug renews.
    package static func listsPipelineCameras() -> Bool {
        sharedSystem().cachedCameras().contains { !isUVC($0.id) }
    }

    package func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] {
        let system = Self.sharedSystem()
        self.system.withLock { $0 = system }
        // Without udevd libcamera goes on listing a camera the plug-in's watch found gone:
        // the one named is disconnected whatever the list says.
        system.onRemoval { [weak self] id in
            guard let self else { return }
            changes.async { [weak self] in
                guard let self else { return }
                for camera in cameras.withLock({ $0.filter { $0.cameraID == id } }) { camera.markDisconnected() }
                lookAgain()
            }
        }
        system.onAddition { [weak self] _ in
            guard let self else { return }
            changes.async { [weak self] in self?.lookAgain() }
        }
        let found = system.cameras().compactMap { Self.camera($0, of: system) }
        cameras.withLock { $0 = found }
        // Changes are looked at from now on; where libcamera announces them, once more now
        // for any it announced while the list was made.
        self.report.withLock { $0 = report }
        if system.manager != nil, system.keepsRunning {
            changes.async { [weak self] in self?.lookAgain() }
        }
        system.idle()
        return found
    }

    package func startWatching() {
        guard let system = system.withLock({ $0 }), system.manager != nil, !system.keepsRunning else { return }
        monitor.withLock { monitor in
            guard monitor == nil else { return }
            monitor = V4L2HotplugMonitor(prefix: "media") { [weak self] change in
                guard let self else { return }
                if case .added = change {
                    changes.async { [weak self] in self?.lookAgainUntilOneIsNew() }
                } else {
                    changes.async { [weak self] in self?.lookAgain() }
                }
            }
        }
    }

    /// The camera libcamera lists as `info`, or nil for a UVC webcam or a camera without
    /// formats or controls.
    private static func camera(_ info: LibcameraCameraInfo, of system: LibcameraSystem) -> LibcameraCamera? {
        guard !isUVC(info.id) else { return nil }
        let formats = system.formats(of: info.id)
        guard !formats.isEmpty, let limits = system.limits(of: info.id) else { return nil }
        return LibcameraCamera(
            system: system, info: info, formats: formats, stills: system.stillFormats(of: info.id), raws: system.rawFormats(of: info.id),
            limits: limits)
    }

    /// A media node appeared: udevd handles it after devtmpfs made it, and libcamera lists
    /// only what udev initialised, so looks again for up to three seconds until a camera is new.
    private func lookAgainUntilOneIsNew() {
        for _ in 0..<10 {
            if lookAgain() { return }
            usleep(300_000)
        }
    }

    /// Compares libcamera's list with the cameras known (on `changes`): disconnects the
    /// missing ones and reports the new ones added; whether one was new.
    ///
    /// A disconnected camera is kept until libcamera no longer lists its ID: only then is
    /// the ID free for a camera plugged in again. Without udevd libcamera goes on listing a
    /// camera the plug-in's watch found gone, which must not come back as new.
    @discardableResult
    private func lookAgain() -> Bool {
        guard let system = system.withLock({ $0 }), let report = report.withLock({ $0 }) else { return false }
        defer { system.idle() }
        let listed = system.cameras().filter { !Self.isUVC($0.id) }
        let ids = Set(listed.map(\.id))
        for camera in cameras.withLock({ $0 }) where camera.isConnected && !ids.contains(camera.cameraID) {
            camera.markDisconnected()
        }
        let known = cameras.withLock { cameras in
            cameras.removeAll { !$0.isConnected && !ids.contains($0.cameraID) }
            return cameras
        }
        let knownIDs = Set(known.map(\.cameraID))
        let new = listed.filter { !knownIDs.contains($0.id) }.compactMap { Self.camera($0, of: system) }
        guard !new.isEmpty else { return false }
        cameras.withLock { $0 += new }
        report(.added(new))
        return true
    }

    /// libcamera's UVC pipeline names cameras "<bus path>-<vendor>:<product>" (4 hex digits each).
    static func isUVC(_ id: String) -> Bool {
        let tail = id.suffix(10)
        guard tail.count == 10, tail.first == "-" else { return false }
        let parts = tail.dropFirst().split(separator: ":")
        return parts.count == 2 && parts.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isHexDigit) }
    }
}
