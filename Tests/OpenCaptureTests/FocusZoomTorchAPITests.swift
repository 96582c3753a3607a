import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture
@testable import SimulatedCamera

/// Waits (up to 10 s) until `value` is set and returns it; records an issue when it is not.
private func awaitValue<T: Sendable>(_ value: borrowing Mutex<T?>, sourceLocation: SourceLocation = #_sourceLocation) -> T? {
    eventually("the handler was called", within: .seconds(10), sourceLocation: sourceLocation) { value.withLock { $0 } != nil }
    return value.withLock { $0 }
}

/// Runs `change` with the configuration lock held.
private func configure(_ device: AVCaptureDevice, _ change: () throws -> Void) throws {
    try device.lockForConfiguration()
    defer { device.unlockForConfiguration() }
    try change()
}

@Suite("Focus, zoom and torch API", .serialized)
struct FocusZoomTorchAPITests {
    @Test("focus defaults and support, as on an iPhone")
    func focusDefaults() throws {
        let wide = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        for mode in [AVCaptureDevice.FocusMode.locked, .autoFocus, .continuousAutoFocus] {
            #expect(wide.isFocusModeSupported(mode))
        }
        #expect(wide.focusPointOfInterest == CGPoint(x: 0.5, y: 0.5) && wide.isFocusPointOfInterestSupported)
        #expect(wide.isLockingFocusWithCustomLensPositionSupported)
        #expect(wide.autoFocusRangeRestriction == .none && wide.isAutoFocusRangeRestrictionSupported)
        #expect(!wide.isSmoothAutoFocusEnabled && wide.isSmoothAutoFocusSupported)
        #expect(wide.minimumFocusDistance == 150)
        #expect(wide.formats.allSatisfy { $0.autoFocusSystem == .contrastDetection })
        #expect(AVCaptureDevice.currentLensPosition == .greatestFiniteMagnitude)
        #expect(AVCaptureDevice.FocusMode.continuousAutoFocus.rawValue == 2 && AVCaptureDevice.AutoFocusRangeRestriction.far.rawValue == 2)
        #expect(AVCaptureDevice(uniqueID: "sim:back-tele")?.minimumFocusDistance == 450)
        #expect(AVCaptureDevice(uniqueID: "sim:front-wide")?.isFocusModeSupported(.autoFocus) == true)

        let ultra = try #require(AVCaptureDevice(uniqueID: "sim:back-ultrawide"))
        #expect(ultra.isFocusModeSupported(.locked) && !ultra.isFocusModeSupported(.autoFocus) && !ultra.isFocusModeSupported(.continuousAutoFocus))
        #expect(ultra.focusMode == .locked && !ultra.isFocusPointOfInterestSupported)
        #expect(!ultra.isLockingFocusWithCustomLensPositionSupported && !ultra.isAutoFocusRangeRestrictionSupported && !ultra.isSmoothAutoFocusSupported)
        #expect(ultra.formats.allSatisfy { $0.autoFocusSystem == AVCaptureDevice.Format.AutoFocusSystem.none })
        #expect(ultra.minimumFocusDistance > 100 && ultra.minimumFocusDistance < 300)
        #expect(ultra.lensPosition == 1)
    }

    @Test("setFocusModeLocked: the handler gets the first frame with the lens there; the device reports it")
    func lockedLensPosition() throws {
        let rig = try TestRig()
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        let handlerTime = Mutex<CMTime?>(nil)
        try rig.device.lockForConfiguration()
        rig.device.setFocusModeLocked(lensPosition: 0.3) { time in handlerTime.withLock { $0 = time } }
        rig.device.unlockForConfiguration()
        #expect(rig.device.focusMode == .locked)
        let waited = awaitValue(handlerTime)
        let time = try #require(waited)
        let frames = try rig.collector.waitForMoreFrames(3)
        rig.stop()
        let first = try #require(frames.firstIndex { $0.time == time })
        #expect(frames[first].metadata?.lensPosition == 0.3)
        #expect(frames[first].metadata?.focusState == .locked)
        #expect(first > 0 && frames[first - 1].metadata?.lensPosition != 0.3)
        #expect(rig.device.lensPosition == 0.3 && !rig.device.isAdjustingFocus)
        // The sentinel keeps the position.
        try configure(rig.device) { try rig.device.setFocusModeLockedChecked(lensPosition: AVCaptureDevice.currentLensPosition) }
        #expect(rig.device.focusMode == .locked)
        try configure(rig.device) { rig.device.focusMode = .continuousAutoFocus }
    }

