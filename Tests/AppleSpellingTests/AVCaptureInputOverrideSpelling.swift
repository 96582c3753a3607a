// Subclasses of the AVCaptureInput.h classes overriding their members (compile-only).
import AVFoundation
import CoreMedia
import Foundation

/// Overrides every input port member.
final class InputPortDouble: AVCaptureInput.Port, @unchecked Sendable {
    override var mediaType: AVMediaType { super.mediaType }
    override var clock: CMClock? { super.clock }
    override var sourceDeviceType: AVCaptureDevice.DeviceType? { super.sourceDeviceType }
    override var sourceDevicePosition: AVCaptureDevice.Position { super.sourceDevicePosition }
    override var input: AVCaptureInput { super.input }
    override var formatDescription: CMFormatDescription? { super.formatDescription }
    override var isEnabled: Bool {
        get { super.isEnabled }
        set { super.isEnabled = newValue }
    }
}

/// Overrides the device input's device, exposure defaults and frame-duration override.
final class DeviceInputMembersDouble: AVCaptureDeviceInput, @unchecked Sendable {
    override var device: AVCaptureDevice { super.device }
    override var unifiedAutoExposureDefaultsEnabled: Bool {
        get { super.unifiedAutoExposureDefaultsEnabled }
        set { super.unifiedAutoExposureDefaultsEnabled = newValue }
    }
    override var videoMinFrameDurationOverride: CMTime {
        get { super.videoMinFrameDurationOverride }
        set { super.videoMinFrameDurationOverride = newValue }
    }
}
