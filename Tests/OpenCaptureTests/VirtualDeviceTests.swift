import Foundation
import Testing

@testable import OpenCapture

/// A session streaming one simulated device in virtual time into a `LumaGrabber`.
final class LumaRig {
    let session = AVCaptureSession()
    let output = AVCaptureVideoDataOutput()
    let grabber = LumaGrabber()
    let device: AVCaptureDevice

    init(uniqueID: String, preset: AVCaptureSession.Preset = .vga640x480, seed: UInt64 = 7) throws {
        device = try #require(AVCaptureDevice(uniqueID: uniqueID))
        device.simulation?.pacing = .virtual
        device.simulation?.seed = seed
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: device))
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
        output.setSampleBufferDelegate(grabber, queue: grabber.queue)
        session.addOutput(output)
    }

    /// Sets the zoom and returns the `settle`-th frame made at it.
    func frame(atZoom zoom: CGFloat, settle: Int = 20) throws -> LumaGrabber.Shot {
        try device.lockForConfiguration()
        device.videoZoomFactor = zoom
        device.unlockForConfiguration()
        grabber.reset()
        return try grabber.wait(for: settle) { abs($0.metadata.zoomFactor - Double(zoom)) < 1e-9 }.last!
    }

    func stop() {
        session.stopRunning()
        device.simulation?.pacing = .realTime
    }

    deinit { if session.isRunning { stop() } }
}

@Suite("Virtual devices: the dual wide and triple cameras switch constituents with the zoom", .serialized)
struct VirtualDeviceTests {
    @Test("the dual wide and triple cameras are virtual devices of the back cameras")
    func catalogue() throws {
        let dual = try #require(AVCaptureDevice.default(.builtInDualWideCamera, for: .video, position: .back))
        let triple = try #require(AVCaptureDevice.default(.builtInTripleCamera, for: .video, position: .back))
        #expect(dual.uniqueID == "sim:back-dualwide" && triple.uniqueID == "sim:back-triple")
        #expect(dual.isVirtualDevice && triple.isVirtualDevice)
        #expect(dual.constituentDevices.map(\.uniqueID) == ["sim:back-ultrawide", "sim:back-wide"])
        #expect(triple.constituentDevices.map(\.uniqueID) == ["sim:back-ultrawide", "sim:back-wide", "sim:back-tele"])
        #expect(dual.virtualDeviceSwitchOverVideoZoomFactors.map(\.doubleValue) == [2.34])
        #expect(triple.virtualDeviceSwitchOverVideoZoomFactors.map(\.doubleValue) == [2.34, 5.33])
        #expect(triple.minAvailableVideoZoomFactor == 1)
        #expect(abs(triple.displayVideoZoomFactorMultiplier - 1 / 2.34) < 1e-9)
        let hd = { (device: AVCaptureDevice) in
            device.formats.first { $0.formatDescription.dimensions.width == 1920 && $0.formatDescription.dimensions.height == 1080 }
        }
        #expect(hd(triple)?.videoFieldOfView == hd(AVCaptureDevice(uniqueID: "sim:back-ultrawide")!)?.videoFieldOfView)
        #expect(triple.activeFormat.videoMaxZoomFactor > 5.33)
        #expect(triple.primaryConstituentDeviceSwitchingBehavior == .auto)
        #expect(triple.activePrimaryConstituentDeviceSwitchingBehavior == .auto)
        #expect(triple.primaryConstituentDeviceRestrictedSwitchingBehaviorConditions == [])
        #expect(triple.activePrimaryConstituent?.uniqueID == "sim:back-ultrawide")
        #expect(triple.supportedFallbackPrimaryConstituentDevices.isEmpty && triple.fallbackPrimaryConstituentDevices.isEmpty)
        // Virtual devices refuse custom exposure, lens positions and gains, as on iOS.
        #expect(!triple.isExposureModeSupported(.custom) && triple.isExposureModeSupported(.continuousAutoExposure))
        #expect(!triple.isLockingFocusWithCustomLensPositionSupported)
        #expect(!triple.isLockingWhiteBalanceWithCustomDeviceGainsSupported)
        #expect(triple.hasFlash && triple.hasTorch)
    }

