import ColorScience
import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// A virtual-time camera from the catalog under `illuminant`.
private func camera(_ index: Int = 0, kelvin: Double = 6500, tint: Double = 0) -> SimulatedCamera {
    let camera = SimulatedCameraCatalog.builtInCameras()[index]
    camera.pacing = .virtual
    camera.illuminant = (kelvin, tint)
    return camera
}

/// Streams `frames` frames and returns the sink.
private func record(
    _ camera: SimulatedCamera, frames: Int, preset: String = "AVCaptureSessionPreset352x288",
    pixelFormat: PixelFormat = .yuv420BiPlanarVideoRange, onFrame: @escaping @Sendable (FrameMetadata) -> Void = { _ in }
) throws -> MetadataSink {
    let sink = MetadataSink(limit: frames, onFrame: onFrame)
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    let configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats[preset]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: pixelFormat)
    try camera.start(configuration, sink: sink)
    defer { camera.stop() }
    try sink.wait()
    return sink
}

private func gains(_ m: FrameMetadata) -> SIMD3<Double> {
    SIMD3(Double(m.whiteBalanceGains.red), Double(m.whiteBalanceGains.green), Double(m.whiteBalanceGains.blue))
}

/// The colour model the API layer builds from a camera's calibration.
private func model(_ camera: SimulatedCamera) -> CameraColorModel {
    let c = camera.descriptor.colorCalibration!
    return CameraColorModel(
        colorMatrix1: Matrix3x3(rowMajor: c.colorMatrix1), temperature1: c.temperature1,
        colorMatrix2: Matrix3x3(rowMajor: c.colorMatrix2), temperature2: c.temperature2)
}

/// CIELAB (D65 white) of the mean linear colour of a box at the centre of chart patch
/// (`column`, `row`) in a BGRA frame.
private func patchLab(_ buffer: CVPixelBuffer, column: Int, row: Int) -> Lab {
    let x = ColorChart.minX + (ColorChart.maxX - ColorChart.minX) * (Double(column) + 0.5) / Double(ColorChart.columns)
    let y = ColorChart.minY + (ColorChart.maxY - ColorChart.minY) * (Double(row) + 0.5) / Double(ColorChart.rows)
    let cx = Int(x * Double(buffer.width)), cy = Int(y * Double(buffer.height))
    let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
    var sum = SIMD3<Double>(), count = 0.0
    for py in (cy - 6)...(cy + 6) {
        for px in (cx - 6)...(cx + 6) {
            let p = base + py * buffer.bytesPerRow(0) + 4 * px
            let rgb = SIMD3(Double(p[2]), Double(p[1]), Double(p[0])) / 255
            sum += SIMD3(
                TransferFunction.sRGB.decode(rgb.x), TransferFunction.sRGB.decode(rgb.y),
                TransferFunction.sRGB.decode(rgb.z))
            count += 1
        }
    }
    return Lab(xyz: RGBColorSpace.sRGB.toXYZ * (sum / count), referenceWhite: Chromaticity.d65)
}

/// Each neutral patch's CIEDE2000 from a neutral of the same lightness.
private func neutralErrors(_ buffer: CVPixelBuffer) -> [Double] {
    (0..<ColorChart.columns).map { column in
        let lab = patchLab(buffer, column: column, row: ColorChart.rows - 1)
        return ColorDifference.ciede2000(lab, Lab(L: lab.L, a: 0, b: 0))
    }
}

/// Lane-wise magnitude.
private func absolute<V: SIMD>(_ v: V) -> V where V.Scalar: FloatingPoint {
    v.replacing(with: -v, where: v .< .zero)
}

/// Prints figures for reports when OPENCAPTURE_REPORT is set.
private func report(_ line: @autoclosure () -> String) {
    if ProcessInfo.processInfo.environment["OPENCAPTURE_REPORT"] != nil { print("report:", line()) }
}

