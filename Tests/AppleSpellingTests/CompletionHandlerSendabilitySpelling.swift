// Completion handlers Apple's iOS 18 headers do not mark NS_SWIFT_SENDABLE (and that are not
// imported as async): iOS code passes closures that capture non-Sendable state to them, and
// that must compile here too in Swift 6 language mode.
import AVFoundation
import CoreMedia
import Foundation
import Testing

/// App state as apps usually have it: a plain class, not Sendable.
final class HandlerCallCounter {
    var calls = 0
}

/// Each call captures the non-Sendable counter; compiled, never called.
@available(*, deprecated, message: "touches AVCaptureStillImageOutput and AVAudioSession.requestRecordPermission, deprecated on iOS")
func spellNonSendableHandlers(still: AVCaptureStillImageOutput, connection: AVCaptureConnection, device: AVCaptureDevice) {
    let counter = HandlerCallCounter()
    still.captureStillImageAsynchronously(from: connection) { buffer, error in
        counter.calls += 1
        _ = (buffer, error)
    }
    still.prepareToCaptureStillImageBracket(from: connection, withSettingsArray: []) { prepared, error in
        counter.calls += 1
        _ = (prepared, error)
    }
    still.captureStillImageBracketAsynchronously(from: connection, withSettingsArray: []) { buffer, settings, error in
        counter.calls += 1
        _ = (buffer, settings, error)
    }
    AVAudioSession.sharedInstance().requestRecordPermission { granted in
        counter.calls += granted ? 1 : 0
    }
    // NS_SWIFT_UI_ACTOR blocks: `@MainActor (Float) -> Void`, as Apple spells them.
    let zoomAction: @MainActor (CGFloat) -> Void = { factor in _ = factor }
    let biasAction: @MainActor (Float) -> Void = { bias in _ = bias }
    _ = (AVCaptureSystemZoomSlider(device: device, action: zoomAction), AVCaptureSystemExposureBiasSlider(device: device, action: biasAction))
}