    @Test("autoFocus at a point of interest: adjusts, focuses the wall, then reads .locked; async lock")
    func autoFocusThroughTheAPI() async throws {
        // 960x540: the 1280x720 field of view and lens, half the pixels to render.
        let rig = try TestRig(preset: .iFrame960x540)
        rig.session.startRunning()
        try rig.collector.waitForFrames(2)
        try configure(rig.device) {
            rig.device.focusPointOfInterest = CGPoint(x: 0.1, y: 0.1)
            #expect(rig.device.focusPointOfInterest == CGPoint(x: 0.1, y: 0.1))
            rig.device.focusMode = .autoFocus
        }
        #expect(rig.device.focusMode == .autoFocus)
        let frames = try rig.collector.waitForMoreFrames(40)
        #expect(frames.contains { $0.metadata?.isAdjustingFocus == true })
        #expect(rig.device.focusMode == .locked && !rig.device.isAdjustingFocus)
        let wall = LensUnit.lens((rig.device.backend as! SimulatedCamera).model, rig.device.activeFormat.index)
            .lensPosition(focusing: Double(Scene.wallDistance))
        #expect(abs(rig.device.lensPosition - wall) < 0.03)
        try rig.device.lockForConfiguration()
        let time = await rig.device.setFocusModeLocked(lensPosition: 0.8)
        rig.device.focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
        rig.device.focusMode = .continuousAutoFocus
        rig.device.unlockForConfiguration()
        let later = try rig.collector.waitForMoreFrames(2)
        rig.stop()
        #expect(later.first { $0.time == time }?.metadata?.lensPosition == 0.8)
    }

    @Test("checked focus calls throw Apple's exceptions")
    func checkedFocusErrors() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect((#expect(throws: AVCaptureException.self) { try device.setFocusMode(.locked) })?.name == .generic)
        try configure(device) {
            #expect((#expect(throws: AVCaptureException.self) { try device.setFocusModeLockedChecked(lensPosition: 2) })?.name == .range)
            try device.setAutoFocusRangeRestriction(.near)
            try device.setSmoothAutoFocusEnabled(true)
            #expect(device.autoFocusRangeRestriction == .near && device.isSmoothAutoFocusEnabled)
            try device.setAutoFocusRangeRestriction(.none)
            try device.setSmoothAutoFocusEnabled(false)
        }
        let ultra = try #require(AVCaptureDevice(uniqueID: "sim:back-ultrawide"))
        try configure(ultra) {
            #expect((#expect(throws: AVCaptureException.self) { try ultra.setFocusMode(.autoFocus) })?.name == .invalidArgument)
            #expect((#expect(throws: AVCaptureException.self) { try ultra.setFocusModeLockedChecked(lensPosition: 0.5) })?.name == .invalidArgument)
            try ultra.setFocusModeLockedChecked(lensPosition: AVCaptureDevice.currentLensPosition)
            try ultra.setFocusMode(.locked)
        }
    }

    // MARK: Zoom

    @Test("zoom defaults, range, clamping and Apple's exceptions as throws")
    func zoomRules() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(device.videoZoomFactor == 1 && !device.isRampingVideoZoom)
        #expect(device.minAvailableVideoZoomFactor == 1 && device.maxAvailableVideoZoomFactor == device.activeFormat.videoMaxZoomFactor)
        #expect((#expect(throws: AVCaptureException.self) { try device.setVideoZoomFactor(2) })?.name == .generic)
        try configure(device) {
            #expect((#expect(throws: AVCaptureException.self) { try device.setVideoZoomFactor(0.99) })?.name == .range)
            #expect((#expect(throws: AVCaptureException.self) { try device.setVideoZoomFactor(device.activeFormat.videoMaxZoomFactor * 2) })?.name == .range)
            #expect((#expect(throws: AVCaptureException.self) { try device.rampChecked(toVideoZoomFactor: 0.5, withRate: 1) })?.name == .range)
            try device.setVideoZoomFactor(3)
            #expect(device.videoZoomFactor == 3)
            try device.setVideoZoomFactor(1)
        }
    }

