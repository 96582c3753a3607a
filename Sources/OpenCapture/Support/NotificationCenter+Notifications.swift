import Foundation

// Foundation on Apple platforms has `notifications(named:object:)` (iOS 15); Foundation on
// Linux does not, and capture code (AVCam among it) awaits session and device
// notifications with it.
extension NotificationCenter {
    /// The notifications named `name` (from `object`, or from anyone when nil) as an
    /// asynchronous sequence. Observation starts now, not when iteration starts, and every
    /// notification posted from then on is buffered until it is read; it ends when the
    /// sequence and its iterators are released.
    public func notifications(named name: Notification.Name, object: AnyObject? = nil) -> Notifications {
        Notifications(center: self, name: name, object: object)
    }

    /// An asynchronous sequence of the notifications one observation receives.
    public final class Notifications: AsyncSequence, @unchecked Sendable {
        public typealias Element = Notification

        private let center: NotificationCenter
        private let stream: AsyncStream<Posted>
        private let continuation: AsyncStream<Posted>.Continuation
        private var token: (any NSObjectProtocol)?

        init(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
            self.center = center
            (stream, continuation) = AsyncStream<Posted>.makeStream(bufferingPolicy: .unbounded)
            let sink = Sink(continuation)
            // The block runs on the posting thread (queue nil), so nothing is lost or reordered.
            token = center.addObserver(forName: name, object: object, queue: nil) { sink.yield($0) }
        }

        deinit {
            if let token { center.removeObserver(token) }
            continuation.finish()
        }

        public func makeAsyncIterator() -> Iterator { Iterator(self) }

        /// Reads the buffered notifications in the order they were posted.
        public final class Iterator: AsyncIteratorProtocol {
            // Holds the sequence, whose release would end the observation mid-iteration.
            private let sequence: Notifications
            private var base: AsyncStream<Posted>.Iterator

            init(_ sequence: Notifications) {
                self.sequence = sequence
                base = sequence.stream.makeAsyncIterator()
            }

            public func next() async -> Notification? { await base.next()?.notification }
        }

        /// A notification in the buffer (Notification is not Sendable on Linux; each is
        /// handed from the posting thread to the one reader).
        struct Posted: @unchecked Sendable {
            let notification: Notification
        }

        /// Carries the continuation into the observer block.
        private struct Sink: Sendable {
            let continuation: AsyncStream<Posted>.Continuation
            init(_ continuation: AsyncStream<Posted>.Continuation) { self.continuation = continuation }
            func yield(_ notification: Notification) { continuation.yield(Posted(notification: notification)) }
        }
    }
}
