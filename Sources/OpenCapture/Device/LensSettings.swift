import Foundation

/// A device's zoom as last asked for through the API, and the requests that asked
/// (`videoZoomFactor` switches to frame metadata once a frame carries them).
struct LensSettings {
    /// The zoom factor set last, and the last zoom request (set, ramp or cancel).
    var videoZoomFactor: CGFloat = 1
    var zoomRequest: UInt64 = 0
    /// The last ramp request, while it may not have reached a frame yet.
    var rampRequest: UInt64 = 0
}
