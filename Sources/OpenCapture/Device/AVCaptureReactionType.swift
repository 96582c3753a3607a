import Foundation

/// The reactions a device can render into its video (iOS 17): thumbs up, balloons, fireworks
/// and the rest.
///
/// Raw values are Apple's string constants as a port of the SDK's globals gives them
/// (`"ReactionThumbsUp"` …; not confirmed against an Apple device). No Linux device renders
/// reactions: `availableReactionTypes` is empty everywhere.
public struct AVCaptureReactionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A thumbs-up symbol.
    public static let thumbsUp = AVCaptureReactionType(rawValue: "ReactionThumbsUp")
    /// A thumbs-down symbol.
    public static let thumbsDown = AVCaptureReactionType(rawValue: "ReactionThumbsDown")
    /// Balloons rising through the scene.
    public static let balloons = AVCaptureReactionType(rawValue: "ReactionBalloons")
    /// One or more heart symbols.
    public static let heart = AVCaptureReactionType(rawValue: "ReactionHeart")
    /// Fireworks bursting in the background.
    public static let fireworks = AVCaptureReactionType(rawValue: "ReactionFireworks")
    /// A dark and stormy night.
    public static let rain = AVCaptureReactionType(rawValue: "ReactionRain")
    /// Festive spots of colour falling through the scene.
    public static let confetti = AVCaptureReactionType(rawValue: "ReactionConfetti")
    /// A bright laser show projecting into the scene.
    public static let lasers = AVCaptureReactionType(rawValue: "ReactionLasers")

    /// The name of the SF Symbol with the recommended iconography for the reaction (Swift's
    /// name for `AVCaptureReactionSystemImageNameForType`). The names are the SF Symbols
    /// that show each reaction; Apple's exact choices are not confirmed. An unknown type
    /// gives `"questionmark"`.
    public var systemImageName: String {
        switch self {
        case .thumbsUp: "hand.thumbsup.fill"
        case .thumbsDown: "hand.thumbsdown.fill"
        case .balloons: "balloon.2.fill"
        case .heart: "heart.fill"
        case .fireworks: "fireworks"
        case .rain: "cloud.rain.fill"
        case .confetti: "party.popper.fill"
        case .lasers: "laser.burst"
        default: "questionmark"
        }
    }
}

/// The C spelling; Swift code on iOS uses `reactionType.systemImageName`, and so must code
/// here.
@available(*, unavailable, renamed: "AVCaptureReactionType.systemImageName")
public func AVCaptureReactionSystemImageNameForType(_ reactionType: AVCaptureReactionType) -> String {
    reactionType.systemImageName
}
