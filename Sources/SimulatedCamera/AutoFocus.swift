import CaptureCore

/// Contrast-detection autofocus: moves the lens one position per frame, measures each
/// frame's sharpness around the focus point (`FocusMetric`) and keeps the sharpest
/// position, as phone cameras without phase detection do.
///
/// A search is a coarse sweep over the allowed range (steps of 0.1 in lens position, 0.05
/// with smooth autofocus; starting from the end nearer the lens, so it travels least),
/// then a fine sweep of steps a quarter as large around the best coarse position, then a
/// parabola through the best fine sample and its neighbours, whose vertex is where the lens
/// stops: about 18 frames over the whole range. `.autoOnce` then holds (`.locked`);
/// `.continuous` holds until the scene changes (the subject-area monitor says so) and then
/// searches again.
///
/// The range restriction splits the range at 1.5 m: near searches positions focusing
/// nearer, far those focusing farther.
struct AutoFocus {
    /// What carries over from one frame (and one stream) to the next.
    struct Memory: Sendable {
        /// Whether the camera has not focused yet (the lens is then parked at `restDistance`).
        var isFresh = true
        var lensPosition: Float = 1
        var state = FocusState.continuous
        var search = FocusSearch()
        /// Whether focus has been found since the last change (continuous mode).
        var settled = false
    }

    private enum Phase { case idle, coarse, fine }

    /// Distance that splits the near and far restrictions, metres.
    static let restrictionSplit = 1.5
    /// Where a camera's lens rests before it first focuses, metres: 0.7 dioptres, midway
    /// between the chart (1 D) and the wall (0.4 D), so both are within half a pixel of sharp
    /// up to 1280×720 before any search. Continuous autofocus searches when the app sets a
    /// focus mode or the scene changes.
    static let restDistance = 1 / 0.7

    let lens: FocusLens
    private(set) var memory: Memory
    private var phase = Phase.idle
    private var plan: [Float] = []
    private var samples: [(position: Float, sharpness: Double)] = []
    private var coarseStep: Float = 0.1

    init(lens: FocusLens, memory: Memory) {
        self.lens = lens
        self.memory = memory
        if lens.isFixed {
            self.memory.state = .locked
            self.memory.lensPosition = 1
        } else if memory.isFresh {
            self.memory.isFresh = false
            self.memory.lensPosition = lens.lensPosition(focusing: AutoFocus.restDistance)
            self.memory.settled = true
        } else if memory.state != .locked && !memory.settled {
            beginSearch()
        }
    }

    /// Whether the lens is moving to find focus.
    var isAdjusting: Bool { phase != .idle }
    /// Whether the frame about to be rendered is to be measured.
    var needsMeasurement: Bool { phase != .idle }

    mutating func apply(_ control: FocusControl) {
        guard !lens.isFixed else { return }
        switch control {
        case .lock(let position):
            memory.state = .locked
            phase = .idle
            if let position { memory.lensPosition = min(max(position, 0), 1) }
        case .autoOnce(let search):
            memory.state = .autoOnce
            memory.search = search
            beginSearch()
        case .continuous(let search):
            memory.state = .continuous
            memory.search = search
            beginSearch()
        }
    }

    /// The scene changed substantially: continuous autofocus searches again.
    mutating func sceneChanged() {
        if memory.state == .continuous && phase == .idle { beginSearch() }
    }

    /// The allowed lens positions under the range restriction.
    var range: ClosedRange<Float> {
        let split = lens.lensPosition(focusing: AutoFocus.restrictionSplit)
        switch memory.search.rangeRestriction {
        case 1: return 0...split
        case 2: return split...1
        default: return 0...1
        }
    }

    private mutating func beginSearch() {
        memory.settled = false
        samples.removeAll()
        coarseStep = memory.search.smooth ? 0.05 : 0.1
        let r = range
        let count = Int(((r.upperBound - r.lowerBound) / coarseStep).rounded(.up))
        var points = (0...count).map { min(r.lowerBound + Float($0) * coarseStep, r.upperBound) }
        // Start from the end nearer the lens.
        if abs(memory.lensPosition - r.upperBound) < abs(memory.lensPosition - r.lowerBound) { points.reverse() }
        plan = points
        phase = .coarse
        memory.lensPosition = plan.removeFirst()
    }

    /// The frame rendered at `memory.lensPosition` measured `sharpness`: moves on.
    mutating func measured(_ sharpness: Double) {
        guard phase != .idle else { return }
        samples.append((memory.lensPosition, sharpness))
        if let next = plan.first {
            plan.removeFirst()
            memory.lensPosition = next
            return
        }
        let best = samples.max { $0.sharpness < $1.sharpness }!.position
        if phase == .coarse {
            let step = coarseStep / 4
            let r = range
            plan = [-3, -2, -1, 1, 2, 3].map { min(max(best + Float($0) * step, r.lowerBound), r.upperBound) }
                .filter { p in !samples.contains { abs($0.position - p) < step / 8 } }
            phase = .fine
            if let next = plan.first {
                plan.removeFirst()
                memory.lensPosition = next
                return
            }
        }
        finish(best: best)
    }

    /// Ends the search at the vertex of the parabola through the best sample and its neighbours.
    private mutating func finish(best: Float) {
        let step = coarseStep / 4
        func sample(near p: Float) -> Double? { samples.first { abs($0.position - p) < step / 8 }?.sharpness }
        var position = best
        if let middle = sample(near: best), let left = sample(near: best - step), let right = sample(near: best + step) {
            let curvature = left - 2 * middle + right
            if curvature < 0 {
                let offset = 0.5 * (left - right) / curvature
                position = best + Float(max(-1, min(1, offset))) * step
            }
        }
        memory.lensPosition = min(max(position, range.lowerBound), range.upperBound)
        phase = .idle
        memory.settled = true
        if memory.state == .autoOnce { memory.state = .locked }
        samples.removeAll()
    }
}