@Suite("Simulated white balance")
struct SimulatedWhiteBalanceTests {
    @Test func everyCameraPublishesACalibrationWithinGainRange() {
        for camera in SimulatedCameraCatalog.builtInCameras() {
            let calibration = try! #require(camera.descriptor.colorCalibration)
            #expect(calibration.maxWhiteBalanceGain == 4)
            #expect(calibration.temperature1 == 2856 && calibration.temperature2 == 6504)
            let m = model(camera)
            // Tungsten needs a blue gain below the maximum; daylight gains are in range too.
            for kelvin in [2850.0, 3500, 5000, 6504, 7500, 10000] {
                let g = m.gains(for: TemperatureTint(temperature: kelvin, tint: 0))
                #expect(g.min() == 1 && g.max() < 3.5, "\(camera.descriptor.uniqueID) at \(kelvin) K: \(g)")
            }
        }
    }

    /// (a) neutral patches neutral within ΔE00 3, (b) the converged gains' white within 5 %.
    @Test(arguments: [0, 1, 2, 3], [2850.0, 3500, 4500, 5500, 6500, 7500])
    func convergedAutoWhiteBalanceRendersNeutralsNeutral(cameraIndex: Int, kelvin: Double) throws {
        let camera = camera(cameraIndex, kelvin: kelvin)
        let sink = try record(camera, frames: 30, preset: "AVCaptureSessionPreset640x480", pixelFormat: .bgra)
        let last = try #require(sink.frames.last)
        #expect(last.sceneTemperature == kelvin && last.sceneTint == 0)
        #expect(last.whiteBalanceState == .continuous && !last.isAdjustingWhiteBalance)
        let errors = neutralErrors(try #require(sink.lastBuffer))
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean <= 3, "\(camera.descriptor.uniqueID) at \(kelvin) K: ΔE00 \(errors)")
        let implied = model(camera).temperatureTint(forGains: gains(last))
        #expect(abs(implied.temperature / kelvin - 1) <= 0.05, "\(kelvin) K read as \(implied)")
        report(
            "\(camera.descriptor.uniqueID) \(Int(kelvin)) K: mean ΔE00 \(String(format: "%.2f", mean)), gains "
                + "\(gains(last)), white \(Int(implied.temperature.rounded())) K tint \(String(format: "%.1f", implied.tint))")
    }

    /// With the white balanced, the whole chart keeps its colours under any light (the
    /// camera is colorimetric by construction; what is left is noise, quantisation and the
    /// clipped cyan).
    @Test(arguments: [2850.0, 4500, 6500, 7500])
    func chartColoursSurviveTheLight(kelvin: Double) throws {
        let camera = camera(kelvin: kelvin)
        let sink = try record(camera, frames: 30, preset: "AVCaptureSessionPreset640x480", pixelFormat: .bgra)
        let buffer = try #require(sink.lastBuffer)
        // AE exposes the chart below its sRGB codes; compare at the exposure of neutral 8.
        let measured = (0..<ColorChart.reflectance.count).map {
            patchLab(buffer, column: $0 % ColorChart.columns, row: $0 / ColorChart.columns)
        }
        let scale = measured[19].xyz(referenceWhite: Chromaticity.d65).y / Double(ColorChart.reflectance[19].y)
        let errors = ColorChart.reflectance.indices.map { i -> Double in
            let rgb = SIMD3<Double>(ColorChart.reflectance[i]) * scale
            let expected = Lab(xyz: RGBColorSpace.sRGB.toXYZ * rgb, referenceWhite: Chromaticity.d65)
            return ColorDifference.ciede2000(measured[i], expected)
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean <= 3, "\(kelvin) K: ΔE00 \(errors)")
        report("chart at \(Int(kelvin)) K: mean ΔE00 \(String(format: "%.2f", mean)), max \(String(format: "%.2f", errors.max()!))")
    }

