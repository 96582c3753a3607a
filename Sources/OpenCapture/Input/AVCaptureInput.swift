import Foundation
import Synchronization

/// A source of media for a session. Use `AVCaptureDeviceInput`.
open class AVCaptureInput: NSObject, @unchecked Sendable {
    /// Observers of the input (see `AVCaptureInput+KeyValueObserving.swift`).
    let inputKeyValueObservers = KeyValueObserverRegistry(label: "input")

    /// The input's streams of media; one video port for a camera, one audio port for a microphone.
    open var ports: [Port] { [] }

    /// One stream of media from an input.
    open class Port: NSObject, @unchecked Sendable {
        /// Posted (on the main queue, the port as object) when the port's
        /// `formatDescription` changes: its device switched `activeFormat`.
        public static let formatDescriptionDidChangeNotification = NSNotification.Name.AVCaptureInputPortFormatDescriptionDidChange

        private let enabled = Atomic<Bool>(true)
        /// Observers of the port (see `AVCaptureInput+KeyValueObserving.swift`).
        let portKeyValueObservers = KeyValueObserverRegistry(label: "inputPort")
        private weak var owner: AVCaptureInput?
        private let formatProvider: @Sendable () -> CMFormatDescription?

        private let storedMediaType: AVMediaType
        /// The media type of the stream.
        open var mediaType: AVMediaType { storedMediaType }
        private let storedClock: CMClock?
        /// The device's clock, on which completion-handler sync times are given.
        open var clock: CMClock? { storedClock }
        private let storedSourceDeviceType: AVCaptureDevice.DeviceType?
        /// The camera that produces the stream.
        open var sourceDeviceType: AVCaptureDevice.DeviceType? { storedSourceDeviceType }
        private let storedSourceDevicePosition: AVCaptureDevice.Position
        /// Where that camera faces.
        open var sourceDevicePosition: AVCaptureDevice.Position { storedSourceDevicePosition }

        package init(
            input: AVCaptureInput, mediaType: AVMediaType, clock: CMClock?,
            sourceDeviceType: AVCaptureDevice.DeviceType?, sourceDevicePosition: AVCaptureDevice.Position,
            formatDescription: @escaping @Sendable () -> CMFormatDescription?
        ) {
            self.owner = input
            self.storedMediaType = mediaType
            self.storedClock = clock
            self.storedSourceDeviceType = sourceDeviceType
            self.storedSourceDevicePosition = sourceDevicePosition
            self.formatProvider = formatDescription
        }

        /// The input the port belongs to.
        open var input: AVCaptureInput { owner! }

        /// The format of the media the port carries now (the device's active format).
        open var formatDescription: CMFormatDescription? { formatProvider() }

        /// Whether the port delivers media; a disabled port feeds no connection.
        open var isEnabled: Bool {
            get { enabled.load(ordering: .acquiring) }
            set {
                let observed = KeyValueChange.willChange(self, keys: ["enabled"])  // KVO: prior now, after on return
                defer { observed?.didChange() }
                enabled.store(newValue, ordering: .releasing)
            }
        }
    }
}

