// AVCaptureReactions.h (iOS 17 SDK) and the reaction members of AVCaptureDevice.h, spelled
// as iOS code spells them (Swift spells AVCaptureReactionSystemImageNameForType as
// AVCaptureReactionType.systemImageName). Linux answers as a device without reaction effects.
import AVFoundation
import CoreMedia
import Foundation
import Testing

/// Touches every declaration of AVCaptureReactions.h; compiled, never called.
func spellAVCaptureReactions(_ device: AVCaptureDevice, _ format: AVCaptureDevice.Format) {
    let types: [AVCaptureReactionType] = [.thumbsUp, .thumbsDown, .balloons, .heart, .fireworks, .rain, .confetti, .lasers]
    let raw: String = AVCaptureReactionType.heart.rawValue
    let image: String = AVCaptureReactionType.heart.systemImageName
    let state: AVCaptureReactionEffectState? = device.reactionEffectsInProgress.first
    let stateFields: (AVCaptureReactionType, CMTime, CMTime)? = state.map { ($0.reactionType, $0.startTime, $0.endTime) }
    let enabled: (Bool, Bool) = (AVCaptureDevice.reactionEffectsEnabled, AVCaptureDevice.reactionEffectGesturesEnabled)
    let can: Bool = device.canPerformReactionEffects
    let available: Set<AVCaptureReactionType> = device.availableReactionTypes
    if can { device.performEffect(for: .balloons) }
    let formatSupported: Bool = format.reactionEffectsSupported
    let range: AVFrameRateRange? = format.videoFrameRateRangeForReactionEffectsInProgress
    _ = (types, raw, image, stateFields, enabled, available, formatSupported, range)
}

@Suite("AVCaptureReactions spelling")
struct AVCaptureReactionsSpellingTests {
    @Test("system image names are Apple's SF Symbols; a Linux camera has no reaction effects")
    func reactions() throws {
        #expect(AVCaptureReactionType.thumbsUp.systemImageName == "hand.thumbsup.fill")
        let device = try #require(AVCaptureDevice(uniqueID: "sim:front-wide"))
        #expect(!device.canPerformReactionEffects)
        #expect(device.availableReactionTypes.isEmpty)
        #expect(device.reactionEffectsInProgress.isEmpty)
        #expect(!AVCaptureDevice.reactionEffectsEnabled && !AVCaptureDevice.reactionEffectGesturesEnabled)
        #expect(device.formats.allSatisfy { !$0.reactionEffectsSupported && $0.videoFrameRateRangeForReactionEffectsInProgress == nil })
    }
}
