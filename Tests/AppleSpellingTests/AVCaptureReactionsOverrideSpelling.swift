// A subclass of AVCaptureReactionEffectState (AVCaptureReactions.h) overriding its members (compile-only).
import AVFoundation
import CoreMedia
import Foundation

/// Overrides the reaction state's members.
final class ReactionEffectStateDouble: AVCaptureReactionEffectState, @unchecked Sendable {
    override var reactionType: AVCaptureReactionType { super.reactionType }
    override var startTime: CMTime { super.startTime }
    override var endTime: CMTime { super.endTime }
}
