import Foundation
import Synchronization

/// What all handles of one device share: the backend, the formats and the mutable state.
package final class DeviceCore: @unchecked Sendable {
    package let backend: any CaptureBackend
    package let descriptor: DeviceDescriptor
    package let formats: [AVCaptureDevice.Format]
    /// Whether the device is a microphone (its media type is audio).
    package let isAudio: Bool
    let state: Mutex<State>
    /// Numbers control requests and completes their handlers frame by frame.
    let controls: ControlRequestQueue
    /// Key-value observers of every handle on the device.
    let keyValueObservers: KeyValueObserverRegistry
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

    struct State {
        var lockCount = 0
        /// How the camera is held or mounted (`physicalOrientation`).
        var physicalOrientation = AVCaptureVideoOrientation.landscapeRight
        var activeFormatIndex: Int
        /// `.invalid` means the format's default.
        var requestedMinFrameDuration = CMTime.invalid
        var requestedMaxFrameDuration = CMTime.invalid
        var lastFrame = FrameMetadata()
        /// The white-balance mode last asked for, and the request that asked.
        var whiteBalanceMode = AVCaptureDevice.WhiteBalanceMode.continuousAutoWhiteBalance
        var whiteBalanceRequest: UInt64 = 0
        /// The exposure mode last asked for, and the request that asked.
        var exposureMode = AVCaptureDevice.ExposureMode.continuousAutoExposure
        var exposureRequest: UInt64 = 0
        var exposurePointOfInterest = CGPoint(x: 0.5, y: 0.5)
        var exposureTargetBias: Float = 0
        /// `.invalid` means the format's default.
        var activeMaxExposureDuration = CMTime.invalid
        var automaticallyEnablesLowLightBoost = false
        /// Whether substantial scene changes post `subjectAreaDidChangeNotification`.
        var isSubjectAreaChangeMonitoringEnabled = false
        /// Video HDR: whether the device adjusts it itself, else whether it is on.
        var automaticallyAdjustsVideoHDR = true
        var videoHDREnabled = false
        /// The raw `AVCaptureColorSpace` frames are rendered in.
        var activeColorSpace = 0
        /// Focus, zoom and torch settings (`LensSettings`).
        var lens = LensSettings()
        /// Face-driven focus and exposure (iOS 15.4): whether the device decides, and the
        /// values set when it does not.
        var faceDriven = FaceDrivenSettings()
        /// The deprecated device `flashMode`.
        var flashMode = AVCaptureDevice.FlashMode.off
        /// How a virtual device may switch constituents, and when (`.auto` if it has them).
        var switching = ConstituentSwitching()
        var sessions: [WeakSession] = []
        weak var streamingSession: AVCaptureSession?
    }

    struct WeakSession {
        weak var session: AVCaptureSession?
    }

    package init(backend: any CaptureBackend) {
        self.backend = backend
        self.descriptor = backend.descriptor
        if let microphone = backend as? any AudioCaptureBackend {
            // A microphone lists one format: its linear PCM (video properties of it are zero).
            self.formats = [AVCaptureDevice.Format(audio: microphone.audioFormat, index: 0)]
            isAudio = true
        } else {
            self.formats = backend.descriptor.formats.enumerated().map { AVCaptureDevice.Format(spec: $1, index: $0) }
            isAudio = false
        }
        self.state = Mutex(State(activeFormatIndex: backend.descriptor.defaultFormatIndex))
        self.controls = ControlRequestQueue(label: backend.descriptor.uniqueID)
        self.keyValueObservers = KeyValueObserverRegistry(label: backend.descriptor.uniqueID)
    }
}
