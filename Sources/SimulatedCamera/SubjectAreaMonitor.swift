import Foundation

/// Spots substantial changes of the filmed scene (a lighting change, large motion, a new
/// framing) from each frame's zone statistics, for `subjectAreaDidChangeNotification`.
///
/// Each zone's green mean is divided by the exposure (exposure time × analog gain), so
/// values are scene-referred and auto exposure moving does not look like a change. A frame
/// is a change when at least `changedArea` of the zones differ from a reference by more than
/// `changeEV`. The reference is the scene as it was when it last settled: after a change the
/// monitor waits until `settleFrames` frames in a row barely differ from their predecessor,
/// then takes a new reference, so one change reports once. Noise and a small moving object
/// stay far below the area threshold.
///
/// Used by the capture thread only; the buffers are allocated once.
final class SubjectAreaMonitor {
    /// A zone counts as changed past this many EV.
    static let changeEV = 0.5
    /// The share of zones that must change for a substantial change.
    static let changedArea = 0.25
    /// Frame to frame, a zone still moves if it changed by more than this many EV …
    static let settleEV = 0.2
    /// … and the scene is steady while less than this share of zones moves …
    static let settleArea = 0.1
    /// … for this many frames in a row.
    static let settleFrames = 5
    /// Signal (relative to white) added to both sides of a comparison, so that the noise
    /// of dark zones does not read as large ratios.
    static let floor = 0.01
    /// A zone with fewer than this share of unclipped samples counts as clipped.
    static let keptShare = 0.5

    /// Scene-referred value per zone; for a clipped zone, the lower bound (white / exposure).
    private var reference: [Double]
    private var referenceClipped: [Bool]
    private var previous: [Double]
    private var previousClipped: [Bool]
    private var current: [Double]
    private var currentClipped: [Bool]
    private var hasPrevious = false
    /// Whether a reference is set (the scene has settled since the last change).
    private var armed = false
    private var quietFrames = 0

    init() {
        let count = ZoneStatistics.zoneCount
        reference = Array(repeating: 0, count: count)
        referenceClipped = Array(repeating: false, count: count)
        previous = reference
        previousClipped = referenceClipped
        current = reference
        currentClipped = referenceClipped
    }

    /// Feeds one frame's zones, taken with `exposure` (exposure time × analog gain, any
    /// unit). Returns true on the frame where a substantial change is first seen.
    func update(_ zones: ZoneStatistics, exposure: Double) -> Bool {
        guard exposure > 0 else { return false }
        measure(zones, exposure: exposure)
        let floor = Self.floor / exposure
        defer {
            swap(&previous, &current)
            swap(&previousClipped, &currentClipped)
            hasPrevious = true
        }
        if armed {
            let area = changedShare(against: reference, referenceClipped, ev: Self.changeEV, floor: floor)
            if area >= Self.changedArea {
                armed = false
                quietFrames = 0
                return true
            }
            return false
        }
        // Waiting for the scene to settle before taking a reference.
        guard hasPrevious else { return false }
        let moving = changedShare(against: previous, previousClipped, ev: Self.settleEV, floor: floor)
        quietFrames = moving < Self.settleArea ? quietFrames + 1 : 0
        if quietFrames >= Self.settleFrames {
            reference = current
            referenceClipped = currentClipped
            armed = true
        }
        return false
    }

    /// Fills `current` with the scene-referred green mean of every zone.
    private func measure(_ zones: ZoneStatistics, exposure: Double) {
        for zone in 0..<ZoneStatistics.zoneCount {
            let all = Double(zones.samples[zone])
            let stats = zones.zones[zone]
            let clipped = all > 0 && stats.w < Self.keptShare * all
            currentClipped[zone] = clipped
            current[zone] = (clipped ? 1 : max(stats.y, 0)) / exposure
        }
    }

    /// The share of zones in `current` that differ from `base` by more than `ev`.
    private func changedShare(against base: [Double], _ baseClipped: [Bool], ev: Double, floor: Double) -> Double {
        let ratio = exp2(ev)
        var changed = 0
        for zone in 0..<ZoneStatistics.zoneCount {
            let a = base[zone] + floor, b = current[zone] + floor
            let differs: Bool =
                switch (baseClipped[zone], currentClipped[zone]) {
                case (true, true): false
                // A clipped value is only a lower bound: changed if the other is well below it.
                case (true, false): b * ratio < a
                case (false, true): a * ratio < b
                case (false, false): max(a, b) > min(a, b) * ratio
                }
            if differs { changed += 1 }
        }
        return Double(changed) / Double(ZoneStatistics.zoneCount)
    }
}
