import Foundation

/// Reaction effects (iOS 17): balloons, hearts, fireworks rendered into the video, by call
/// or by hand gesture.
///
/// No Linux device renders them (there is no gesture recogniser or effect renderer), so
/// every device answers as an iPhone whose formats lack the feature: no format has
/// `reactionEffectsSupported`, `canPerformReactionEffects` is false,
/// `availableReactionTypes` is empty and `reactionEffectsInProgress` stays empty.
extension AVCaptureDevice {
    /// Whether the app has reaction effects enabled: false (on iOS, true for `voip` apps or
    /// with `NSCameraReactionEffectsEnabled`; a Linux process has neither).
    public class var reactionEffectsEnabled: Bool { false }

    /// Whether gesture detection triggers reactions: false (no gesture recogniser).
    public class var reactionEffectGesturesEnabled: Bool { false }

    /// Whether the device can perform reactions now: `reactionEffectsEnabled` and the active
    /// format's `reactionEffectsSupported`, so false.
    public var canPerformReactionEffects: Bool {
        Self.reactionEffectsEnabled && activeFormat.reactionEffectsSupported
    }

    /// The reactions the device can perform: empty.
    public var availableReactionTypes: Set<AVCaptureReactionType> {
        []
    }

    /// The reactions being rendered, by start time: always empty.
    public var reactionEffectsInProgress: [AVCaptureReactionEffectState] { [] }

    /// Performs a reaction. Apple documents that a type outside `availableReactionTypes`
    /// raises an exception; that set is empty here, so every call raises
    /// `NSInvalidArgumentException` (`performEffectChecked(for:)` is the checked form).
    /// (Apple's note that the call "has no effect" while `canPerformReactionEffects` is false
    /// would make it a silent no-op; the documented exception is the honest answer.)
    public func performEffect(for reactionType: AVCaptureReactionType) {
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
    /// Whether the format supports reaction effects: false (no effect renderer).
    public var reactionEffectsSupported: Bool { false }

    /// The frame-rate range while reactions render: nil, since none can.
    public var videoFrameRateRangeForReactionEffectsInProgress: AVFrameRateRange? { nil }
}
