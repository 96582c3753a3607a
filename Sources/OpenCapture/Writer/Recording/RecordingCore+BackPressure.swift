import Foundation

extension RecordingCore {
    /// The back-pressure in front of a writer's serial queue: how many items wait on it and
    /// how many were refused for lack of room. Kept under the client's lock, beside the
    /// state it is checked with (a movie output's recording flags, an asset-writer input's
    /// finished flag), so admitting an item is one lock.
    ///
    /// A movie output drops what finds no room (`admit(limit:)`: a slow disk or encoder
    /// loses frames instead of stalling capture); an asset-writer input queues every
    /// append (`enqueue()`) and reports the room as `isReadyForMoreMediaData`
    /// (`hasRoom(below:)`).
    struct BackPressure: Sendable {
        /// Items queued and not yet taken by the writer's queue.
        private(set) var queued = 0
        /// Items refused (`admit`) or lost on the way (`drop`) since `resetDropped()`.
        private(set) var dropped = 0

        /// Whether fewer than `limit` items wait.
        func hasRoom(below limit: Int) -> Bool { queued < limit }

        /// Queues an item when fewer than `limit` wait; else counts it dropped.
        mutating func admit(limit: Int) -> Bool {
            guard hasRoom(below: limit) else {
                dropped += 1
                return false
            }
            queued += 1
            return true
        }

        /// Queues an item whatever the depth.
        mutating func enqueue() { queued += 1 }

        /// The writer's queue took (wrote or skipped) a queued item.
        mutating func dequeue() { queued -= 1 }

        /// Counts items lost before or after the queue (a source's skipped frames, a pool
        /// exhausted while mirroring).
        mutating func drop(_ count: Int = 1) { dropped += count }

        mutating func resetDropped() { dropped = 0 }
    }
}
