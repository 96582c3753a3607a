import Foundation

/// A consumer's part in the session's wide-colour choice: P3 when some consumer prefers it
/// and none needs sRGB (iOS's rule for photo workflows).
enum WideColorPreference: Sendable, Equatable {
    /// No say (metadata, preview layers, audio, still image output).
    case indifferent
    /// Photos: P3 where the active format has it.
    case prefersWide
    /// Video that is tagged sRGB/BT.709 downstream (video data, movie files, streams).
    case needsStandard
}

// The outputs with a say; every other consumer keeps the default, `.indifferent`.

extension AVCapturePhotoOutput {
    var wideColorPreference: WideColorPreference { .prefersWide }
}

extension AVCaptureVideoDataOutput {
    var wideColorPreference: WideColorPreference { .needsStandard }
}

extension AVCaptureMovieFileOutput {
    var wideColorPreference: WideColorPreference { .needsStandard }
}

extension AVCaptureStreamOutput {
    var wideColorPreference: WideColorPreference { .needsStandard }
}
