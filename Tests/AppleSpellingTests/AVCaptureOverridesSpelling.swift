// Subclasses as app test suites and wrappers write them against Apple's SDK, where the
// capture classes are Objective-C classes whose members are all overridable: each override
// here must compile, and the library must call the override where Apple would.
import AVFoundation
import CoreMedia
import Foundation
import Testing

/// Overrides the iOS 18 capture-controls API.
final class ControlsSessionDouble: AVCaptureSession, @unchecked Sendable {
    override var supportsControls: Bool { super.supportsControls }
    override var maxControlsCount: Int { 1 }
    override var controls: [AVCaptureControl] { super.controls }
    override func canAddControl(_ control: AVCaptureControl) -> Bool { super.canAddControl(control) }
    override func addControl(_ control: AVCaptureControl) { super.addControl(control) }
    override func removeControl(_ control: AVCaptureControl) { super.removeControl(control) }
    override func setControlsDelegate(_ controlsDelegate: (any AVCaptureSessionControlsDelegate)?, queue controlsDelegateCallbackQueue: DispatchQueue?) {
        super.setControlsDelegate(controlsDelegate, queue: controlsDelegateCallbackQueue)
    }
    override var controlsDelegate: (any AVCaptureSessionControlsDelegate)? { super.controlsDelegate }
    override var controlsDelegateCallbackQueue: DispatchQueue? { super.controlsDelegateCallbackQueue }
}

/// Overrides connection members Apple declares in AVCaptureSession.h.
final class ConnectionDouble: AVCaptureConnection, @unchecked Sendable {
    override var videoMaxScaleAndCropFactor: CGFloat { 4 }
    override var videoScaleAndCropFactor: CGFloat {
        get { super.videoScaleAndCropFactor }
        set { super.videoScaleAndCropFactor = newValue }
    }
    override var isCameraIntrinsicMatrixDeliverySupported: Bool { false }
    override var isCameraIntrinsicMatrixDeliveryEnabled: Bool {
        get { super.isCameraIntrinsicMatrixDeliveryEnabled }
        set { super.isCameraIntrinsicMatrixDeliveryEnabled = newValue }
    }
    @available(*, deprecated)
    override var isVideoMinFrameDurationSupported: Bool { super.isVideoMinFrameDurationSupported }
    @available(*, deprecated)
    override var isVideoMaxFrameDurationSupported: Bool { super.isVideoMaxFrameDurationSupported }
    @available(*, deprecated)
    override var videoMinFrameDuration: CMTime {
        get { super.videoMinFrameDuration }
        set { super.videoMinFrameDuration = newValue }
    }
    @available(*, deprecated)
    override var videoMaxFrameDuration: CMTime {
        get { super.videoMaxFrameDuration }
        set { super.videoMaxFrameDuration = newValue }
    }
}

/// Overrides video data output members (AVCaptureVideoDataOutput.h).
final class VideoDataOutputDouble: AVCaptureVideoDataOutput, @unchecked Sendable {
    override func availableVideoCodecTypesForAssetWriter(writingTo outputFileType: AVFileType) -> [AVVideoCodecType] { [.h264] }
    override func recommendedVideoSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        super.recommendedVideoSettingsForAssetWriter(writingTo: outputFileType)
    }
    override func recommendedVideoSettings(forVideoCodecType videoCodecType: AVVideoCodecType, assetWriterOutputFileType outputFileType: AVFileType) -> [String: Any]? {
        super.recommendedVideoSettings(forVideoCodecType: videoCodecType, assetWriterOutputFileType: outputFileType)
    }
    override func recommendedVideoSettings(
        forVideoCodecType videoCodecType: AVVideoCodecType, assetWriterOutputFileType outputFileType: AVFileType, outputFileURL: URL?
    ) -> [String: Any]? {
        super.recommendedVideoSettings(forVideoCodecType: videoCodecType, assetWriterOutputFileType: outputFileType, outputFileURL: outputFileURL)
    }
    @available(*, deprecated)
    override var minFrameDuration: CMTime {
        get { super.minFrameDuration }
        set { super.minFrameDuration = newValue }
    }
}

