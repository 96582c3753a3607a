import Foundation
import Testing

@testable import OpenCapture

/// Seed 000, chapter 15: transport controls. No camera here has a tape transport, so every
/// device says so, and the setter raises as the seed and Apple describe.
@Suite("Transport controls")
struct TransportControlsTests {
    @Test func noDeviceHasATransport() throws {
        for device in AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera, .external], mediaType: .video,
            position: .unspecified
        ).devices {
            #expect(!device.transportControlsSupported)
            #expect(device.transportControlsPlaybackMode == .notPlaying)
            #expect(device.transportControlsSpeed == 0)
        }
        #expect(AVCaptureDevice.TransportControlsPlaybackMode(rawValue: 1) == .playing)
        let device = try #require(AVCaptureDevice.default(for: .video))
        #expect(throws: AVCaptureException.self) { try device.setTransportControlsPlaybackModeChecked(.playing, speed: 1) }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        do {
            try device.setTransportControlsPlaybackModeChecked(.playing, speed: 1)
            Issue.record("no transport, yet the mode was accepted")
        } catch {
            #expect(error.reason.contains("Transport controls are not supported"))
        }
    }

    @Test func settingWithoutLockRaisesGenericException() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.setTransportControlsPlaybackMode(.playing, speed: 1)
        }
        #expect(
            ExceptionExitTests.message(result).contains(
                "'NSGenericException', reason: '*** -[AVCaptureDevice setTransportControlsPlaybackMode:speed:] May not be called without first successfully calling -lockForConfiguration:"))
    }

    @Test func settingOnADeviceWithoutTransportRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.setTransportControlsPlaybackMode(.playing, speed: -1)
        }
        #expect(ExceptionExitTests.message(result).contains("'NSInvalidArgumentException'"))
        #expect(ExceptionExitTests.message(result).contains("Transport controls are not supported - use transportControlsSupported"))
    }
}
