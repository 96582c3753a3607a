import Foundation

/// The state of a reaction a device is rendering (iOS 17), as listed by
/// `AVCaptureDevice.reactionEffectsInProgress`. No Linux device renders reactions, so that
/// list is always empty; the type exists so code that reads it compiles.
open class AVCaptureReactionEffectState: NSObject, @unchecked Sendable {
    /// The reaction being rendered.
    public let reactionType: AVCaptureReactionType
    /// The presentation time of the first frame with the effect.
    public let startTime: CMTime
    /// The presentation time of the first frame after the effect; `.invalid` while it runs.
    public let endTime: CMTime

    /// A state with no reaction (empty raw value) and invalid times: what a state made
    /// outside the framework can hold.
    public override init() {
        reactionType = AVCaptureReactionType(rawValue: "")
        startTime = .invalid
        endTime = .invalid
        super.init()
    }
}
