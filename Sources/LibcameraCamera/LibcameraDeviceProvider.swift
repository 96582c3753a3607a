import CaptureCore
import Synchronization

/// The libcamera cameras: what libcamera's CameraManager lists at the registry's first use
/// (through the plug-in, `LibcameraSystem`), each a `LibcameraCamera`.
///
/// UVC webcams, which libcamera's UVC pipeline lists too (IDs ending in the USB
/// "vendor:product"), stay with the V4L2 backend so a webcam is not listed twice. A camera
/// libcamera reports removed (its udev monitor), or that the plug-in finds gone while
/// streaming (no udevd: a media node vanished and requests stopped completing), is
/// disconnected (`DisconnectReporting`). Cameras plugged in later are not added yet.
package final class LibcameraDeviceProvider: DeviceProvider {
    private let cameras = Mutex<[LibcameraCamera]>([])
    private let system = Mutex<LibcameraSystem?>(nil)
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
    /// libcamera when it has not started yet (without the plug-in or media devices: false).
    package static func listsPipelineCameras() -> Bool {
        sharedSystem().cameras().contains { !isUVC($0.id) }
    }

    package func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] {
        let system = Self.sharedSystem()
        self.system.withLock { $0 = system }
        system.onRemoval { [weak self] id in
            let gone = self?.cameras.withLock { $0.filter { $0.cameraID == id } } ?? []
            for camera in gone { camera.markDisconnected() }
        }
        let found = system.cameras().filter { !Self.isUVC($0.id) }.compactMap { info -> LibcameraCamera? in
            let formats = system.formats(of: info.id)
            guard !formats.isEmpty, let limits = system.limits(of: info.id) else { return nil }
            return LibcameraCamera(system: system, info: info, formats: formats, stills: system.stillFormats(of: info.id), limits: limits)
        }
        cameras.withLock { $0 = found }
        return found
    }

    /// libcamera's UVC pipeline names cameras "<bus path>-<vendor>:<product>" (4 hex digits each).
    static func isUVC(_ id: String) -> Bool {
        let tail = id.suffix(10)
        guard tail.count == 10, tail.first == "-" else { return false }
        let parts = tail.dropFirst().split(separator: ":")
        return parts.count == 2 && parts.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isHexDigit) }
    }
}
