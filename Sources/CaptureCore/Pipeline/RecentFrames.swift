import CaptureCore
import Synchronization

/// Who wants a simulated camera's recent-frame history (zero shutter lag), and what it holds.
///
/// Photo outputs say so from any thread; the capture thread keeps the history itself
/// (`RecentFrameRing`) while `isEnabled`, drops it once nobody wants it, and publishes its
/// size here.
final class RecentFrames: Sendable {
    /// Frame boundaries kept: 8 covers a request made up to 7 frames before the boundary
    /// that takes it (a busy capture thread, or stills queued behind others).
    static let depth = 8

    private let owners = Mutex<Set<ObjectIdentifier>>([])
    private let enabled = Atomic<Bool>(false)
    private let bytes = Atomic<Int>(0)

    func keep(_ keep: Bool, for owner: ObjectIdentifier) {
        let any = owners.withLock { owners in
            if keep { owners.insert(owner) } else { owners.remove(owner) }
            return !owners.isEmpty
        }
        enabled.store(any, ordering: .releasing)
    }

    var isEnabled: Bool { enabled.load(ordering: .acquiring) }
    var heldBytes: Int { bytes.load(ordering: .acquiring) }
    func setHeldBytes(_ value: Int) { bytes.store(value, ordering: .releasing) }
}

/// The last `RecentFrames.depth` frame boundaries of a stream, newest last. Capture thread only.
struct RecentFrameRing {
    private var frames: [StillFrame] = []
    private var next = 0

    var count: Int { frames.count }
    /// What the ring's storage holds (the scene's pictures and tables are shared with the stream).
    var bytes: Int { frames.capacity * MemoryLayout<StillFrame>.stride }

    mutating func append(_ frame: StillFrame) {
        if frames.count < RecentFrames.depth {
            if frames.capacity < RecentFrames.depth { frames.reserveCapacity(RecentFrames.depth) }
            frames.append(frame)
        } else {
            frames[next] = frame
        }
        next = (next + 1) % RecentFrames.depth
    }

    /// The newest boundary at or before `moment` (host nanoseconds), if the ring reaches back that far.
    func frame(at moment: Int64) -> StillFrame? {
        var best: StillFrame?
        var bestTime = Int64.min
        for frame in frames {
            let time = frame.metadata.presentationTime.value
            if time <= moment, time > bestTime {
                best = frame
                bestTime = time
            }
        }
        return best
    }

    mutating func release() {
        frames = []
        next = 0
    }
}
