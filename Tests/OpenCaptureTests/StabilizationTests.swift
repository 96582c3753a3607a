import Foundation
import Testing

@testable import OpenCapture

/// Video stabilization measured on frames of a shaken simulated camera.
@Suite("Video stabilization takes out camera shake at the cost of a crop", .serialized)
struct StabilizationTests {
    /// The global translation between two frames, by block matching on luma: the integer
    /// shift within ±`reach` pixels with the smallest mean absolute difference over the centre.
    static func motion(from a: LumaGrabber.Shot, to b: LumaGrabber.Shot, reach: Int = 16) -> Double {
        var best = (dx: 0, dy: 0, error: Double.infinity)
        for dy in -reach...reach {
            for dx in -reach...reach {
                var error = 0.0, count = 0.0
                for y in stride(from: a.height / 4, to: 3 * a.height / 4, by: 2) {
                    for x in stride(from: a.width / 4, to: 3 * a.width / 4, by: 2) {
                        error += abs(Double(a.luma[y * a.width + x]) - Double(b.luma[(y + dy) * b.width + x + dx]))
                        count += 1
                    }
                }
                if error / count < best.error { best = (dx, dy, error / count) }
            }
        }
        return Double(best.dx * best.dx + best.dy * best.dy).squareRoot()
    }

    /// The mean frame-to-frame motion over `count` frames with stabilization `mode`.
    static func meanMotion(mode: AVCaptureVideoStabilizationMode, count: Int = 16) throws -> (motion: Double, active: AVCaptureVideoStabilizationMode, shot: LumaGrabber.Shot) {
        let rig = try LumaRig(uniqueID: "sim:back-wide", seed: 11)
        defer { rig.stop() }
        rig.device.simulation!.cameraShake = 0.02
        defer { rig.device.simulation!.cameraShake = 0 }
        let connection = try #require(rig.output.connection(with: .video))
        connection.preferredVideoStabilizationMode = mode
        defer { connection.preferredVideoStabilizationMode = .off }
        rig.session.startRunning()
        let shots = try rig.grabber.wait(for: count + 2)
        let moves = (2..<(count + 1)).map { motion(from: shots[$0], to: shots[$0 + 1]) }
        return (moves.reduce(0, +) / Double(moves.count), connection.activeVideoStabilizationMode, shots[count])
    }

    @Test("standard stabilization cuts frame-to-frame motion by more than three quarters; cinematic further")
    func reducesMotion() throws {
        let shaken = try Self.meanMotion(mode: .off)
        let standard = try Self.meanMotion(mode: .standard)
        let cinematic = try Self.meanMotion(mode: .cinematic)
        #expect(shaken.active == .off && standard.active == .standard && cinematic.active == .cinematic)
        #expect(shaken.motion > 2, "a 2 % tremor moves a 640-wide frame by pixels a frame: \(shaken.motion)")
        #expect(standard.motion < 0.25 * shaken.motion, "standard \(standard.motion) vs off \(shaken.motion)")
        #expect(cinematic.motion <= standard.motion, "cinematic \(cinematic.motion) vs standard \(standard.motion)")
        // The crop: the stabilised frame is the unshaken view at 1.1x.
        let still = try LumaRig(uniqueID: "sim:back-wide", seed: 11)
        defer { still.stop() }
        still.session.startRunning()
        let reference = try still.grabber.wait(for: 10).last!
        let crop = LumaMeasure.magnification(of: standard.shot, relativeTo: reference, range: 0.95...1.3)
        #expect(abs(crop - 1.1) <= 0.03, "standard stabilization crops by 1.1: \(crop)")
    }

    @Test("modes, support and the deprecated switches, as iOS has them")
    func modes() throws {
        #expect(AVCaptureVideoStabilizationMode.cinematicExtendedEnhanced.rawValue == 5)
        #expect(AVCaptureVideoStabilizationMode.auto.rawValue == -1)
        let rig = try LumaRig(uniqueID: "sim:back-wide")
        let connection = try #require(rig.output.connection(with: .video))
        #expect(connection.isVideoStabilizationSupported)
        #expect(connection.preferredVideoStabilizationMode == .off && connection.activeVideoStabilizationMode == .off)
        connection.preferredVideoStabilizationMode = .auto
        #expect(connection.activeVideoStabilizationMode == .standard, "auto is never active itself")
        let legacy: any DeprecatedStabilization = connection
        legacy.enablesVideoStabilizationWhenAvailable = false
        #expect(connection.preferredVideoStabilizationMode == .off && !legacy.isVideoStabilizationEnabled)
        legacy.enablesVideoStabilizationWhenAvailable = true
        #expect(connection.preferredVideoStabilizationMode == .standard && legacy.isVideoStabilizationEnabled)
        connection.preferredVideoStabilizationMode = .off
        let device = rig.device
        let fast = try #require(device.formats.first { $0.videoSupportedFrameRateRanges.contains { $0.maxFrameRate >= 240 } })
        #expect(fast.isVideoStabilizationModeSupported(.standard) && !fast.isVideoStabilizationModeSupported(.cinematic))
        #expect(device.activeFormat.isVideoStabilizationModeSupported(.cinematicExtendedEnhanced))
        #expect(device.activeFormat.isVideoStabilizationModeSupported(.off))
    }

    @Test("format members apps read")
    func formatMembers() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let hd = try #require(device.formats.first { $0.formatDescription.dimensions.width == 1920 && !$0.isVideoBinned })
        #expect(hd.geometricDistortionCorrectedVideoFieldOfView == hd.videoFieldOfView)
        #expect(abs(hd.videoZoomFactorUpscaleThreshold - 2.1) < 1e-9)
        #expect(hd.secondaryNativeResolutionZoomFactors.isEmpty && hd.supportedDepthDataFormats.isEmpty)
        #expect(hd.isHighPhotoQualitySupported && !hd.isPortraitEffectSupported && !hd.isCenterStageSupported)
        let legacy: any DeprecatedFormat = hd
        #expect(legacy.highResolutionStillImageDimensions.width == 4032)
    }
}

/// Deprecated members reached through protocols, so the tests compile without warnings.
protocol DeprecatedStabilization: AnyObject {
    var enablesVideoStabilizationWhenAvailable: Bool { get set }
    var isVideoStabilizationEnabled: Bool { get }
}

extension AVCaptureConnection: DeprecatedStabilization {}

protocol DeprecatedFormat {
    var highResolutionStillImageDimensions: CMVideoDimensions { get }
}

extension AVCaptureDevice.Format: DeprecatedFormat {}