    /// (c) A jump from 6500 K to 2850 K settles within 30 frames, every gain moving one way.
    @Test func illuminantJumpConvergesWithoutOvershoot() throws {
        let camera = camera()
        let jump = 20
        camera.scheduleIlluminant(temperature: 2850, tint: 0, atFrame: Int64(jump))
        let frames = try record(camera, frames: jump + 45).frames
        #expect(frames.prefix(jump).allSatisfy { $0.sceneTemperature == 6500 })
        #expect(frames.dropFirst(jump).allSatisfy { $0.sceneTemperature == 2850 })
        #expect(camera.illuminant == (2850, 0))
        let before = gains(frames[jump - 1]), final = gains(frames.last!)
        let expected = model(camera).gains(for: TemperatureTint(temperature: 2850, tint: 0))
        #expect(absolute(final - expected).max() < 0.03 * expected.max(), "\(final) vs \(expected)")
        func within1Percent(_ g: SIMD3<Double>) -> Bool { (absolute(g - final) / final).max() <= 0.01 }
        let settled = try #require(frames.indices.first { $0 >= jump && frames[$0...].allSatisfy { within1Percent(gains($0)) } })
        #expect(settled - jump <= 30, "settled \(settled - jump) frames after the jump")
        // Monotonic per channel from the jump on: no overshoot, no oscillation.
        let direction = final - before
        for (a, b) in zip(frames[(jump - 1)...], frames[jump...]) {
            let step = (gains(b) - gains(a)) * direction
            #expect(step.min() >= 0, "gains went back at frame \(b.sequence): \(gains(a)) → \(gains(b))")
        }
        #expect(frames[jump + 1].isAdjustingWhiteBalance)
        #expect(!frames.last!.isAdjustingWhiteBalance)
        report("jump 6500 → 2850 K: gains \(before) → \(final), within 1 % after \(settled - jump) frames")
    }

    /// Setting the illuminant mid-stream applies from the next frame; AWB follows.
    @Test func illuminantSetterAppliesFromTheNextFrame() throws {
        let camera = camera()
        let frames = try record(camera, frames: 40) { m in
            if m.sequence == 5 { camera.illuminant = (4000, -12) }
        }.frames
        #expect(frames[...5].allSatisfy { $0.sceneTemperature == 6500 && $0.sceneTint == 0 })
        #expect(frames[6...].allSatisfy { $0.sceneTemperature == 4000 && $0.sceneTint == -12 })
        let white = model(camera).temperatureTint(forGains: gains(frames.last!))
        #expect(abs(white.temperature / 4000 - 1) < 0.02 && abs(white.tint + 12) < 3, "\(white)")
    }

