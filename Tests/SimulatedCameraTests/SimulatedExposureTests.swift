import Foundation
import Synchronization
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// A virtual-time back wide camera.
private func camera() -> SimulatedCamera {
    let camera = SimulatedCameraCatalog.builtInCameras()[0]
    camera.pacing = .virtual
    return camera
}

/// Streams `frames` frames at 30 fps (352×288) and returns their metadata.
private func record(
    _ camera: SimulatedCamera, frames: Int, onFrame: @escaping @Sendable (FrameMetadata) -> Void = { _ in }
) throws -> [FrameMetadata] {
    let sink = MetadataSink(limit: frames, onFrame: onFrame)
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    let configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats["AVCaptureSessionPreset352x288"]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: .yuv420BiPlanarVideoRange)
    try camera.start(configuration, sink: sink)
    try sink.wait(thenStop: camera)
    return sink.frames
}

/// Total exposure t·ISO.
private func total(_ m: FrameMetadata) -> Double { m.exposureDuration * Double(m.iso) }

/// Prints figures for reports when OPENCAPTURE_REPORT is set.
private func report(_ line: @autoclosure () -> String) {
    if ProcessInfo.processInfo.environment["OPENCAPTURE_REPORT"] != nil { print("report:", line()) }
}

@Suite("Simulated exposure modes")
struct SimulatedExposureTests {
    /// The first frame stamped with a custom request has its time and ISO; nil keeps the
    /// current value; the mode carries over a stop and start.
    @Test func customExposureAppliesOnTheFirstStampedFrame() throws {
        let camera = camera()
        let frames = try record(camera, frames: 20) { m in
            if m.sequence == 5 { camera.apply(ControlRequest(id: 1, exposure: .custom(duration: 1.0 / 200, iso: 400))) }
            if m.sequence == 10 { camera.apply(ControlRequest(id: 2, exposure: .custom(duration: nil, iso: 800))) }
        }
        let first = try #require(frames.firstIndex { $0.appliedRequest >= 1 })
        #expect(frames[first].sequence == 6 && frames[first - 1].exposureState == .continuous)
        #expect(frames[first].exposureState == .custom && !frames[first].isAdjustingExposure)
        #expect(abs(frames[first].exposureDuration - 1.0 / 200) < 1e-12 && frames[first].iso == 400)
        let second = try #require(frames.firstIndex { $0.appliedRequest >= 2 })
        #expect(abs(frames[second].exposureDuration - 1.0 / 200) < 1e-12 && frames[second].iso == 800)
        // Out-of-range values are clamped to the format's.
        camera.apply(ControlRequest(id: 3, exposure: .custom(duration: 5, iso: 1e6)))
        let again = try record(camera, frames: 3)
        #expect(again.allSatisfy { $0.exposureState == .custom && $0.exposureDuration == 1 && $0.iso == 3264 })
        camera.apply(ControlRequest(id: 4, exposure: .continuous))
        let auto = try record(camera, frames: 3)
        #expect(auto.allSatisfy { $0.exposureState == .continuous })
    }

