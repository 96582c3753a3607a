import Foundation
import Testing
import OpenCapture

/// Reactions answer as on an iPhone whose formats lack them.
@Suite("Reactions: no device renders them")
struct ReactionTests {
    @Test func typesAreStringConstants() {
        let all: [AVCaptureReactionType] = [.thumbsUp, .thumbsDown, .balloons, .heart, .fireworks, .rain, .confetti, .lasers]
        #expect(Set(all).count == 8)
        #expect(AVCaptureReactionType.thumbsUp.rawValue == "ReactionThumbsUp")
        #expect(AVCaptureReactionType(rawValue: "ReactionLasers") == .lasers)
        #expect(AVCaptureReactionType.heart.systemImageName == "heart.fill")
        #expect(all.allSatisfy { !$0.systemImageName.isEmpty })
    }

    @Test func devicesCannotPerformReactions() throws {
        #expect(!AVCaptureDevice.reactionEffectsEnabled)
        #expect(!AVCaptureDevice.reactionEffectGesturesEnabled)
        for device in AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera],
            mediaType: .video, position: .unspecified).devices {
            #expect(!device.canPerformReactionEffects)
            #expect(device.availableReactionTypes.isEmpty)
            #expect(device.reactionEffectsInProgress.isEmpty)
            #expect(device.formats.allSatisfy { !$0.reactionEffectsSupported })
            #expect(device.formats.allSatisfy { $0.videoFrameRateRangeForReactionEffectsInProgress == nil })
            #expect(throws: AVCaptureException.self) { try device.performEffectChecked(for: .balloons) }
        }
    }

    @Test func effectStateDefaults() {
        let state = AVCaptureReactionEffectState()
        #expect(state.reactionType.rawValue.isEmpty)
        #expect(!state.startTime.isValid && !state.endTime.isValid)
    }

    @Test func performEffectRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.performEffect(for: .thumbsUp)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains(
            "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice performEffectForReaction:]"))
    }
}
