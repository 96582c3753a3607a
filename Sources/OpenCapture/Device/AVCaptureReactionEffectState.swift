import Foundation

/// The state of a reaction a device is rendering (iOS 17), as listed by
/// `AVCaptureDevice.reactionEffectsInProgress`. No Linux device renders reactions, so that
/// list is always empty; the type exists so code that reads it compiles.
open class AVCaptureReactionEffectState: NSObject, @unchecked Sendable {
    private let storedReactionType: AVCaptureReactionType
    /// The reaction being rendered.
    open var reactionType: AVCaptureReactionType { storedReactionType }
    private let storedStartTime: CMTime
    /// The presentation time of the first frame with the effect.
    open var startTime: CMTime { storedStartTime }
    private let storedEndTime: CMTime
    /// The presentation time of the first frame after the effect; `.invalid` while it runs.
    open var endTime: CMTime { storedEndTime }

    /// A state with no reaction (empty raw value) and invalid times: what a state made
    /// outside the framework can hold.
    public override init() {
        storedReactionType = AVCaptureReactionType(rawValue: "")
        storedStartTime = .invalid
        storedEndTime = .invalid
        super.init()
    }
}