/// An input that captures from a device.
open class AVCaptureDeviceInput: AVCaptureInput, @unchecked Sendable {
    private let storedDevice: AVCaptureDevice
    /// The device the input captures from.
    open var device: AVCaptureDevice { storedDevice }
    private var videoPort: Port!
    /// A camera's metadata-object port, which feeds a metadata output (nil for a microphone).
    private var metadataPort: Port?
    private let minFrameDurationOverride = Mutex<CMTime>(.invalid)
    private let unifiedAutoExposureDefaults = Atomic<Bool>(false)
    /// `simulatedAperture` once set (AVCaptureDevice+CinematicVideo).
    let simulatedApertureValue = Mutex<Float?>(nil)
    /// Whether the device uses its auto-exposure defaults rather than the format's (iOS 12).
    open var unifiedAutoExposureDefaultsEnabled: Bool {
        get { unifiedAutoExposureDefaults.load(ordering: .acquiring) }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["unifiedAutoExposureDefaultsEnabled"])
            defer { observed?.didChange() }
            unifiedAutoExposureDefaults.store(newValue, ordering: .releasing)
        }
    }

    /// A cap on the device's frame rate for this input (iOS 13): while the input is in a
    /// running session the device streams no faster than one frame per this duration, even
    /// when its `activeVideoMinFrameDuration` allows more (the device's property keeps its
    /// value). `.invalid` (the default) means no override. Adding the input to a session
    /// resets it to `.invalid`, as on iOS: set it after `addInput(_:)`.
    open var videoMinFrameDurationOverride: CMTime {
        get { minFrameDurationOverride.withLock { $0 } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["videoMinFrameDurationOverride"])
            defer { observed?.didChange() }
            let value = newValue.isValid && newValue.isNumeric && newValue > .zero ? newValue : CMTime.invalid
            minFrameDurationOverride.withLock { $0 = value }
            for session in device.sessions where session.inputs.contains(where: { $0 === self }) {
                session.inputDidChangeFrameDurationOverride(self)
            }
        }
    }

    /// Back to no override (the input joined a session).
    func resetVideoMinFrameDurationOverride() { minFrameDurationOverride.withLock { $0 = .invalid } }

    /// Opens a device for capture.
    ///
    /// Throws `AVError.deviceNotConnected` when the device is gone,
    /// `AVError.applicationIsNotAuthorizedToUseDevice` when this process may not open it
    /// and `AVError.deviceInUseByAnotherApplication` when another program streams from it.
    /// `required`, so `Self(device:)` works in generic and extension code, as with the
    /// Objective-C initializer on Apple platforms.
    public required init(device: AVCaptureDevice) throws {
        guard device.isConnected else {
            throw AVError(.deviceNotConnected, "Cannot use \(device.localizedName): the device is not connected.")
        }
        do {
            try device.backend.checkAvailability()
        } catch .notAuthorized(let reason) {
            throw AVError(.applicationIsNotAuthorizedToUseDevice, "Access to \(device.localizedName) was denied: \(reason)")
        } catch .deviceInUse {
            throw AVError(.deviceInUseByAnotherApplication, "\(device.localizedName) is in use by another application.")
        } catch .deviceWasDisconnected {
            throw AVError(.deviceNotConnected, "Cannot use \(device.localizedName): the device is not connected.")
        } catch {
            throw AVError(.unknown, "Cannot use \(device.localizedName): \(error)")
        }
        self.storedDevice = device
        super.init()
        let core = device.core
        videoPort = Port(
            input: self, mediaType: core.isAudio ? .audio : .video, clock: CMClockGetHostTimeClock(),
            sourceDeviceType: device.deviceType, sourceDevicePosition: device.position,
            formatDescription: { [core] in
                core.formats[core.format.index].formatDescription
            })
        core.register(videoPort)
        if !core.isAudio {
            metadataPort = Port(
                input: self, mediaType: .metadataObject, clock: CMClockGetHostTimeClock(), sourceDeviceType: device.deviceType,
                sourceDevicePosition: device.position, formatDescription: { nil })
        }
    }

    /// Objective-C style factory, as `deviceInputWithDevice:error:`.
    open class func deviceInput(device: AVCaptureDevice) throws -> AVCaptureDeviceInput {
        try AVCaptureDeviceInput(device: device)
    }

    /// A camera's video port and its metadata-object port (as on iOS); a microphone's audio port.
    open override var ports: [Port] { metadataPort.map { [videoPort, $0] } ?? [videoPort] }

    /// Ports of constituent devices of a virtual device; a physical camera has just its own.
    open func ports(
        for mediaType: AVMediaType?, sourceDeviceType: AVCaptureDevice.DeviceType?,
        sourceDevicePosition: AVCaptureDevice.Position
    ) -> [Port] {
        ports.filter {
            (mediaType == nil || $0.mediaType == mediaType) && (sourceDeviceType == nil || $0.sourceDeviceType == sourceDeviceType)
                && (sourceDevicePosition == .unspecified || $0.sourceDevicePosition == sourceDevicePosition)
        }
    }

    open override var description: String { "<AVCaptureDeviceInput: \(device.localizedName)>" }

    // MARK: Apple-declared members overridable by subclasses (helpers in AVCaptureDeviceInput+Modes.swift)

    /// Whether the input records `multichannelAudioMode`; only `.none` on Linux.
    open func isMultichannelAudioModeSupported(_ multichannelAudioMode: AVCaptureMultichannelAudioMode) -> Bool {
        multichannelAudioMode == .none
    }

    /// The multichannel mode for recording (default `.none`). Setting an unsupported mode raises.
    open var multichannelAudioMode: AVCaptureMultichannelAudioMode {
        get { .none }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["multichannelAudioMode"])
            defer { observed?.didChange() }
            enforce { try setMultichannelAudioMode(newValue) }
        }
    }

    /// Whether the input can remove wind noise; `false` on Linux.
    open var isWindNoiseRemovalSupported: Bool { false }

    /// Whether wind-noise removal is on (default `false`). Turning it on unsupported raises.
    open var isWindNoiseRemovalEnabled: Bool {
        get { false }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["windNoiseRemovalEnabled"])
            defer { observed?.didChange() }
            enforce { try setWindNoiseRemovalEnabled(newValue) }
        }
    }

    /// Whether the input can apply the Cinematic video effect; `false` on Linux.
    open var isCinematicVideoCaptureSupported: Bool { false }

    /// Whether the Cinematic effect is applied (default `false`). Turning it on unsupported raises.
    open var isCinematicVideoCaptureEnabled: Bool {
        get { false }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["cinematicVideoCaptureEnabled"])
            defer { observed?.didChange() }
            enforce { try setCinematicVideoCaptureEnabled(newValue) }
        }
    }

    /// The simulated aperture of Cinematic video's depth of field (iOS 26): the value set,
    /// else the active format's `defaultSimulatedAperture` (0 here: no format has one).
    /// Setting it on a format without simulated apertures raises, as on iOS.
    open var simulatedAperture: Float {
        get { simulatedApertureValue.withLock { $0 } ?? device.activeFormat.defaultSimulatedAperture }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["simulatedAperture"])
            defer { observed?.didChange() }
            enforce { try setSimulatedAperture(newValue) }
        }
    }

    /// Whether the sound field can follow the camera's zoom; `false` on Linux.
    open var isAudioZoomSupported: Bool { false }

    /// Whether audio zoom is on (default `false`). Turning it on unsupported raises.
    open var isAudioZoomEnabled: Bool {
        get { false }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["audioZoomEnabled"])
            defer { observed?.didChange() }
            enforce { try setAudioZoomEnabled(newValue) }
        }
    }
}
