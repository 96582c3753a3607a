import Foundation

/// Key-value observation of a device.
///
/// Threads: a change made by a setter (`videoZoomFactor`, `focusMode`, `exposureMode`,
/// `whiteBalanceMode`, `torchMode`, `activeFormat`, `isSubjectAreaChangeMonitoringEnabled`,
/// a zoom ramp's start or cancel) notifies on the thread that set it, before the setter
/// returns. Changes the camera makes itself (auto exposure, focus and white balance
/// converging, the lens moving, a zoom ramp's steps, the torch, system pressure rising,
/// unplugging) notify on the device's private serial queue "OpenCapture.kvo.<uniqueID>",
/// in order, never on the capture thread. All handles on one device share the observers.
extension AVCaptureDevice: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { core.keyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureDevice.self))

    /// Every observable key of a device, with Apple's key string. Each topic lists its own
    /// keys in its extension file (`exposureObservableKeys` in +Exposure, ...); this order is
    /// the order camera-driven changes are announced in.
    static func observableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.isConnected, "connected"),
            ObservableKey(\Root.isSuspended, "suspended"),
        ] + formatObservableKeys(Root.self) + focusObservableKeys(Root.self) + exposureObservableKeys(Root.self)
            + whiteBalanceObservableKeys(Root.self) + zoomObservableKeys(Root.self) + torchObservableKeys(Root.self)
            + lowLightBoostObservableKeys(Root.self) + videoHDRObservableKeys(Root.self) + subjectAreaObservableKeys(Root.self) + [
            // A virtual device's constituent follows the frames (the per-frame watch finds it).
            ObservableKey(\Root.activePrimaryConstituent, "activePrimaryConstituentDevice"),
            ObservableKey(\Root.physicalOrientation, "physicalOrientation"),
            ObservableKey(\Root.transportControlsSupported, "transportControlsSupported"),
            ObservableKey(\Root.transportControlsPlaybackMode, "transportControlsPlaybackMode"),
            ObservableKey(\Root.transportControlsSpeed, "transportControlsSpeed"),
            ObservableKey(\Root.systemPressureState, "systemPressureState") {
                $0.level == $1.level && $0.factors == $1.factors
            },
            ObservableKey(\Root.formats, "formats") { $0.elementsEqual($1, by: ===) },
            // Camera effects and reactions: no Linux format supports them, so they stay
            // false and empty; the frame watch would find a change (they follow the format).
            ObservableKey(\Root.isCenterStageActive, "centerStageActive"),
            ObservableKey(\Root.isPortraitEffectActive, "portraitEffectActive"),
            ObservableKey(\Root.canPerformReactionEffects, "canPerformReactionEffects"),
            ObservableKey(\Root.availableReactionTypes, "availableReactionTypes"),
            ObservableKey(\Root.reactionEffectsInProgress, "reactionEffectsInProgress") {
                $0.map(\.reactionType) == $1.map(\.reactionType)
            },
        ] + (AVCaptureDevice.self as any DeprecatedDeviceKeys.Type).deprecatedObservableKeys(Root.self)
    }

    /// Announces the camera-driven changes a frame brought (see `record(_:)`): nil, after
    /// one atomic load, when nobody observes the device.
    func watchFrameChanges() -> KeyValueChange? { KeyValueChange.watch(self, keys: Self.frameDrivenKeys) }

    /// Keys only a setter changes (it announces them itself): the per-frame watch skips them,
    /// so a rotation coordinator observing `physicalOrientation` costs the frame path nothing.
    private static let setterOnlyKeys: Set<String> = [
        "physicalOrientation", "focusPointOfInterest", "exposurePointOfInterest", "autoFocusRangeRestriction",
        "smoothAutoFocusEnabled", "exposureTargetBias", "subjectAreaChangeMonitoringEnabled",
        // The deck announces its own changes (its setter, and stopping at an end of the file).
        "transportControlsSupported", "transportControlsPlaybackMode", "transportControlsSpeed",
        "flashMode", "formats",
    ]

    /// The keys a frame may change, which the per-frame watch compares.
    private static let frameDrivenKeys: [String] =
        observableKeys(AVCaptureDevice.self).map(\.name).filter { !setterOnlyKeys.contains($0) }

    /// Announces that the device was unplugged, on its change queue.
    func announceDisconnect() {
        KeyValueChange.didChange(self, key: "connected", from: true, on: keyValueObservers.changeQueue)
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureDevice {
    /// Observes a device property (Apple's `observe(_:options:changeHandler:)`): see the
    /// keys and threads in docs/avfoundation-api.md. The observation ends when the returned
    /// object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureDevice.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

/// The deprecated device keys (`isFlashActive`, `flashMode`; Apple deprecated them in
/// iOS 10 but they stay observable), listed where deprecation warnings are not issued and
/// reached through this protocol, so the table builds without warnings (errors here).
protocol DeprecatedDeviceKeys {
    static func deprecatedObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>]
}

extension AVCaptureDevice: DeprecatedDeviceKeys {
    @available(*, deprecated, message: "Lists the deprecated flash keys; reached through DeprecatedDeviceKeys.")
    static func deprecatedObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            // Under `.auto` it follows the scene (the frame watch compares it).
            ObservableKey(\Root.isFlashActive, "flashActive"),
            ObservableKey(\Root.flashMode, "flashMode"),
        ]
    }
}
