import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture

@Suite("KVO of the device's flash, effect and reaction keys", .serialized)
struct KVODeviceKeysTests {
    @Test("setting the deprecated flashMode notifies \"flashMode\" and \"flashActive\" (string form) on the setter's thread")
    func flashMode() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let flash: any DeprecatedDeviceFlash = device
        let mode = StringObserver()
        let active = StringObserver()
        device.addObserver(mode, forKeyPath: "flashMode", options: [.old, .new], context: nil)
        device.addObserver(active, forKeyPath: "flashActive", options: [.old, .new], context: nil)
        try device.lockForConfiguration()
        flash.flashMode = .on
        flash.flashMode = .auto  // not streaming: no scene to judge, so the flash would not fire
        flash.flashMode = .off
        device.unlockForConfiguration()
        device.removeObserver(mode, forKeyPath: "flashMode")
        device.removeObserver(active, forKeyPath: "flashActive")
        #expect(mode.recorder.calls.map(\.new) == ["on", "auto", "off"].map { "\(AVCaptureDevice.FlashMode(name: $0))" })
        #expect(active.recorder.calls.map(\.old) == ["false", "true", "false"])
        #expect(active.recorder.calls.map(\.new) == ["true", "false", "false"])
        #expect(mode.recorder.calls.allSatisfy { $0.queue == "caller" })
    }

    @Test("with .auto, isFlashActive follows a dark scene while streaming, announced on the device's queue")
    func autoFlashInTheDark() throws {
        let rig = try TestRig(uniqueID: "sim:back-ultrawide", preset: .vga640x480)
        let flash: any DeprecatedDeviceFlash = rig.device
        let simulation = try #require(rig.device.simulation)
        let luminance = simulation.sceneLuminance
        defer { simulation.sceneLuminance = luminance }
        simulation.sceneLuminance = 2  // a dark room: auto exposure raises the ISO
        rig.session.startRunning()
        defer { rig.stop() }
        try rig.device.lockForConfiguration()
        flash.flashMode = .auto
        rig.device.unlockForConfiguration()
        defer {
            try? rig.device.lockForConfiguration()
            flash.flashMode = .off
            rig.device.unlockForConfiguration()
        }
        eventually("the scene is dark enough for the flash") { rig.device.lastFrameMetadata.iso >= PhotoCapture.autoFlashISO }
        #expect(flash.isFlashActive)
        let observer = StringObserver()
        rig.device.addObserver(observer, forKeyPath: "flashActive", options: [.old, .new], context: nil)
        defer { rig.device.removeObserver(observer, forKeyPath: "flashActive") }
        simulation.sceneLuminance = 400  // lights on
        eventually("the flash is no longer needed") { rig.device.lastFrameMetadata.iso < PhotoCapture.autoFlashISO }
        // The device announces the change after the frame that showed the light, on its
        // change queue: on a busy machine that may come after the metadata the wait saw.
        eventually("flashActive announced false") { observer.recorder.calls.contains { $0.old == "true" && $0.new == "false" } }
        rig.device.keyValueObservers.changeQueue.sync {}
        #expect(observer.recorder.calls.allSatisfy { $0.queue == "OpenCapture.kvo.sim:back-ultrawide" })
    }

    @Test("the effect and reaction keys are listed: .initial gives Linux's constant values")
    func effectKeys() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let recorder = KVORecorder()
        let observations = [
            device.observe(\.isCenterStageActive, options: [.initial, .new]) { _, change in recorder.record(change) },
            device.observe(\.isPortraitEffectActive, options: [.initial, .new]) { _, change in recorder.record(change) },
            device.observe(\.canPerformReactionEffects, options: [.initial, .new]) { _, change in recorder.record(change) },
            device.observe(\.availableReactionTypes, options: [.initial, .new]) { _, change in recorder.record(change) },
            device.observe(\.reactionEffectsInProgress, options: [.initial, .new]) { _, change in recorder.record(change) },
            device.observe(\.formats, options: [.initial]) { _, change in recorder.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        #expect(recorder.calls.map(\.new) == ["false", "false", "false", "[]", "[]", nil])
        let names = ["centerStageActive", "portraitEffectActive", "canPerformReactionEffects", "availableReactionTypes",
                     "reactionEffectsInProgress", "formats", "flashActive", "flashMode"]
        #expect(names.allSatisfy { device.observableKeyTable.value(of: $0, on: device) != nil })
    }

    @Test("class keys: centerStageControlMode and isCenterStageEnabled notify old and new when set; the user's switches only .initial")
    func classKeys() {
        let mode = KVORecorder()
        let enabled = KVORecorder()
        let constants = KVORecorder()
        let observations = [
            AVCaptureDevice.self.observe(\.centerStageControlMode, options: [.old, .new]) { _, change in mode.record(change) },
            AVCaptureDevice.self.observe(\.isCenterStageEnabled, options: [.old, .new]) { _, change in enabled.record(change) },
            AVCaptureDevice.self.observe(\.isPortraitEffectEnabled, options: [.initial, .new]) { _, change in constants.record(change) },
            AVCaptureDevice.self.observe(\.reactionEffectGesturesEnabled, options: [.initial, .new]) { _, change in constants.record(change) },
            AVCaptureDevice.self.observe(\.preferredMicrophoneMode, options: [.initial, .new]) { _, change in constants.record(change) },
            AVCaptureDevice.self.observe(\.activeMicrophoneMode, options: [.initial, .new]) { _, change in constants.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        AVCaptureDevice.centerStageControlMode = .app
        AVCaptureDevice.isCenterStageEnabled = true
        AVCaptureDevice.isCenterStageEnabled = false
        AVCaptureDevice.centerStageControlMode = .user
        #expect(mode.calls.map(\.new) == ["app", "user"].map { "\(AVCaptureDevice.CenterStageControlMode(name: $0))" })
        #expect(enabled.calls.map(\.old) == ["false", "true"] && enabled.calls.map(\.new) == ["true", "false"])
        #expect((mode.calls + enabled.calls).allSatisfy { $0.queue == "caller" })
        #expect(constants.calls.count == 4)
        let names = ["centerStageControlMode", "centerStageEnabled", "portraitEffectEnabled", "reactionEffectGesturesEnabled",
                     "preferredMicrophoneMode", "activeMicrophoneMode"]
        let holder = DeviceClassProperties.shared
        #expect(names.allSatisfy { holder.observableKeyTable.value(of: $0, on: holder) != nil })
    }
}

extension AVCaptureDevice.FlashMode {
    init(name: String) { self = name == "on" ? .on : name == "auto" ? .auto : .off }
}

extension AVCaptureDevice.CenterStageControlMode {
    init(name: String) { self = name == "app" ? .app : name == "cooperative" ? .cooperative : .user }
}