    /// (d) Locked gains hold when the light changes.
    @Test(arguments: [WhiteBalanceControl.lockCurrent, .lock(red: 1.5, green: 1, blue: 2.5)])
    func lockedGainsHoldWhenTheLightChanges(control: WhiteBalanceControl) throws {
        let camera = camera()
        camera.scheduleIlluminant(temperature: 3000, tint: 20, atFrame: 20)
        let sink = try record(camera, frames: 40) { m in
            if m.sequence == 10 { camera.apply(ControlRequest(id: 1, whiteBalance: control)) }
        }
        let frames = sink.frames
        let held = gains(frames[11])
        if case .lock(let r, let g, let b) = control { #expect(held == SIMD3(Double(r), Double(g), Double(b))) }
        if case .lockCurrent = control { #expect(held == gains(frames[10])) }
        for m in frames[11...] {
            #expect(gains(m) == held)
            #expect(m.whiteBalanceState == .locked && !m.isAdjustingWhiteBalance)
        }
        #expect(frames[25].sceneTemperature == 3000 && frames[25].sceneTint == 20)
    }

    /// (d) Auto once adjusts until settled, then reports locked and holds.
    @Test func autoOnceSettlesThenLocks() throws {
        let camera = camera(kelvin: 4000)
        camera.apply(ControlRequest(id: 1, whiteBalance: .lock(red: 1, green: 1, blue: 1)))
        camera.scheduleIlluminant(temperature: 7000, tint: 0, atFrame: 45)
        let sink = try record(camera, frames: 60) { m in
            if m.sequence == 4 { camera.apply(ControlRequest(id: 2, whiteBalance: .autoOnce)) }
        }
        let frames = sink.frames
        #expect(frames[..<5].allSatisfy { $0.whiteBalanceState == .locked && gains($0) == SIMD3(1, 1, 1) })
        #expect(frames[5].whiteBalanceState == .autoOnce && frames[5].isAdjustingWhiteBalance)
        let locked = try #require(frames.firstIndex { $0.sequence > 5 && $0.whiteBalanceState == .locked })
        #expect(locked <= 40, "locked at frame \(locked)")
        #expect(frames[5..<locked].allSatisfy { $0.whiteBalanceState == .autoOnce })
        let held = gains(frames[locked])
        let expected = model(camera).gains(for: TemperatureTint(temperature: 4000, tint: 0))
        #expect((absolute(held - expected) / expected).max() < 0.02, "\(held) vs \(expected)")
        // Locked for good: the light changes at frame 45 and the gains stay.
        for m in frames[locked...] {
            #expect(m.whiteBalanceState == .locked && !m.isAdjustingWhiteBalance && gains(m) == held)
        }
    }

    /// (e) The first frame made with a request carries its id and its gains.
    @Test func requestsAreStampedOnTheFirstFrameThatUsesThem() throws {
        let camera = camera()
        // Made while stopped: applies to the first frame of the next stream.
        camera.apply(ControlRequest(id: 3, whiteBalance: .continuous))
        let sink = try record(camera, frames: 14) { m in
            if m.sequence == 7 { camera.apply(ControlRequest(id: 5, whiteBalance: .lock(red: 2, green: 1, blue: 1.5))) }
        }
        let frames = sink.frames
        #expect(frames[0].appliedRequest == 3)
        #expect(frames[..<8].allSatisfy { $0.appliedRequest == 3 && $0.whiteBalanceState == .continuous })
        #expect(frames[8].appliedRequest == 5 && gains(frames[8]) == SIMD3(2, 1, 1.5))
        #expect(frames[8...].allSatisfy { $0.appliedRequest == 5 && $0.whiteBalanceState == .locked })
        // The mode, gains and request count carry over to the next start.
        let again = try record(camera, frames: 3).frames
        #expect(again.allSatisfy { $0.appliedRequest == 5 && $0.whiteBalanceState == .locked })
        #expect(again.allSatisfy { gains($0) == SIMD3(2, 1, 1.5) })
    }

    /// (f) Grey-world gains neutralise a grey centre.
    @Test func grayWorldGainsNeutraliseAGreyCentre() {
        let width = 64, height = 48, black: UInt16 = 64
        let zones = ZoneStatistics()
        let buffer = ZoneStatistics.makeBuffer()
        defer { buffer.deallocate() }
        // A centre of camera neutral (0.45, 1, 0.3) × 400 DN; the surround a saturated red.
        let neutral = SIMD3<Double>(0.45, 1, 0.3)
        var raw = [UInt16](repeating: 0, count: 3 * width)
        for y in 0..<height where FrameStatistics.samples(row: y) {
            for x in 0..<width {
                let centre = x >= width / 4 && x < width * 3 / 4 && y >= height / 4 && y < height * 3 / 4
                let signal = centre ? neutral * 400 : SIMD3(600, 40, 30)
                for c in 0..<3 { raw[c * width + x] = black + UInt16(signal[c]) }
            }
            raw.withUnsafeBufferPointer {
                ZoneStatistics.accumulate($0.baseAddress!, width: width, row: y, height: height, clip: 1000, into: buffer)
            }
        }
        zones.merge([buffer], black: Double(black), white: 959)
        let gains = zones.centreGrayWorldGains(maxGain: 4)
        #expect(gains.min() == 1)
        let balanced = gains * neutral
        #expect(balanced.max() / balanced.min() - 1 < 1e-9, "\(gains)")
    }

    /// (f) In a stream, the grey-world gains read the sensor, not the gains in use.
    @Test func grayWorldGainsDoNotDependOnTheGainsInUse() throws {
        func lastGrayWorld(_ control: WhiteBalanceControl) throws -> SIMD3<Float> {
            let camera = camera(kelvin: 3500)
            camera.apply(ControlRequest(id: 1, whiteBalance: control))
            let g = try #require(try record(camera, frames: 4).frames.last?.grayWorldGains)
            return SIMD3(g.red, g.green, g.blue)
        }
        let a = try lastGrayWorld(.lock(red: 1, green: 1, blue: 1))
        let b = try lastGrayWorld(.lock(red: 3, green: 1, blue: 1.2))
        #expect(a.min() == 1 && a.max() <= 4)
        #expect(absolute(a - b).max() < 0.02 * a.max(), "\(a) vs \(b)")
    }
}
