import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Declarations found walking AVCaptureDevice.h line by line, and the deprecated frame
/// controls and movie-output switching of AVCaptureSession.h / AVCaptureFileOutput.h.
@Suite("AVCaptureDevice.h walk: system UI, spatial capture, recording switching, deprecated frame durations", .serialized)
struct DeviceHeaderWalkTests {
    @Test("showSystemUserInterface hands the request to the host as a notification, on the caller's thread")
    func systemUserInterface() {
        let asked = Mutex<[AVCaptureDevice.SystemUserInterface]>([])
        let token = NotificationCenter.default.addObserver(
            forName: AVCaptureDevice.systemUserInterfaceRequestedNotification, object: nil, queue: nil
        ) { note in
            if let which = note.userInfo?[AVCaptureDevice.systemUserInterfaceKey] as? AVCaptureDevice.SystemUserInterface {
                asked.withLock { $0.append(which) }
            }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        AVCaptureDevice.showSystemUserInterface(.videoEffects)
        AVCaptureDevice.showSystemUserInterface(.microphoneModes)
        #expect(asked.withLock { $0 } == [.videoEffects, .microphoneModes])
        #expect(AVCaptureDevice.SystemUserInterface.videoEffects.rawValue == 1 && AVCaptureDevice.SystemUserInterface.microphoneModes.rawValue == 2)
    }

    @Test("no spatial-capture warnings, no Continuity or Desk View cameras, no depth mattes; Center Stage zoom is the format's")
    func unsupportedFeatures() {
        let devices = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera, .builtInDualWideCamera, .builtInTripleCamera,
                .external, .continuityCamera],
            mediaType: .video, position: .unspecified
        ).devices
        #expect(!devices.isEmpty)
        for device in devices {
            #expect(device.spatialCaptureDiscomfortReasons.isEmpty)
            #expect(device.isContinuityCamera == (device.deviceType == .continuityCamera))
            #expect(device.companionDeskViewCamera == nil)
            for format in device.formats {
                #expect(!format.isPortraitEffectsMatteStillImageDeliverySupported && !format.isSpatialVideoCaptureSupported)
                #expect(format.videoMinZoomFactorForCenterStage == 1 && format.videoMaxZoomFactorForCenterStage == format.videoMaxZoomFactor)
            }
        }
        #expect(AVSpatialCaptureDiscomfortReason.notEnoughLight.rawValue == "AVSpatialCaptureDiscomfortReasonNotEnoughLight")
        #expect(AVSpatialCaptureDiscomfortReason.subjectTooClose != .notEnoughLight)
    }

    @Test("a movie output's recording behaviour: defaults, Apple's checks, unavailable without a switching camera")
    func recordingSwitchingRules() throws {
        let loose = AVCaptureMovieFileOutput()
        #expect(!loose.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled)
        #expect(loose.primaryConstituentDeviceSwitchingBehaviorForRecording == .restricted)
        #expect(loose.primaryConstituentDeviceRestrictedSwitchingBehaviorConditionsForRecording == [.videoZoomChanged, .focusModeChanged, .exposureModeChanged])
        // AVCaptureFileOutput.h names no exception here: kept, reads false without a switching camera.
        loose.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled = true
        #expect(!loose.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled)
        #expect(throws: AVCaptureException.self) {
            try loose.setPrimaryConstituentDeviceSwitchingBehaviorForRecordingChecked(.auto, restrictedSwitchingBehaviorConditions: [])
        }
        try loose.setPrimaryConstituentDeviceSwitchingBehaviorForRecordingChecked(.unsupported, restrictedSwitchingBehaviorConditions: [])

        let rig = try TestRig(uniqueID: "sim:back-triple", preset: .cif352x288)
        let output = AVCaptureMovieFileOutput()
        rig.session.addOutput(output)
        #expect(output.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled, "on by default with a switching camera")
        // No header sentence raises for `.unsupported` with a switching camera: kept.
        try output.setPrimaryConstituentDeviceSwitchingBehaviorForRecordingChecked(.unsupported, restrictedSwitchingBehaviorConditions: [])
        #expect(output.primaryConstituentDeviceSwitchingBehaviorForRecording == .unsupported)
        #expect(throws: AVCaptureException.self) {
            try output.setPrimaryConstituentDeviceSwitchingBehaviorForRecordingChecked(.auto, restrictedSwitchingBehaviorConditions: [.focusModeChanged])
        }
        try output.setPrimaryConstituentDeviceSwitchingBehaviorForRecordingChecked(.locked, restrictedSwitchingBehaviorConditions: [])
        #expect(output.primaryConstituentDeviceSwitchingBehaviorForRecording == .locked)
        #expect(output.primaryConstituentDeviceRestrictedSwitchingBehaviorConditionsForRecording == [])
        #expect(rig.device.activePrimaryConstituentDeviceSwitchingBehavior == .auto, "not recording: the device's own")
        output.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled = false
        #expect(!output.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled)
    }

    @Test("while recording the output's behaviour is in force: .locked holds the constituent against zoom until the recording ends")
    func recordingSwitchingHoldsConstituent() throws {
        let rig = try TestRig(uniqueID: "sim:back-triple", preset: .cif352x288)
        let device = rig.device
        let output = AVCaptureMovieFileOutput()
        rig.session.addOutput(output)
        try output.setPrimaryConstituentDeviceSwitchingBehaviorForRecordingChecked(.locked, restrictedSwitchingBehaviorConditions: [])
        rig.session.startRunning()
        defer {
            try? device.lockForConfiguration()
            device.videoZoomFactor = 1
            device.unlockForConfiguration()
            rig.stop()
        }
        try rig.collector.waitForFrames(2)
        #expect(device.activePrimaryConstituent?.uniqueID == "sim:back-ultrawide")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("switching-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        #expect(device.activePrimaryConstituentDeviceSwitchingBehavior == .locked)
        #expect(device.activePrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions == [])
        #expect(device.primaryConstituentDeviceSwitchingBehavior == .auto, "the device's own setting is untouched")
        try device.lockForConfiguration()
        device.videoZoomFactor = 3
        device.unlockForConfiguration()
        #expect(device.activePrimaryConstituent?.uniqueID == "sim:back-ultrawide", "locked while recording")
        output.stopRecording()
        try delegate.wait()
        #expect(device.activePrimaryConstituentDeviceSwitchingBehavior == .auto)
        // The active constituent is the newest frame's once a frame has shown the zoom: a
        // frame that came while the constituent was held still shows the ultra wide, so the
        // switch is seen with the first frame after the recording ended.
        eventually("zoom chooses again once the recording ends") {
            device.activePrimaryConstituent?.uniqueID == "sim:back-wide"
        }
    }

    @Test("the deprecated connection frame durations set the camera's, under a lock taken for the call")
    func connectionFrameDurations() throws {
        let rig = try TestRig(uniqueID: "sim:back-wide", preset: .cif352x288)
        let device = rig.device
        defer {
            try? device.lockForConfiguration()
            device.activeVideoMinFrameDuration = .invalid
            device.activeVideoMaxFrameDuration = .invalid
            device.unlockForConfiguration()
        }
        let connection: any DeprecatedFrameDurations = rig.connection
        let fifteen = CMTime(value: 1, timescale: 15)
        try #require(device.activeFormat.videoSupportedFrameRateRanges.contains { $0.minFrameRate <= 15 && $0.maxFrameRate >= 15 })
        let defaultMin = device.activeVideoMinFrameDuration
        #expect(connection.isVideoMinFrameDurationSupported && connection.isVideoMaxFrameDurationSupported)
        #expect(!connection.videoMinFrameDuration.isValid && !connection.videoMaxFrameDuration.isValid)
        connection.videoMaxFrameDuration = fifteen
        connection.videoMinFrameDuration = fifteen
        #expect(device.activeVideoMinFrameDuration == fifteen && device.activeVideoMaxFrameDuration == fifteen)
        #expect(connection.videoMinFrameDuration == fifteen)
        #expect(!device.isLockedForConfiguration, "the lock taken for the call is released")
        connection.videoMinFrameDuration = .zero
        #expect(device.activeVideoMinFrameDuration == defaultMin, "zero means no limit: the format's default")
        #expect(throws: AVCaptureException.self) { try rig.connection.setVideoFrameDuration(CMTime(value: 1, timescale: 100_000), minimum: true) }
    }

    @Test("the iOS 4 minFrameDuration of a video data output, set before it is connected, applies to its connection")
    func videoDataOutputMinFrameDuration() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        defer {
            try? device.lockForConfiguration()
            device.activeVideoMinFrameDuration = .invalid
            device.unlockForConfiguration()
        }
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        let deprecated: any DeprecatedMinFrameDuration = output
        let limit = CMTime(value: 1, timescale: 15)
        deprecated.minFrameDuration = limit
        #expect(deprecated.minFrameDuration == limit)
        session.addOutput(output)
        let connection: any DeprecatedFrameDurations = try #require(output.connection(with: .video))
        #expect(connection.videoMinFrameDuration == limit && deprecated.minFrameDuration == limit)
        #expect(device.activeVideoMinFrameDuration == limit)
    }
}

/// The deprecated connection frame durations, reached through a protocol so the tests
/// compile without deprecation warnings (which the build treats as errors).
protocol DeprecatedFrameDurations: AnyObject {
    var isVideoMinFrameDurationSupported: Bool { get }
    var isVideoMaxFrameDurationSupported: Bool { get }
    var videoMinFrameDuration: CMTime { get set }
    var videoMaxFrameDuration: CMTime { get set }
}

extension AVCaptureConnection: DeprecatedFrameDurations {}

/// The deprecated `minFrameDuration` of a video data output, likewise.
protocol DeprecatedMinFrameDuration: AnyObject {
    var minFrameDuration: CMTime { get set }
}

extension AVCaptureVideoDataOutput: DeprecatedMinFrameDuration {}
