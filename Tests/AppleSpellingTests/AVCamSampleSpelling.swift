// Code as Apple's AVCam sample (and apps built on it) writes it, beside the SDK headers:
// its retroactive CMVideoDimensions conformances, `Self(device:)` in an extension, the
// `notifications(named:)` async sequence, and the iOS 26 members it reads.
import AVFoundation
import CoreMedia
import Foundation
import Testing

// AVCam's CaptureExtensions.swift declares these; Apple's CMVideoDimensions is a plain C
// struct, so they must not clash with a conformance of ours. AVCam marks them
// `@retroactive`, which Swift refuses inside OpenCapture's own package (the type is
// declared in the same package); scripts/consumer, a package outside, compiles AVCam's
// exact line.
extension CMVideoDimensions: Equatable, Comparable {
    static let zero = CMVideoDimensions()

    public static func == (lhs: CMVideoDimensions, rhs: CMVideoDimensions) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height
    }

    public static func < (lhs: CMVideoDimensions, rhs: CMVideoDimensions) -> Bool {
        lhs.width < rhs.width && lhs.height < rhs.height
    }
}

extension AVCaptureDeviceInput {
    /// Generic factory code calls the required initializer through `Self`.
    static func opened(_ device: AVCaptureDevice) throws -> Self { try Self(device: device) }
}

/// Touches AVCam's own spellings; compiled, never called.
func spellAVCamSample(_ device: AVCaptureDevice, _ session: AVCaptureSession) async throws {
    let input: AVCaptureDeviceInput = try AVCaptureDeviceInput.opened(device)
    let focal: Float = device.nominalFocalLengthIn35mmFilm
    let busy: Bool = device.isInUseByAnotherApplication
    let reasons: [AVCaptureSession.InterruptionReason] = [
        .videoDeviceNotAvailableInBackground, .audioDeviceInUseByAnotherClient, .videoDeviceInUseByAnotherClient,
        .videoDeviceNotAvailableWithMultipleForegroundApps, .videoDeviceNotAvailableDueToSystemPressure,
        .sensitiveContentMitigationActivated,
    ]
    let notifications: NotificationCenter.Notifications = NotificationCenter.default.notifications(named: AVCaptureSession.wasInterruptedNotification)
    for await notification in notifications {
        let reason = (notification.userInfo?[AVCaptureSessionInterruptionReasonKey] as? Int).flatMap(AVCaptureSession.InterruptionReason.init(rawValue:))
        _ = reason
    }
    let fromSession: NotificationCenter.Notifications = NotificationCenter.default.notifications(
        named: AVCaptureSession.runtimeErrorNotification, object: session)
    _ = (input, focal, busy, reasons, fromSession, CMVideoDimensions.zero)
}

@Suite("AVCam sample spelling", .serialized)
struct AVCamSampleSpellingTests {
    @Test("the app's own CMVideoDimensions == and < are the ones in force")
    func retroactiveConformances() {
        let small = CMVideoDimensions(width: 352, height: 288), large = CMVideoDimensions(width: 1920, height: 1080)
        #expect(small == CMVideoDimensions(width: 352, height: 288))
        #expect(small != large)
        #expect(small < large)
        #expect(CMVideoDimensions.zero == CMVideoDimensions(width: 0, height: 0))
        #expect([small, large].contains(large))
    }

    @Test("Self(device:) opens the camera through the required initializer")
    func selfInitializer() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let input = try AVCaptureDeviceInput.opened(device)
        #expect(input.device === device)
    }

    @Test("the 35 mm equivalent focal length follows the field of view; a simulated camera is never in use elsewhere")
    func focalLengthAndUse() throws {
        let wide = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let fov = try #require(wide.formats.map(\.videoFieldOfView).max())
        let focal = wide.nominalFocalLengthIn35mmFilm
        // 36 mm across at the widest field of view.
        #expect(abs(2 * Double(focal) * tan(Double(fov) * .pi / 360) - 36) < 0.01)
        #expect(focal > 10 && focal < 200)
        if let tele = AVCaptureDevice(uniqueID: "sim:back-tele") {
            #expect(tele.nominalFocalLengthIn35mmFilm > focal)
        }
        #expect(!wide.isInUseByAnotherApplication)
    }

    @Test("notifications(named:) buffers from the call, delivers in order, filters by object and ends on release")
    func notificationSequence() async {
        let center = NotificationCenter()
        let name = Notification.Name("AVCamSampleSpellingTests")
        let sender = NSObject(), other = NSObject()
        var sequence: NotificationCenter.Notifications? = center.notifications(named: name, object: sender)
        // Posted before iteration starts: still delivered.
        for index in 0..<3 { center.post(name: name, object: sender, userInfo: ["index": index]) }
        center.post(name: name, object: other, userInfo: ["index": 99])
        var received: [Int] = []
        if let sequence {
            for await notification in sequence {
                received.append(notification.userInfo?["index"] as? Int ?? -1)
                if received.count == 3 { break }
            }
        }
        #expect(received == [0, 1, 2])
        // The iterator let go of the sequence after the loop: releasing it ends the observation.
        weak let released = sequence
        sequence = nil
        #expect(released == nil)
        center.post(name: name, object: sender)
    }

    @Test("iOS 26 additions: low-latency stabilization and Apple Log 2 are in no format; ProRes is in no codec list")
    func unsupportedAdditions() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(AVCaptureVideoStabilizationMode.lowLatency.rawValue == 6)
        #expect(AVCaptureColorSpace.appleLog2.rawValue == 4)
        #expect(AVCaptureSession.InterruptionReason.sensitiveContentMitigationActivated.rawValue == 6)
        #expect(!device.formats.contains { $0.isVideoStabilizationModeSupported(.lowLatency) })
        #expect(!device.formats.contains { $0.supportedColorSpaces.contains(.appleLog2) })
        let movie = AVCaptureMovieFileOutput()
        let proRes: [AVVideoCodecType] = [.proRes422, .proRes422HQ, .proRes422LT, .proRes422Proxy, .proRes4444, .proRes4444XQ, .hevcWithAlpha]
        #expect(proRes.allSatisfy { !movie.availableVideoCodecTypes.contains($0) })
        #expect(proRes.map(\.rawValue) == ["apcn", "apch", "apcs", "apco", "ap4h", "ap4x", "muxa"])
        #expect(!AVCapturePhotoOutput().availablePhotoCodecTypes.contains(.JPEGXL))
    }
}