    @Test("a zoom ramp follows 2^(rate·t) on frame timestamps and ends at the target; setting cancels")
    func zoomRampTiming() throws {
        let rig = try TestRig(preset: .vga640x480)  // the size does not matter to the timing
        rig.session.startRunning()
        try rig.collector.waitForFrames(2)
        try configure(rig.device) { rig.device.ramp(toVideoZoomFactor: 4, withRate: -2) }  // sign ignored
        #expect(rig.device.isRampingVideoZoom)
        let frames = try rig.collector.waitForMoreFrames(40)
        #expect(!rig.device.isRampingVideoZoom && rig.device.videoZoomFactor == 4)
        let ramp = frames.compactMap { f in f.metadata.map { (f.time, $0) } }.filter { $0.1.isRampingVideoZoom }
        let start = try #require(ramp.first)
        #expect(start.1.zoomFactor == 1)
        for (time, metadata) in ramp {
            let expected = pow(2, 2 * (time - start.0).seconds)
            #expect(abs(metadata.zoomFactor - expected) < 1e-9 * expected, "at \((time - start.0).seconds) s")
        }
        // 1 → 4 at 2 doublings a second takes 1 s: 30 frames at 30 fps, then it holds at 4.
        #expect(ramp.count == 30)
        let after = frames.filter { $0.time > ramp.last!.0 }
        #expect(!after.isEmpty && after.allSatisfy { $0.metadata?.zoomFactor == 4 && $0.metadata?.isRampingVideoZoom == false })

        // Down again; cancelled half way it stays put; setting a factor jumps there.
        try configure(rig.device) { rig.device.ramp(toVideoZoomFactor: 1, withRate: 1) }
        try rig.collector.waitForMoreFrames(10)
        try configure(rig.device) { rig.device.cancelVideoZoomRamp() }
        try rig.collector.waitForMoreFrames(3)
        let held = rig.device.videoZoomFactor
        #expect(held > 1 && held < 4 && !rig.device.isRampingVideoZoom)
        let still = try rig.collector.waitForMoreFrames(3).suffix(3)
        #expect(still.allSatisfy { $0.metadata?.zoomFactor == Double(held) })
        try configure(rig.device) {
            rig.device.ramp(toVideoZoomFactor: 8, withRate: 1)
            rig.device.videoZoomFactor = 2
        }
        let set = try rig.collector.waitForMoreFrames(4).suffix(3)
        #expect(set.allSatisfy { $0.metadata?.zoomFactor == 2 && $0.metadata?.isRampingVideoZoom == false })
        // Rate 0 cancels.
        try configure(rig.device) {
            rig.device.ramp(toVideoZoomFactor: 8, withRate: 1)
            rig.device.ramp(toVideoZoomFactor: 8, withRate: 0)
        }
        let none = try rig.collector.waitForMoreFrames(4).suffix(3)
        rig.stop()
        #expect(none.allSatisfy { $0.metadata?.zoomFactor == 2 })
        try configure(rig.device) { rig.device.videoZoomFactor = 1 }
    }

    // MARK: Torch

    @Test("torch: back cameras have one, levels, Apple's rules, unavailable when hot")
    func torchRules() throws {
        let wide = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let front = try #require(AVCaptureDevice(uniqueID: "sim:front-wide"))
        #expect(wide.hasTorch && wide.isTorchAvailable && wide.isTorchModeSupported(.on) && wide.isTorchModeSupported(.auto))
        #expect(!front.hasTorch && !front.isTorchAvailable && !front.isTorchModeSupported(.on))
        #expect(wide.torchMode == .off && !wide.isTorchActive && wide.torchLevel == 0)
        #expect(AVCaptureDevice.TorchMode.auto.rawValue == 2)
        let rig = try TestRig()
        rig.session.startRunning()
        try rig.collector.waitForFrames(2)
        try configure(rig.device) { try rig.device.setTorchModeOn(level: 0.25) }
        #expect(rig.device.torchMode == .on)
        try rig.collector.waitForMoreFrames(3)
        #expect(rig.device.isTorchActive && rig.device.torchLevel == 0.25)
        try configure(rig.device) { rig.device.torchMode = .off }
        try rig.collector.waitForMoreFrames(3)
        #expect(!rig.device.isTorchActive && rig.device.torchLevel == 0)
        rig.stop()
        // A camera at critical pressure cannot light the torch: a valid level throws.
        var hot = FrameMetadata()
        hot.systemPressureLevel = 3
        rig.device.record(hot)
        #expect(!rig.device.isTorchAvailable)
        try configure(rig.device) {
            let error = #expect(throws: AVError.self) { try rig.device.setTorchModeOn(level: 1) }
            #expect(error?.code == .torchLevelUnavailable && error?.errorCode == -11846)
            #expect(throws: AVError.self) { try rig.device.setTorchModeOn(level: AVCaptureDevice.maxAvailableTorchLevel) }
        }
        // At serious pressure only half is available.
        hot.systemPressureLevel = 2
        rig.device.record(hot)
        try configure(rig.device) {
            #expect(throws: AVError.self) { try rig.device.setTorchModeOn(level: 0.8) }
            try rig.device.setTorchModeOn(level: 0.5)
            try rig.device.setTorchModeOn(level: AVCaptureDevice.maxAvailableTorchLevel)
            rig.device.torchMode = .off
        }
        rig.device.record(FrameMetadata())
    }

    @Test("torch .auto lights in a dim scene and not in a bright one")
    func torchAuto() throws {
        let rig = try TestRig()
        rig.device.simulation?.sceneLuminance = 5
        rig.session.startRunning()
        try configure(rig.device) { rig.device.torchMode = .auto }
        try rig.collector.waitForMoreFrames(3)
        #expect(rig.device.isTorchActive && rig.device.torchMode == .auto)
        rig.device.simulation?.sceneLuminance = 200
        try rig.collector.waitForMoreFrames(3)
        #expect(!rig.device.isTorchActive)
        rig.stop()
        try configure(rig.device) { rig.device.torchMode = .off }
    }
}
