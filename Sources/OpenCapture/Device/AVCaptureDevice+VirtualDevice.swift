import Foundation

extension AVCaptureDevice {
    /// How a virtual device may change its primary constituent camera.
    public enum PrimaryConstituentDeviceSwitchingBehavior: Int, Sendable {
        /// The device is not virtual, or cannot switch.
        case unsupported = 0
        /// Switches freely, following the zoom across `virtualDeviceSwitchOverVideoZoomFactors`.
        case auto = 1
        /// Switches only when one of the restricted conditions happens.
        case restricted = 2
        /// Never switches: the constituent active when it was set stays.
        case locked = 3
    }

    /// The events that let a `.restricted` virtual device switch constituents.
    public struct PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The app changed `videoZoomFactor` (or ramped it).
        public static let videoZoomChanged = Self(rawValue: 1 << 0)
        /// The app set `focusMode`.
        public static let focusModeChanged = Self(rawValue: 1 << 1)
        /// The app set `exposureMode`.
        public static let exposureModeChanged = Self(rawValue: 1 << 2)
    }

    /// The physical cameras behind a virtual device; nil for a physical camera.
    var virtualCameras: (any ConstituentCameras)? {
        guard let cameras = backend as? any ConstituentCameras, !cameras.constituentUniqueIDs.isEmpty else { return nil }
        return cameras
    }

    var isVirtualDeviceBacking: Bool { virtualCameras != nil }

    var constituentDevicesBacking: [AVCaptureDevice] {
        (virtualCameras?.constituentUniqueIDs ?? []).compactMap { registry.device(uniqueID: $0) }
    }

    var virtualDeviceSwitchOverVideoZoomFactorsBacking: [NSNumber] {
        ((backend as? any ConstituentCameras)?.switchOverZoomFactors ?? []).map { NSNumber(value: $0) }
    }

    var displayVideoZoomFactorMultiplierBacking: CGFloat {
        CGFloat((backend as? any LensDescribing)?.displayVideoZoomFactorMultiplier ?? 1)
    }

    var activePrimaryConstituentBacking: AVCaptureDevice? {
        guard let model = virtualCameras else { return nil }
        let index = activeConstituentIndex(model)
        return registry.device(uniqueID: model.constituentUniqueIDs[index])
    }

    func activeConstituentIndex(_ model: any ConstituentCameras) -> Int {
        // Read under the lock, chosen outside it: the model is the backend's.
        core.zoom.withLock { $0 }.activeConstituent(of: model)
    }

    var primaryConstituentDeviceSwitchingBehaviorBacking: PrimaryConstituentDeviceSwitchingBehavior {
        isVirtualDevice ? core.zoom.switching.behavior : .unsupported
    }

    var primaryConstituentDeviceRestrictedSwitchingBehaviorConditionsBacking: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions {
        core.zoom.switching.conditions
    }

    var activePrimaryConstituentDeviceSwitchingBehaviorBacking: PrimaryConstituentDeviceSwitchingBehavior {
        isVirtualDevice ? core.zoom.switching.effective.behavior : .unsupported
    }

    var activePrimaryConstituentDeviceRestrictedSwitchingBehaviorConditionsBacking: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions {
        isVirtualDevice ? core.zoom.switching.effective.conditions : []
    }

    /// A movie output starts recording with its own switching behaviour (or changes it
    /// while recording): it is in force until `endRecordingSwitching()`.
    func beginRecordingSwitching(
        _ behavior: PrimaryConstituentDeviceSwitchingBehavior, _ conditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    ) {
        guard let model = virtualCameras else { return }
        core.zoom.switching.recording = (behavior, conditions)
        updatePinnedConstituent(model)
    }

    /// The recording ended: the device's own switching behaviour is in force again.
    func endRecordingSwitching() {
        let ended = core.zoom.withLock { state in
            defer { state.switching.recording = nil }
            return state.switching.recording != nil
        }
        guard let model = virtualCameras, ended else { return }
        updatePinnedConstituent(model)
    }

    /// Holds the active constituent when the behaviour in force holds it (`.locked`, or
    /// `.restricted` without `.videoZoomChanged`), else lets zoom choose again.
    private func updatePinnedConstituent(_ model: any ConstituentCameras) {
        let current = activeConstituentIndex(model)
        let pinned: Int? = core.zoom.withLock { state in
            let (behavior, conditions) = state.switching.effective
            let holds = behavior == .locked || (behavior == .restricted && !conditions.contains(.videoZoomChanged))
            state.switching.pinned = holds ? current : nil
            return state.switching.pinned
        }
        model.pinnedConstituent = pinned
    }

    func setPrimaryConstituentDeviceSwitchingBehaviorBacking(
        _ switchingBehavior: PrimaryConstituentDeviceSwitchingBehavior,
        restrictedSwitchingBehaviorConditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    ) {
        enforce {
            try setPrimaryConstituentDeviceSwitchingBehaviorChecked(
                switchingBehavior, restrictedSwitchingBehaviorConditions: restrictedSwitchingBehaviorConditions)
        }
    }

    /// The checked form of `setPrimaryConstituentDeviceSwitchingBehavior(_:restrictedSwitchingBehaviorConditions:)` (Linux addition).
    public func setPrimaryConstituentDeviceSwitchingBehaviorChecked(
        _ behavior: PrimaryConstituentDeviceSwitchingBehavior,
        restrictedSwitchingBehaviorConditions conditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    ) throws(AVCaptureException) {
        let selector = "setPrimaryConstituentDeviceSwitchingBehavior:restrictedSwitchingBehaviorConditions:"
        try changeProperty(
            selector, supported: virtualCameras != nil, unsupported: "This device does not support constituent device switching"
        ) { () throws(AVCaptureException) -> ControlChange? in
            guard let model = virtualCameras else { return nil }
            // AVCaptureDevice.h: "or if restrictedSwitchingBehaviorConditions is not equal to
            // ...ConditionNone and switchingBehavior is not equal to ...BehaviorRestricted".
            guard conditions.isEmpty || behavior == .restricted else {
                throw AVCaptureException(
                    .invalidArgument,
                    selectorReason("AVCaptureDevice", selector,
                        "restrictedSwitchingBehaviorConditions must be none unless switchingBehavior is AVCapturePrimaryConstituentDeviceSwitchingBehaviorRestricted"))
            }
            // `.unsupported` is taken as any other value: AVCaptureDevice.h names no exception
            // for it on a camera that switches. It restricts nothing, so zoom still chooses.
            core.zoom.withLock {
                $0.switching.behavior = behavior
                $0.switching.conditions = conditions
            }
            updatePinnedConstituent(model)
            return nil
        }
    }

    /// Re-chooses a held constituent for the zoom when a restricted condition happens.
    func noteSwitchingCondition(_ condition: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions) {
        guard let model = virtualCameras else { return }
        let pinned: Int? = core.zoom.withLock { state in
            let (behavior, conditions) = state.switching.effective
            guard behavior == .restricted, conditions.contains(condition), state.switching.pinned != nil
            else { return nil }
            let index = model.constituentIndex(forZoom: Double(state.lens.videoZoomFactor))
            state.switching.pinned = index
            return index
        }
        if let pinned { model.pinnedConstituent = pinned }
    }

    var supportedFallbackPrimaryConstituentDevicesBacking: [AVCaptureDevice] { [] }

    var fallbackPrimaryConstituentDevicesBacking: [AVCaptureDevice] {
        get { [] }
        set {
            enforce {
                // None is supported: only the empty list passes.
                try changeProperty(
                    "setFallbackPrimaryConstituentDevices:", supported: newValue.isEmpty,
                    unsupported: "Devices must be in supportedFallbackPrimaryConstituentDevices") { nil }
            }
        }
    }
}

/// A device's constituent switching settings (`ZoomAndSwitchingSettings.switching`).
struct ConstituentSwitching {
    var behavior = AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior.auto
    var conditions: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions = []
    /// The constituent held while switching is locked.
    var pinned: Int?
    /// A recording movie output's behaviour and conditions, which override the above while it records.
    var recording: (behavior: AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior,
        conditions: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions)?

    /// The behaviour and conditions in force.
    var effective: (behavior: AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior,
        conditions: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions) {
        recording ?? (behavior, conditions)
    }
}
