import Foundation

/// Reaction effects (iOS 17): balloons, hearts, fireworks rendered into the video, by call
/// or by hand gesture.
///
/// No Linux device renders them (there is no gesture recogniser or effect renderer), so
/// every device answers as an iPhone whose formats lack the feature: no format has
/// `reactionEffectsSupported`, `canPerformReactionEffects` is false,
/// `availableReactionTypes` is empty and `reactionEffectsInProgress` stays empty.
extension AVCaptureDevice {
    class var reactionEffectsEnabledBacking: Bool { false }

    class var reactionEffectGesturesEnabledBacking: Bool { false }

    var canPerformReactionEffectsBacking: Bool {
        Self.reactionEffectsEnabled && activeFormat.reactionEffectsSupported
    }

    var availableReactionTypesBacking: Set<AVCaptureReactionType> {
        []
    }

    var reactionEffectsInProgressBacking: [AVCaptureReactionEffectState] { [] }

    func performEffectBacking(for reactionType: AVCaptureReactionType) {
        enforce { try performEffectChecked(for: reactionType) }
    }

    /// The checked form of `performEffect(for:)` (Linux addition).
    public func performEffectChecked(for reactionType: AVCaptureReactionType) throws(AVCaptureException) {
        guard availableReactionTypes.contains(reactionType) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", "performEffectForReaction:",
                    "Unsupported reaction type \(reactionType.rawValue) - use availableReactionTypes"))
        }
    }
}

extension AVCaptureDevice.Format {
    var reactionEffectsSupportedBacking: Bool { false }

    var videoFrameRateRangeForReactionEffectsInProgressBacking: AVFrameRateRange? { nil }
}
