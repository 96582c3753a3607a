import Foundation
import Synchronization

/// A camera: a simulated one, or a real one through V4L2.
///
/// There is one instance per device for the life of the process; `init?(uniqueID:)`,
/// `default(for:)` and discovery sessions hand out the same object.
///
/// Threads: every member may be used from any thread. Completion handlers of control
/// changes (exposure, white balance, focus) run on a serial queue of the device's, in
/// order, never on the capture thread; `wasConnected`/`wasDisconnected` and subject-area
/// notifications are posted on the main queue.
open class AVCaptureDevice: NSObject, @unchecked Sendable {
    /// The device's shared state; every `AVCaptureDevice` object for one device shares it.
    package let core: DeviceCore

    package var backend: any CaptureBackend { core.backend }
    package var descriptor: DeviceDescriptor { core.descriptor }

    /// All formats the device can stream, in the device's order.
    open var formats: [Format] { core.formats }

    package init(core: DeviceCore) {
        self.core = core
        super.init()
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVCaptureDevice else { return false }
        return other.core === core
    }

    open override var hash: Int { ObjectIdentifier(core).hashValue }

    // MARK: Identity

    /// Stays the same across reconnections and restarts.
    open var uniqueID: String { descriptor.uniqueID }
    /// The same for every device of one model.
    open var modelID: String { descriptor.modelID }
    /// A name to show people, e.g. "Back Camera".
    open var localizedName: String { descriptor.localizedName }
    /// The maker's name.
    open var manufacturer: String { descriptor.manufacturer }
    /// Where the camera faces.
    open var position: Position { Position(rawValue: descriptor.position) ?? .unspecified }
    /// The kind of camera.
    open var deviceType: DeviceType { DeviceType(rawValue: descriptor.deviceType) }
    /// Whether the device is attached; once false it never becomes true again.
    open var isConnected: Bool { backend.isConnected }
    /// Whether the device is suspended (a closed laptop lid); never on Linux so far.
    open var isSuspended: Bool { false }
    /// The lens's fixed f-number.
    open var lensAperture: Float { descriptor.lensAperture }

    /// Whether the device captures the media type (cameras video, microphones audio).
    open func hasMediaType(_ mediaType: AVMediaType) -> Bool { mediaType == (core.isAudio ? .audio : .video) }

    /// Whether a session with this device as input can use the preset (a microphone
    /// works with every preset, as on iOS: presets choose video formats).
    open func supportsSessionPreset(_ preset: AVCaptureSession.Preset) -> Bool {
        core.isAudio || preset == .inputPriority || descriptor.presetFormats[preset.rawValue] != nil
    }

    package func formatIndex(for preset: AVCaptureSession.Preset) -> Int? {
        descriptor.presetFormats[preset.rawValue]
    }

    open override var description: String {
        "<\(core.isAudio ? "AVCaptureFigAudioDevice" : "AVCaptureFigVideoDevice"): \(localizedName) [\(uniqueID)]>"
    }

    // MARK: Configuration lock

    /// Takes the lock that setters of device properties need.
    ///
    /// Locks nest within the process; each call needs one `unlockForConfiguration()`.
    open func lockForConfiguration() throws {
        guard isConnected else {
            throw AVError(.deviceNotConnected, "The device \(localizedName) is no longer connected.")
        }
        core.state.withLock { $0.lockCount += 1 }
    }

    /// Releases a lock taken with `lockForConfiguration()`.
    open func unlockForConfiguration() {
        core.state.withLock { $0.lockCount = max(0, $0.lockCount - 1) }
    }

    /// Whether this process holds the configuration lock (Linux addition).
    public var isLockedForConfiguration: Bool { core.state.withLock { $0.lockCount > 0 } }

    func requireLock(_ selector: String) throws(AVCaptureException) {
        guard isLockedForConfiguration else {
            throw AVCaptureException(
                .generic,
                selectorReason("AVCaptureDevice", selector, "May not be called without first successfully calling -lockForConfiguration:"))
        }
    }

    // MARK: Session link

    /// The sessions that have this device as an input (a device may be in several; only
    /// one at a time can stream from it).
    package var sessions: [AVCaptureSession] { core.state.withLock { $0.sessions.compactMap(\.session) } }

    package func attach(to session: AVCaptureSession) {
        core.state.withLock { state in
            state.sessions.removeAll { $0.session == nil || $0.session === session }
            state.sessions.append(DeviceCore.WeakSession(session: session))
        }
    }

    package func detach(from session: AVCaptureSession) {
        core.state.withLock { $0.sessions.removeAll { $0.session == nil || $0.session === session } }
    }

    /// Claims the device for streaming; false when another running session streams from it.
    package func claimStreaming(for session: AVCaptureSession) -> Bool {
        core.state.withLock { state in
            if let owner = state.streamingSession, owner !== session, owner.isRunning { return false }
            state.streamingSession = session
            return true
        }
    }

    package func releaseStreaming(by session: AVCaptureSession) {
        core.state.withLock { if $0.streamingSession === session { $0.streamingSession = nil } }
    }

    /// Called by the session's frame router with each frame's metadata.
    package func record(_ metadata: FrameMetadata) {
        let observed = watchFrameChanges()  // nil after one atomic load when nobody observes
        let scenes = core.sceneMonitors.watch()  // photo outputs' isFlashScene; [] likewise
        core.state.withLock { $0.lastFrame = metadata }
        noteSystemPressure(of: metadata)
        noteSubjectArea(of: metadata)
        core.controls.frameArrived(metadata)
        observed?.didChange(on: core.keyValueObservers.changeQueue)
        for scene in scenes { scene.didChange(on: core.keyValueObservers.changeQueue) }
    }

    /// The metadata of the newest frame the device produced.
    package var lastFrameMetadata: FrameMetadata { core.state.withLock { $0.lastFrame } }

    /// The exposure time of the newest frame.
    open var exposureDuration: CMTime {
        let seconds = lastFrameMetadata.exposureDuration
        return seconds > 0 ? CMTime(seconds: seconds, preferredTimescale: 1_000_000_000) : CMTime(value: 1, timescale: 30)
    }

    /// The ISO of the newest frame.
    open var iso: Float {
        let value = lastFrameMetadata.iso
        return value > 0 ? value : activeFormat.minISO
    }
}

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
