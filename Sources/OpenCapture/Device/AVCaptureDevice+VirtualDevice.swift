import Foundation
import SimulatedCamera

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

    /// The simulated model behind the device, if it is simulated.
    var simulatedModel: SimulatedCameraModel? { (backend as? SimulatedCamera)?.model }

    /// Whether the device is a virtual device made of several cameras (the simulated dual
    /// wide and triple cameras are).
    public var isVirtualDevice: Bool { simulatedModel?.isVirtual ?? false }

    /// A virtual device's physical cameras, widest first; empty for a physical device.
    public var constituentDevices: [AVCaptureDevice] {
        (simulatedModel?.constituents ?? []).compactMap { DeviceRegistry.shared.device(uniqueID: $0.descriptor.uniqueID) }
    }

    /// The zoom factors at which a virtual device switches to its next constituent
    /// (ascending; one fewer than `constituentDevices`); empty for a physical device. The
    /// constituent after a switch-over factor s films at its own zoom `videoZoomFactor`/s.
    public var virtualDeviceSwitchOverVideoZoomFactors: [NSNumber] {
        (simulatedModel?.switchOverZoomFactors ?? []).map { NSNumber(value: $0) }
    }

    /// The factor that turns `videoZoomFactor` into the zoom shown to people, where the
    /// back wide-angle camera is "1x": 1/2.34 (0.43) for the dual wide and triple cameras
    /// and the ultra wide (whose zoom 1 is the ultra wide's view), 2.28 for the telephoto,
    /// 1 for the wide and front cameras and real cameras. Apple's cameras give 0.5 and 2, 3
    /// or 5 by the same rule.
    public var displayVideoZoomFactorMultiplier: CGFloat {
        guard let model = simulatedModel, model.descriptor.position == 1 else { return 1 }
        let widest = model.isVirtual ? model.constituents[0] : model
        let fov = { (m: SimulatedCameraModel) in m.descriptor.formats.first { 4 * $0.height == 3 * $0.width }?.fieldOfView ?? 0 }
        let wide = SimulatedCameraCatalog.models()[0]
        return CGFloat(1 / SimulatedCameraCatalog.switchOverFactor(widest: fov(widest), fieldOfView: fov(wide)))
    }

    /// The constituent filming now: of the newest frame once it carries the latest zoom
    /// change, else the one the zoom (or a locked switching behaviour) selects. `nil` for a
    /// physical device.
    public var activePrimaryConstituent: AVCaptureDevice? {
        guard let model = simulatedModel, model.isVirtual else { return nil }
        let index = activeConstituentIndex(model)
        return DeviceRegistry.shared.device(uniqueID: model.constituents[index].descriptor.uniqueID)
    }

    func activeConstituentIndex(_ model: SimulatedCameraModel) -> Int {
        let (state, frame) = core.state.withLock { ($0, $0.lastFrame) }
        if let pinned = state.switching.pinned { return pinned }
        let current = frame.presentationTime.isValid && frame.appliedRequest >= state.lens.zoomRequest
        return current ? frame.activeConstituent : model.constituentIndex(forZoom: Double(state.lens.videoZoomFactor))
    }

    /// The switching behaviour last set: `.auto` for a virtual device until set,
    /// `.unsupported` for a physical one.
    public var primaryConstituentDeviceSwitchingBehavior: PrimaryConstituentDeviceSwitchingBehavior {
        isVirtualDevice ? core.state.withLock { $0.switching.behavior } : .unsupported
    }

    /// The conditions last set for `.restricted` (empty until set).
    public var primaryConstituentDeviceRestrictedSwitchingBehaviorConditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions {
        core.state.withLock { $0.switching.conditions }
    }

    /// The switching behaviour in force: the one set, except while an
    /// `AVCaptureMovieFileOutput` with `isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled`
    /// records from this device, when it is the output's. `.unsupported` for a physical device.
    public var activePrimaryConstituentDeviceSwitchingBehavior: PrimaryConstituentDeviceSwitchingBehavior {
        isVirtualDevice ? core.state.withLock { $0.switching.effective.behavior } : .unsupported
    }

    /// The restricted conditions in force (the recording's while one overrides them).
    public var activePrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions {
        isVirtualDevice ? core.state.withLock { $0.switching.effective.conditions } : []
    }

    /// A movie output starts recording with its own switching behaviour (or changes it
    /// while recording): it is in force until `endRecordingSwitching()`.
    func beginRecordingSwitching(
        _ behavior: PrimaryConstituentDeviceSwitchingBehavior, _ conditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    ) {
        guard let model = simulatedModel, model.isVirtual else { return }
        core.state.withLock { $0.switching.recording = (behavior, conditions) }
        updatePinnedConstituent(model)
    }

    /// The recording ended: the device's own switching behaviour is in force again.
    func endRecordingSwitching() {
        guard let model = simulatedModel, model.isVirtual, core.state.withLock({ $0.switching.recording != nil }) else { return }
        core.state.withLock { $0.switching.recording = nil }
        updatePinnedConstituent(model)
    }

    /// Holds the active constituent when the behaviour in force holds it (`.locked`, or
    /// `.restricted` without `.videoZoomChanged`), else lets zoom choose again.
    private func updatePinnedConstituent(_ model: SimulatedCameraModel) {
        let current = activeConstituentIndex(model)
        let pinned: Int? = core.state.withLock { state in
            let (behavior, conditions) = state.switching.effective
            let holds = behavior == .locked || (behavior == .restricted && !conditions.contains(.videoZoomChanged))
            state.switching.pinned = holds ? current : nil
            return state.switching.pinned
        }
        (backend as? SimulatedCamera)?.pinnedConstituent = pinned
    }

    /// Sets how the virtual device may switch constituents. `.locked` holds the active
    /// constituent (zoom then stays within its reach: `minAvailableVideoZoomFactor` becomes
    /// its switch-over factor); `.restricted` switches only on the given conditions (with
    /// `.videoZoomChanged` that is every zoom change, as zoom is what switches here; without
    /// it the constituent is held and re-chosen for the zoom when focus or exposure mode is
    /// set, if those conditions are given). Needs the configuration lock
    /// (`NSGenericException`); `.unsupported`, or a physical device, raises
    /// `NSInvalidArgumentException`.
    public func setPrimaryConstituentDeviceSwitchingBehavior(
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
        try requireLock(selector)
        guard let model = simulatedModel, model.isVirtual else {
            throw AVCaptureException(
                .invalidArgument, selectorReason("AVCaptureDevice", selector, "This device does not support constituent device switching"))
        }
        guard behavior != .unsupported else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", selector, "AVCapturePrimaryConstituentDeviceSwitchingBehaviorUnsupported is not allowed"))
        }
        core.state.withLock {
            $0.switching.behavior = behavior
            $0.switching.conditions = behavior == .restricted ? conditions : []
        }
        updatePinnedConstituent(model)
    }

    /// Re-chooses a held constituent for the zoom when a restricted condition happens.
    func noteSwitchingCondition(_ condition: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions) {
        guard let model = simulatedModel, model.isVirtual else { return }
        let pinned: Int? = core.state.withLock { state in
            let (behavior, conditions) = state.switching.effective
            guard behavior == .restricted, conditions.contains(condition), state.switching.pinned != nil
            else { return nil }
            let index = model.constituentIndex(forZoom: Double(state.lens.videoZoomFactor))
            state.switching.pinned = index
            return index
        }
        if let pinned { (backend as? SimulatedCamera)?.pinnedConstituent = pinned }
    }

    /// Constituents that may stand in when the primary one cannot focus close: none, as
    /// the simulated cameras do not fall back (as on an iPhone without the feature).
    public var supportedFallbackPrimaryConstituentDevices: [AVCaptureDevice] { [] }

    /// The fallback constituents chosen (always empty here). Setting it needs the
    /// configuration lock; a device not in `supportedFallbackPrimaryConstituentDevices`
    /// raises `NSInvalidArgumentException`.
    public var fallbackPrimaryConstituentDevices: [AVCaptureDevice] {
        get { [] }
        set {
            enforce {
                let selector = "setFallbackPrimaryConstituentDevices:"
                try requireLock(selector)
                guard newValue.isEmpty else {
                    throw AVCaptureException(
                        .invalidArgument,
                        selectorReason("AVCaptureDevice", selector, "Devices must be in supportedFallbackPrimaryConstituentDevices"))
                }
            }
        }
    }
}

/// A device's constituent switching settings (`DeviceCore.State.switching`).
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