/// Overrides movie file output members (AVCaptureFileOutput.h).
final class MovieFileOutputDouble: AVCaptureMovieFileOutput, @unchecked Sendable {
    override func supportedOutputSettingsKeys(for connection: AVCaptureConnection) -> [String] { super.supportedOutputSettingsKeys(for: connection) }
    override var isSpatialVideoCaptureSupported: Bool { super.isSpatialVideoCaptureSupported }
    override var isSpatialVideoCaptureEnabled: Bool {
        get { super.isSpatialVideoCaptureEnabled }
        set { super.isSpatialVideoCaptureEnabled = newValue }
    }
    override var isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled: Bool {
        get { super.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled }
        set { super.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled = newValue }
    }
    override func setPrimaryConstituentDeviceSwitchingBehaviorForRecording(
        _ switchingBehavior: AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior,
        restrictedSwitchingBehaviorConditions: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    ) {
        super.setPrimaryConstituentDeviceSwitchingBehaviorForRecording(switchingBehavior, restrictedSwitchingBehaviorConditions: restrictedSwitchingBehaviorConditions)
    }
    override var primaryConstituentDeviceSwitchingBehaviorForRecording: AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior {
        super.primaryConstituentDeviceSwitchingBehaviorForRecording
    }
    override var primaryConstituentDeviceRestrictedSwitchingBehaviorConditionsForRecording: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions {
        super.primaryConstituentDeviceRestrictedSwitchingBehaviorConditionsForRecording
    }
}

/// Overrides device input members (AVCaptureInput.h).
final class DeviceInputDouble: AVCaptureDeviceInput, @unchecked Sendable {
    override func isMultichannelAudioModeSupported(_ multichannelAudioMode: AVCaptureMultichannelAudioMode) -> Bool { false }
    override var multichannelAudioMode: AVCaptureMultichannelAudioMode {
        get { super.multichannelAudioMode }
        set { super.multichannelAudioMode = newValue }
    }
    override var isWindNoiseRemovalSupported: Bool { super.isWindNoiseRemovalSupported }
    override var isWindNoiseRemovalEnabled: Bool {
        get { super.isWindNoiseRemovalEnabled }
        set { super.isWindNoiseRemovalEnabled = newValue }
    }
}

/// Overrides AVCaptureOutputBase.h's metadata conversion.
final class OutputConversionDouble: AVCaptureMetadataOutput, @unchecked Sendable {
    override func transformedMetadataObject(for metadataObject: AVMetadataObject, connection: AVCaptureConnection) -> AVMetadataObject? {
        super.transformedMetadataObject(for: metadataObject, connection: connection)
    }
}

@Suite("Capture class overrides")
struct CaptureOverrideSpellingTests {
    @Test("a session subclass's maxControlsCount is the one the session enforces")
    func overriddenControlsLimit() {
        let session = ControlsSessionDouble()
        #expect(session.supportsControls && session.maxControlsCount == 1)
        let first = AVCaptureSlider("Zoom", symbolName: "plus.magnifyingglass", in: 1...5)
        first.setActionQueue(.main) { _ in }
        let second = AVCaptureSlider("Bias", symbolName: "plusminus", in: -2...2)
        second.setActionQueue(.main) { _ in }
        #expect(session.canAddControl(first))
        session.addControl(first)
        #expect(session.controls.count == 1)
        #expect(!session.canAddControl(second), "the subclass allows one control")
        session.removeControl(first)
        #expect(session.controls.isEmpty && session.canAddControl(second))
    }

    @Test("a video data output subclass's codec list is the one its recommended settings use")
    func overriddenCodecList() {
        let output = VideoDataOutputDouble()
        #expect(output.availableVideoCodecTypesForAssetWriter(writingTo: .mov) == [.h264])
        #expect(output.recommendedVideoSettingsForAssetWriter(writingTo: .mov) == nil, "no camera connected")
    }
}

/// Overrides AVCaptureDevice.h members declared in the class (a device wrapper as test
/// suites write one; the class has no public initializer, so it is compiled, not made).
final class DeviceDouble: AVCaptureDevice, @unchecked Sendable {
    override var uniqueID: String { "double-" + super.uniqueID }
    override var modelID: String { super.modelID }
    override var localizedName: String { super.localizedName }
    override var manufacturer: String { super.manufacturer }
    override var position: AVCaptureDevice.Position { super.position }
    override var deviceType: AVCaptureDevice.DeviceType { super.deviceType }
    override var formats: [AVCaptureDevice.Format] { super.formats }
    override var isConnected: Bool { super.isConnected }
    override var isSuspended: Bool { super.isSuspended }
    override var lensAperture: Float { super.lensAperture }
    override var exposureDuration: CMTime { super.exposureDuration }
    override var iso: Float { super.iso }
    override func hasMediaType(_ mediaType: AVMediaType) -> Bool { super.hasMediaType(mediaType) }
    override func supportsSessionPreset(_ preset: AVCaptureSession.Preset) -> Bool { super.supportsSessionPreset(preset) }
    override func lockForConfiguration() throws { try super.lockForConfiguration() }
    override func unlockForConfiguration() { super.unlockForConfiguration() }
}
