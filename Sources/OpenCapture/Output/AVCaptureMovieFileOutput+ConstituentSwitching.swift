import Foundation

/// The camera-switching behaviour a movie output asks of a virtual device while it
/// records (iOS 15, AVCaptureFileOutput.h). While a recording runs with
/// `isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled`, the device's
/// `activePrimaryConstituentDeviceSwitchingBehavior` (and conditions) are the output's, and
/// the simulated virtual camera switches (or holds its constituent) by them; when the
/// recording ends the device's own behaviour is in force again. A physical camera does not
/// switch, so there the `ForRecording` members answer as Apple does for such a device.
extension AVCaptureMovieFileOutput {
    /// The video device recorded from, when it can switch constituents.
    var switchingDevice: AVCaptureDevice? {
        guard let device = connection(with: .video)?.device, device.virtualCameras != nil else { return nil }
        return device
    }

    /// Stores `isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled`. No raise:
    /// AVCaptureFileOutput.h names no exception for it ("By default, this property is set to
    /// YES when connected to an AVCaptureDevice that supports constituent device switching");
    /// it reads false while the connected device cannot switch.
    func storeRecordingSwitchingEnabled(_ enabled: Bool) {
        recordingSwitching.withLock { $0.enabled = enabled }
        applyRecordingSwitching()
    }

    /// The checked form of `setPrimaryConstituentDeviceSwitchingBehaviorForRecording(_:restrictedSwitchingBehaviorConditions:)` (Linux addition).
    public func setPrimaryConstituentDeviceSwitchingBehaviorForRecordingChecked(
        _ behavior: AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior,
        restrictedSwitchingBehaviorConditions conditions: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    ) throws(AVCaptureException) {
        let selector = "setPrimaryConstituentDeviceSwitchingBehaviorForRecording:restrictedSwitchingBehaviorConditions:"
        // AVCaptureFileOutput.h: anything but `.unsupported` raises without a switching camera.
        // `.unsupported` with one is taken (no sentence raises for it) and restricts nothing.
        guard behavior == .unsupported || switchingDevice != nil else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureMovieFileOutput", selector, "The connected device does not support constituent device switching"))
        }
        let known: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions = [
            .videoZoomChanged, .focusModeChanged, .exposureModeChanged,
        ]
        guard behavior == .restricted ? known.isSuperset(of: conditions) : conditions.isEmpty else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureMovieFileOutput", selector,
                "restrictedSwitchingBehaviorConditions must be none unless switchingBehavior is AVCapturePrimaryConstituentDeviceSwitchingBehaviorRestricted"))
        }
        recordingSwitching.withLock {
            $0.behavior = behavior
            $0.conditions = conditions
        }
        applyRecordingSwitching()
    }

    /// Puts the recording behaviour in force on the device while recording (called as
    /// recording starts and when a setting changes).
    func applyRecordingSwitching() {
        guard let device = switchingDevice else { return }
        let (enabled, behavior, conditions) = recordingSwitching.withLock { ($0.enabled ?? true, $0.behavior, $0.conditions) }
        guard isRecording else { return }
        if enabled { device.beginRecordingSwitching(behavior, conditions) } else { device.endRecordingSwitching() }
    }

    /// The last recording finished (on the recording queue): the device's own behaviour applies again.
    func recordingSwitchingDidEnd() {
        connection(with: .video)?.device?.endRecordingSwitching()
    }
}

/// The `...ForRecording` settings of a movie output.
struct RecordingSwitching {
    /// nil until set: then enabled exactly when the device can switch.
    var enabled: Bool?
    var behavior = AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior.restricted
    var conditions: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions = [
        .videoZoomChanged, .focusModeChanged, .exposureModeChanged,
    ]
}
