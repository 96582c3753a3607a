import Foundation

@testable import OpenCapture

/// What became of each frame of a stream at a fixed frame rate, read from what a video data
/// output's delegate heard, in order: delivered, or reported through `didDrop` with its
/// reason.
///
/// This is what a real-time test asserts, because it holds on any machine however loaded:
/// delivered frames come in order with timestamps on the frame-duration grid, and every
/// step of the grid skipped between two delivered frames was reported dropped, once, in
/// between (a camera that falls a few frames behind reports them in one discontinuity, all
/// stamped with the first one's time). How many were dropped is a measurement: tests print
/// it (`description`), and docs/PERFORMANCE.md records it.
struct FrameAccount: CustomStringConvertible {
    /// One delegate call.
    enum Event: Sendable {
        case frame(CMTime)
        case drop(CMTime, reason: String)
    }

    /// Frames delivered.
    private(set) var delivered = 0
    /// Drops heard, by reason (`kCMSampleBufferDroppedFrameReason_…`).
    private(set) var dropped: [String: Int] = [:]
    /// The most frames in a row not delivered between two delivered ones.
    private(set) var longestGap = 0
    /// What broke the account (empty when every frame is accounted for).
    private(set) var problems: [String] = []

    /// Reads `events` as heard, for a stream whose frames last `frameDuration`.
    init(_ events: [Event], frameDuration: CMTime) {
        let step = frameDuration.seconds
        var last: CMTime?
        var between: [CMTime] = []
        /// Whole frame steps from `a` to `b`, or nil when `b` is off the grid.
        func steps(_ a: CMTime, _ b: CMTime) -> Int? {
            let count = ((b - a).seconds / step).rounded()
            return abs((b - a).seconds - count * step) < 1e-6 ? Int(count) : nil
        }
        /// A drop of `drops` not on the grid after `last` (and before `next`), described.
        func stray(_ drops: [CMTime], after last: CMTime, before next: CMTime?) -> String? {
            let stray = drops.first { drop in
                (steps(last, drop) ?? 0) < 1 || next.map { (steps(drop, $0) ?? 0) < 1 } ?? false
            }
            return stray.map { "a drop at \($0.seconds) s off the grid or outside the gap after \(last.seconds) s" }
        }
        for event in events {
            switch event {
            case .drop(let time, let reason):
                dropped[reason, default: 0] += 1
                between.append(time)
            case .frame(let time):
                delivered += 1
                defer {
                    last = time
                    between.removeAll()
                }
                guard let last else { continue }
                guard let count = steps(last, time), count >= 1 else {
                    problems.append("frame at \(time.seconds) s after \(last.seconds) s: not a later step of the \(step) s grid")
                    continue
                }
                longestGap = max(longestGap, count - 1)
                if between.count != count - 1 {
                    problems.append("\(count - 1) frames missing between \(last.seconds) s and \(time.seconds) s, \(between.count) drops reported")
                }
                if let problem = stray(between, after: last, before: time) { problems.append(problem) }
            }
        }
        if let last, let problem = stray(between, after: last, before: nil) { problems.append(problem) }
    }

    /// Whether every frame between the first and last delivered is accounted for.
    var isComplete: Bool { problems.isEmpty }

    var description: String {
        let drops = dropped.values.reduce(0, +)
        let reasons = dropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "\(delivered) frames delivered, \(drops) dropped\(drops > 0 ? " (\(reasons))" : ""), longest gap \(longestGap) frames"
    }
}
