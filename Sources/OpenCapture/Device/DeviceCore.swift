import Foundation
import Synchronization

/// What all handles of one device share: the backend, the formats and the mutable state.
package final class DeviceCore: @unchecked Sendable {
    package let backend: any CaptureBackend
    package let descriptor: DeviceDescriptor
    package let formats: [AVCaptureDevice.Format]
    /// Whether the device is a microphone (its media type is audio).
    package let isAudio: Bool
    /// The registry that made the device (weak, set once): a device looks its constituents
    /// up there, and is re-made there, from any thread (`AVCaptureDevice.registry`).
    package private(set) weak var registry: DeviceRegistry?
    /// How many `lockForConfiguration()` calls are not yet balanced by an unlock.
    let configurationLocks = Mutex(0)
    /// How the camera is held or mounted (`physicalOrientation`).
    let physicalOrientation = Mutex(AVCaptureVideoOrientation.landscapeRight)
    /// Whether substantial scene changes post `subjectAreaDidChangeNotification`.
    let subjectAreaMonitoring = Mutex(false)
    /// The sessions that have the device as an input and the one streaming from it (weak).
    let sessionLinks = DeviceUnit(SessionLinks())
    /// Numbers control requests and completes their handlers frame by frame.
    let controls: ControlRequestQueue
    /// Key-value observers of every handle on the device.
    let keyValueObservers: KeyValueObserverRegistry
    // The settings by concern, each under its own lock (`DeviceUnit`).
    /// Active format, frame durations, colour space and video HDR.
    let format: DeviceUnit<FormatSettings>
    let exposure = DeviceUnit(ExposureSettings())
    let whiteBalance = DeviceUnit(WhiteBalanceSettings())
    let focus = DeviceUnit(FocusSettings())
    let torchFlash = DeviceUnit(TorchFlashSettings())
    /// Zoom and constituent switching with the newest frame they are read against.
    let zoom = DeviceUnit(ZoomAndSwitchingSettings())
    /// Photo outputs connected to the device, for their `isFlashScene`.
    let sceneMonitors = SceneMonitors()
    /// The ports of the device's inputs (weak), told when the active format changes.
    private let ports = Mutex<[WeakPort]>([])

    private struct WeakPort {
        weak var port: AVCaptureInput.Port?
    }

    /// Remembers an input's port, to post its format-description notification.
    func register(_ port: AVCaptureInput.Port) {
        ports.withLock { list in
            list.removeAll { $0.port == nil }
            list.append(WeakPort(port: port))
        }
    }

    /// The ports of the device's inputs that still exist.
    var livePorts: [AVCaptureInput.Port] { ports.withLock { $0.compactMap(\.port) } }

    package init(backend: any CaptureBackend, registry: DeviceRegistry? = nil) {
        self.backend = backend
        self.registry = registry
        self.descriptor = backend.descriptor
        if let microphone = backend as? any AudioCaptureBackend {
            // A microphone lists one format: its linear PCM (video properties of it are zero).
            self.formats = [AVCaptureDevice.Format(audio: microphone.audioFormat, index: 0)]
            isAudio = true
        } else {
            self.formats = backend.descriptor.formats.enumerated().map { AVCaptureDevice.Format(spec: $1, index: $0) }
            isAudio = false
        }
        self.format = DeviceUnit(FormatSettings(index: backend.descriptor.defaultFormatIndex))
        self.controls = ControlRequestQueue(label: backend.descriptor.uniqueID)
        self.keyValueObservers = KeyValueObserverRegistry(label: backend.descriptor.uniqueID)
    }
}
