import Synchronization

/// Who wants a camera's recent-frame history (zero shutter lag), and what it holds.
///
/// Photo outputs say so from any thread; the capture thread keeps the history itself
/// (`RecentFrameRing`) while `isEnabled`, drops it once nobody wants it, and publishes its
/// size here. Shared by the simulated and the V4L2 cameras.
package final class RecentFrames: Sendable {
    /// Frame boundaries kept: 8 covers a request made up to 7 frames before the boundary
    /// that takes it (a busy capture thread, or stills queued behind others).
    package static let depth = 8

    private let owners = Mutex<Set<ObjectIdentifier>>([])
    private let enabled = Atomic<Bool>(false)
    private let bytes = Atomic<Int>(0)

    package init() {}

    package func keep(_ keep: Bool, for owner: ObjectIdentifier) {
        let any = owners.withLock { owners in
            if keep { owners.insert(owner) } else { owners.remove(owner) }
            return !owners.isEmpty
        }
        enabled.store(any, ordering: .releasing)
    }

    package var isEnabled: Bool { enabled.load(ordering: .acquiring) }
    package var heldBytes: Int { bytes.load(ordering: .acquiring) }
    package func setHeldBytes(_ value: Int) { bytes.store(value, ordering: .releasing) }
}

/// One frame boundary a recent-frame history keeps: what a camera needs to make a still
/// of it later (a simulated camera's sensor state, a V4L2 camera's copied picture).
package protocol RecentFrame: Sendable {
    /// The boundary's metadata; its `presentationTime` places it in the history.
    var metadata: FrameMetadata { get }
    /// Bytes the frame holds beyond its own stride (a copied picture); 0 when it shares its
    /// storage with the stream.
    var heldBytes: Int { get }
}

extension RecentFrame {
    package var heldBytes: Int { 0 }
}

/// The last `RecentFrames.depth` frame boundaries of a stream, newest last. Capture thread only.
package struct RecentFrameHistory<Frame: RecentFrame> {
    private var frames: [Frame] = []
    private var next = 0

    package init() {}

    package var count: Int { frames.count }
    /// What the history's storage holds, and what its frames hold besides.
    package var bytes: Int { frames.capacity * MemoryLayout<Frame>.stride + frames.reduce(0) { $0 + $1.heldBytes } }

    package mutating func append(_ frame: Frame) {
        if frames.count < RecentFrames.depth {
            if frames.capacity < RecentFrames.depth { frames.reserveCapacity(RecentFrames.depth) }
            frames.append(frame)
        } else {
            frames[next] = frame
        }
        next = (next + 1) % RecentFrames.depth
    }

    /// The newest boundary at or before `moment` (host nanoseconds), if the history reaches back that far.
    package func frame(at moment: Int64) -> Frame? {
        var best: Frame?
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

    package mutating func release() {
        frames = []
        next = 0
    }
}
