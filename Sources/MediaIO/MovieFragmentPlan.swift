/// Decides where fragments start: a forced keyframe at every multiple of the interval, and a
/// fragment cut just before that keyframe's packet when it leaves the encoder.
///
/// Cutting only at keyframes we forced (not at every keyframe, as the muxer's
/// `frag_keyframe` would) keeps fragments at the interval even when the encoder adds
/// scene-cut keyframes. Times are in the writer's time base, the first frame at 0.
struct MovieFragmentPlan {
    /// Fragment length in time-base units; 0 when the movie is not fragmented.
    let interval: Int64
    /// A frame this close before a boundary starts the fragment, so timing jitter cannot
    /// push the keyframe a whole frame late (half a nominal frame).
    private let tolerance: Int64
    /// The time at which the next fragment should start.
    private var nextBoundary: Int64
    /// Times of frames forced to be keyframes whose packets have not been written yet.
    private var forced: [Int64] = []

    init(interval: Int64, frameDuration: Int64) {
        self.interval = max(interval, 0)
        tolerance = frameDuration / 2
        nextBoundary = self.interval
        forced.reserveCapacity(4)
    }

    /// Whether the frame at `time`, about to be encoded, must be a keyframe that starts a fragment.
    mutating func forcesKeyframe(at time: Int64) -> Bool {
        guard interval > 0, time >= nextBoundary - tolerance else { return false }
        // Skip boundaries a gap in the frames jumped over: one keyframe starts the fragment.
        while nextBoundary - tolerance <= time { nextBoundary += interval }
        forced.append(time)
        return true
    }

    /// Whether the packet of the frame at `time` starts a fragment, so the fragment before
    /// it must be written out first.
    mutating func startsFragment(time: Int64, isKeyframe: Bool) -> Bool {
        guard let index = forced.firstIndex(of: time) else { return false }
        forced.remove(at: index)
        return isKeyframe
    }
}
