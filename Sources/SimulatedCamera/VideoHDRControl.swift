import CaptureCore

/// Decides frame by frame whether a stream merges exposures (video HDR).
///
/// `.on` and `.off` are what they say. `.automatic` turns HDR on when the scene overflows
/// one exposure at both ends, i.e. for `engageFrames` frames in a row more than 2 % of the
/// metered samples are clipped white *and* more than 2 % are near black (Y' ≤ 0.05); and off
/// again after `releaseFrames` frames in a row in which fewer than 0.5 % of pixels clip in the
/// long exposure (so the short one has nothing to add). A flat field or the chart (whose
/// light marker is 1 % of the frame) never needs it.
struct VideoHDRControl {
    static let engageFrames = 3
    static let releaseFrames = 15

    private(set) var mode: VideoHDRMode
    private(set) var isActive: Bool
    private var streak = 0

    init(mode: VideoHDRMode) {
        self.mode = mode
        isActive = mode == .on
    }

    /// A new mode from the API; automatic keeps the current state and decides from there.
    mutating func setMode(_ new: VideoHDRMode) {
        guard new != mode else { return }
        mode = new
        streak = 0
        if new != .automatic { isActive = new == .on }
    }

    /// After each frame: its output statistics and, if it was merged, the share of pixels
    /// whose long exposure clipped.
    mutating func update(_ statistics: FrameStatistics, longClipped: Double) {
        guard mode == .automatic else { return }
        let change =
            isActive
            ? longClipped < 0.005
            : statistics.clippedFraction > 0.02 && statistics.darkFraction > 0.02
        streak = change ? streak + 1 : 0
        if streak >= (isActive ? VideoHDRControl.releaseFrames : VideoHDRControl.engageFrames) {
            isActive.toggle()
            streak = 0
        }
    }
}
