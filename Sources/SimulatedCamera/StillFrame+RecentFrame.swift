import CaptureCore

/// A simulated camera keeps frame boundaries (sensor states, which share the scene with the
/// stream) in its zero-shutter-lag history.
extension StillFrame: RecentFrame {}

/// The simulated camera's history of recent frame boundaries.
typealias RecentFrameRing = RecentFrameHistory<StillFrame>