    /// 1/10 s at a 30 fps configuration makes 1/10 s frames; timestamps follow exactly.
    @Test func longCustomExposureLengthensFrames() throws {
        let camera = camera()
        let frames = try record(camera, frames: 12) { m in
            if m.sequence == 3 { camera.apply(ControlRequest(id: 1, exposure: .custom(duration: 0.1, iso: nil))) }
        }
        for m in frames {
            let expected = m.appliedRequest >= 1 ? 0.1 : 1.0 / 30
            #expect(abs(HostClock.seconds(m.frameDuration) - expected) < 1e-9, "frame \(m.sequence)")
            #expect(m.exposureDuration <= HostClock.seconds(m.frameDuration) + 1e-9)
        }
        // Each frame starts where the last ended: exact at 1/10 s, within the nanosecond
        // rounding of an exact sum at 1/30 s.
        for (a, b) in zip(frames, frames.dropFirst()) {
            let step = HostClock.nanoseconds(of: b.presentationTime) - HostClock.nanoseconds(of: a.presentationTime)
            let expected = HostClock.seconds(a.frameDuration) * 1e9
            #expect(abs(Double(step) - expected) < 1, "frame \(b.sequence)")
            if a.appliedRequest >= 1 { #expect(step == 100_000_000) }
        }
        #expect(frames[4].exposureState == .custom && frames[4].exposureDuration == 0.1)
    }

    /// Locked holds time and ISO when the scene brightens; the offset shows the change.
    @Test func lockedHoldsExposureWhenTheSceneBrightens() throws {
        let camera = camera()
        let frames = try record(camera, frames: 40) { m in
            if m.sequence == 20 { camera.apply(ControlRequest(id: 1, exposure: .lockCurrent)) }
            if m.sequence == 25 { camera.sceneLuminanceScale = 800 }
        }
        let locked = frames.filter { $0.appliedRequest >= 1 }
        let reference = frames[20]
        #expect(locked.count == 19)
        #expect(locked.allSatisfy { $0.exposureState == .locked && !$0.isAdjustingExposure })
        #expect(locked.allSatisfy { $0.exposureDuration == reference.exposureDuration && $0.iso == reference.iso })
        #expect(locked.last!.exposureTargetOffset > 1.2)
    }

    /// Auto once adjusts to a new light, then reports locked and holds.
    @Test func autoOnceSettlesThenLocks() throws {
        let camera = camera()
        let frames = try record(camera, frames: 60) { m in
            if m.sequence == 15 {
                camera.sceneLuminanceScale = 50
                camera.apply(ControlRequest(id: 1, exposure: .autoOnce))
            }
            if m.sequence == 50 { camera.sceneLuminanceScale = 200 }
        }
        let once = frames.filter { $0.appliedRequest >= 1 }
        #expect(once.first?.exposureState == .autoOnce && once.first?.isAdjustingExposure == true)
        let lockedAt = try #require(once.firstIndex { $0.exposureState == .locked })
        report("auto once locked \(lockedAt) frames after the request")
        let held = once[lockedAt...]
        #expect(abs(held.first!.exposureTargetOffset) < 0.15)
        #expect(held.allSatisfy { $0.exposureState == .locked && total($0) == total(held.first!) })
        #expect(!held.first!.isAdjustingExposure)
    }

    /// +1 EV of bias doubles the exposure (t·ISO) within 10 %; offsets are measured
    /// against the biased target, so both settle near 0.
    @Test func biasRaisesExposureOneStop() throws {
        let plain = try record(camera(), frames: 40)
        let biasedCamera = camera()
        biasedCamera.apply(ControlRequest(id: 1, exposureTargetBias: 1))
        let biased = try record(biasedCamera, frames: 40)
        let ratio = total(biased.last!) / total(plain.last!)
        report("bias +1 EV: exposure ratio \(ratio)")
        #expect(abs(ratio / 2 - 1) < 0.1, "ratio \(ratio)")
        #expect(biased.allSatisfy { $0.exposureTargetBias == 1 } && plain.allSatisfy { $0.exposureTargetBias == 0 })
        #expect(abs(biased.last!.exposureTargetOffset) < 0.15 && abs(plain.last!.exposureTargetOffset) < 0.15)
        #expect(biased.last!.meanLuma > plain.last!.meanLuma)
    }

    /// In custom the bias only moves the target the offset is measured against.
    @Test func biasInCustomOnlyChangesTheOffset() throws {
        let camera = camera()
        let frames = try record(camera, frames: 12) { m in
            if m.sequence == 2 { camera.apply(ControlRequest(id: 1, exposure: .custom(duration: 1.0 / 500, iso: 100))) }
            if m.sequence == 6 { camera.apply(ControlRequest(id: 2, exposureTargetBias: 2)) }
        }
        let before = frames[5], after = frames[7]
        #expect(total(before) == total(after))
        #expect(abs(before.exposureTargetOffset - after.exposureTargetOffset - 2) < 0.1)
    }

    /// Metering the clipped white marker darkens the exposure against the centre.
    @Test func pointOfInterestOnTheMarkerDarkensExposure() throws {
        let centre = try record(camera(), frames: 40)
        let spotCamera = camera()
        spotCamera.apply(
            ControlRequest(id: 1, exposure: .continuous, exposurePointOfInterest: PointOfInterest(x: 0.1, y: 0.1)))
        let spot = try record(spotCamera, frames: 40)
        let stops = log2(total(centre.last!) / total(spot.last!))
        report("point of interest on the marker: \(stops) EV darker")
        #expect(stops > 0.5, "\(stops) EV")
        #expect(abs(spot.last!.exposureTargetOffset) < 0.15)
    }

    /// After a 4 EV step (×16 or ÷16) continuous AE settles within 15 frames, approaching
    /// monotonically; time is used before ISO.
    @Test(arguments: [16.0, 1.0 / 16]) func fourStopStepConvergesMonotonically(factor: Double) throws {
        let camera = camera()
        let start: Float = factor > 1 ? 100 : 400
        camera.sceneLuminanceScale = start
        let frames = try record(camera, frames: 70) { m in
            if m.sequence == 39 { camera.sceneLuminanceScale = start * Float(factor) }
        }
        let after = Array(frames[40...])
        let final = total(after.last!)
        let settledAt = try #require(after.firstIndex { abs($0.exposureTargetOffset) < 0.1 })
        report(
            "4 EV step ×\(factor): |offset| < 0.1 EV after \(settledAt) frames; offsets "
                + after.prefix(18).map { String(format: "%.2f", $0.exposureTargetOffset) }.joined(separator: " "))
        #expect(settledAt <= 15)
        // Monotonic approach: total exposure moves one way, never past the final value by
        // more than 3 %.
        let totals = after.map(total)
        let sign = final > total(frames[39]) ? 1.0 : -1.0
        for (a, b) in zip(totals, totals.dropFirst()) { #expect((b - a) * sign >= -1e-9 * a) }
        #expect(totals.allSatisfy { ($0 / final - 1) * sign <= 0.03 })
        // Time first, then ISO.
        for m in after where m.iso > 34.5 {
            #expect(abs(m.exposureDuration - 1.0 / 30) < 1e-9, "ISO \(m.iso) at \(m.exposureDuration) s")
        }
        #expect(after.last!.isAdjustingExposure == false)
    }

    /// An active maximum caps exposure time in a dim scene; ISO makes up the difference.
    @Test func activeMaxExposureCapsTimeAndRaisesISO() throws {
        let free = camera()
        free.sceneLuminanceScale = 10
        let uncapped = try record(free, frames: 40).last!
        let capped = camera()
        capped.sceneLuminanceScale = 10
        capped.apply(ControlRequest(id: 1, exposure: .continuous, activeMaxExposureDuration: 1.0 / 120))
        let frames = try record(capped, frames: 40)
        let last = frames.last!
        report("active max 1/120 s: \(uncapped.exposureDuration) s ISO \(uncapped.iso) → \(last.exposureDuration) s ISO \(last.iso)")
        #expect(frames.allSatisfy { $0.exposureDuration <= 1.0 / 120 + 1e-12 })
        #expect(abs(uncapped.exposureDuration - 1.0 / 30) < 1e-9)
        #expect(last.iso > uncapped.iso * 3)
        #expect(abs(total(last) / total(uncapped) - 1) < 0.1)
        // 0 restores the format's default.
        capped.apply(ControlRequest(id: 2, activeMaxExposureDuration: 0))
        let reset = try record(capped, frames: 30).last!
        #expect(abs(reset.exposureDuration - 1.0 / 30) < 1e-9)
    }
}