    @Test("physical cameras answer as non-virtual devices")
    func physical() throws {
        let wide = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(!wide.isVirtualDevice && wide.constituentDevices.isEmpty)
        #expect(wide.virtualDeviceSwitchOverVideoZoomFactors.isEmpty && wide.activePrimaryConstituent == nil)
        #expect(wide.primaryConstituentDeviceSwitchingBehavior == .unsupported)
        #expect(wide.activePrimaryConstituentDeviceSwitchingBehavior == .unsupported)
        #expect(wide.displayVideoZoomFactorMultiplier == 1)
        #expect(abs(AVCaptureDevice(uniqueID: "sim:back-tele")!.displayVideoZoomFactorMultiplier - 2.28) < 0.01)
        #expect(AVCaptureDevice(uniqueID: "sim:front-wide")!.displayVideoZoomFactorMultiplier == 1)
    }

    @Test("a multi-cam set never pairs a virtual device with its own constituent")
    func multiCamSets() {
        let sets = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInDualWideCamera, .builtInWideAngleCamera, .builtInUltraWideCamera], mediaType: .video,
            position: .unspecified
        ).supportedMultiCamDeviceSets
        let ids = sets.map { Set($0.map(\.uniqueID)) }
        #expect(!ids.contains(["sim:back-dualwide", "sim:back-wide"]))
        #expect(ids.contains(["sim:back-dualwide", "sim:front-wide"]))
    }

    @Test("zooming across the switch-over factors changes the constituent and the optics, keeping the framing")
    func switchOverOnFrames() throws {
        let rig = try LumaRig(uniqueID: "sim:back-triple")
        defer { rig.stop() }
        rig.session.startRunning()
        let ultraWide = try rig.frame(atZoom: 2)
        #expect(ultraWide.metadata.activeConstituent == 0 && rig.device.activePrimaryConstituent?.uniqueID == "sim:back-ultrawide")
        #expect(ultraWide.metadata.lensAperture == 2.2)
        let wide = try rig.frame(atZoom: 3)
        #expect(wide.metadata.activeConstituent == 1 && rig.device.activePrimaryConstituent?.uniqueID == "sim:back-wide")
        #expect(wide.metadata.lensAperture == 1.78)
        let tele = try rig.frame(atZoom: 6)
        #expect(tele.metadata.activeConstituent == 2 && rig.device.activePrimaryConstituent?.uniqueID == "sim:back-tele")
        #expect(tele.metadata.lensAperture == 2.8)
        // The wide camera at its own zoom 3/2.34 shows 1.5x the ultra wide at 2; the
        // telephoto at 6/5.33 shows 2x the wide at 3. Were a constituent's own zoom taken as
        // the device's, the chart would shrink at the switch (0.64x).
        let first = LumaMeasure.magnification(of: wide, relativeTo: ultraWide, range: 0.5...2)
        let second = LumaMeasure.magnification(of: tele, relativeTo: wide, range: 1...2.6)
        #expect(abs(first - 1.5) <= 0.04, "magnification across the wide switch-over: \(first)")
        #expect(abs(second - 2) <= 0.05, "magnification across the telephoto switch-over: \(second)")
    }

    @Test("past the switch-over the wide camera's larger pixels and aperture show as less noise")
    func noiseFollowsTheConstituent() throws {
        let rig = try LumaRig(uniqueID: "sim:back-dualwide")
        defer { rig.stop() }
        try rig.device.simulation!.setScene(.flat(reflectance: 0.18))
        rig.device.simulation!.sceneIlluminance = 10
        rig.session.startRunning()
        let measure = { (zoom: CGFloat) throws -> (noise: Double, mean: Double, constituent: Int) in
            let shots = try rig.grabberFrames(atZoom: zoom)
            return (LumaMeasure.temporalNoise(shots[0], shots[1]), LumaMeasure.meanLuma(shots[1]), shots[1].metadata.activeConstituent)
        }
        let ultraWide = try measure(2.2)
        let wide = try measure(2.5)
        #expect(ultraWide.constituent == 0 && wide.constituent == 1)
        #expect(abs(ultraWide.mean - wide.mean) < 0.15 * ultraWide.mean, "auto exposure keeps the brightness: \(ultraWide.mean) vs \(wide.mean)")
        #expect(wide.noise < 0.75 * ultraWide.noise, "temporal noise \(ultraWide.noise) (ultra wide) vs \(wide.noise) (wide)")
    }

    @Test("locked switching holds the constituent, and the zoom stays within its reach")
    func lockedSwitching() throws {
        let rig = try LumaRig(uniqueID: "sim:back-triple")
        defer { rig.stop() }
        rig.session.startRunning()
        _ = try rig.frame(atZoom: 3, settle: 2)
        try rig.device.lockForConfiguration()
        rig.device.setPrimaryConstituentDeviceSwitchingBehavior(.locked, restrictedSwitchingBehaviorConditions: [])
        rig.device.unlockForConfiguration()
        #expect(rig.device.primaryConstituentDeviceSwitchingBehavior == .locked)
        #expect(rig.device.minAvailableVideoZoomFactor == 2.34)
        let held = try rig.frame(atZoom: 7, settle: 2)
        #expect(held.metadata.activeConstituent == 1 && rig.device.activePrimaryConstituent?.uniqueID == "sim:back-wide")
        try rig.device.lockForConfiguration()
        rig.device.videoZoomFactor = 1.5
        rig.device.unlockForConfiguration()
        #expect(rig.device.videoZoomFactor == 2.34, "below the held wide camera's reach the zoom is clamped")
        rig.grabber.reset()
        let clamped = try rig.grabber.wait(for: 1) { abs($0.metadata.zoomFactor - 2.34) < 1e-9 }
        #expect(clamped[0].metadata.activeConstituent == 1)
        try rig.device.lockForConfiguration()
        rig.device.setPrimaryConstituentDeviceSwitchingBehavior(.restricted, restrictedSwitchingBehaviorConditions: [.focusModeChanged])
        rig.device.unlockForConfiguration()
        #expect(rig.device.primaryConstituentDeviceRestrictedSwitchingBehaviorConditions == [.focusModeChanged])
        let restricted = try rig.frame(atZoom: 7, settle: 2)
        #expect(restricted.metadata.activeConstituent == 1, "restricted without videoZoomChanged: zoom does not switch")
        try rig.device.lockForConfiguration()
        rig.device.focusMode = .continuousAutoFocus
        rig.device.unlockForConfiguration()
        rig.grabber.reset()
        let switched = try rig.grabber.wait(for: 2) { $0.metadata.activeConstituent == 2 }
        #expect(switched.count == 2, "setting the focus mode let it switch to the telephoto")
        try rig.device.lockForConfiguration()
        rig.device.setPrimaryConstituentDeviceSwitchingBehavior(.auto, restrictedSwitchingBehaviorConditions: [])
        rig.device.unlockForConfiguration()
        #expect(rig.device.minAvailableVideoZoomFactor == 1)
        #expect(try rig.frame(atZoom: 1, settle: 1).metadata.activeConstituent == 0)
    }
}

extension LumaRig {
    /// Two consecutive frames at `zoom` after auto exposure settled.
    func grabberFrames(atZoom zoom: CGFloat) throws -> [LumaGrabber.Shot] {
        try device.lockForConfiguration()
        device.videoZoomFactor = zoom
        device.unlockForConfiguration()
        grabber.reset()
        return Array(try grabber.wait(for: 40) { abs($0.metadata.zoomFactor - Double(zoom)) < 1e-9 }.suffix(2))
    }
}
