import Foundation
import Synchronization

/// Numbers a device's control requests and runs their completion handlers, in order, with
/// the presentation timestamp of the first frame that carries each request.
///
/// Handlers run on a serial queue of the device's, never on the capture thread, so a slow
/// handler cannot stall capture.
package final class ControlRequestQueue: @unchecked Sendable {
    private struct Pending {
        var id: UInt64
        var handler: UncheckedSendable<(CMTime) -> Void>
    }

    /// Handlers waiting for the frame that carries their request, in request order.
    private let pending = Mutex<[Pending]>([])
    /// The next request number, held from numbering a request until the backend has it:
    /// two threads setting at once would otherwise record one request while the backend got
    /// the other last. A lock of its own, so a frame completing handlers (`frameArrived`)
    /// never waits on a submit. (It guards the number rather than nothing: ThreadSanitizer
    /// misreports the inout access of a lock's zero-sized value as a race.)
    private let nextID = Mutex<UInt64>(1)
    private let handlerQueue: DispatchQueue

    init(label: String) {
        handlerQueue = DispatchQueue(label: "OpenCapture.controls.\(label)")
    }

    /// Numbers a request, remembers its handler and runs `handOver` with the number, all
    /// under one lock, so requests are recorded and reach the backend in the order of their
    /// numbers. `handOver` only stores and queues (settings, `CaptureBackend.apply`): it
    /// must not call user code or wait on a frame.
    func submit(_ handler: ((CMTime) -> Void)?, handOver: (UInt64) -> Void) -> UInt64 {
        nextID.withLock { nextID in
            let id = nextID
            nextID += 1
            if let handler { pending.withLock { $0.append(Pending(id: id, handler: UncheckedSendable(handler))) } }
            handOver(id)
            return id
        }
    }

    /// Called with every frame's metadata: completes the handlers the frame satisfies.
    func frameArrived(_ metadata: FrameMetadata) {
        let ready = pending.withLock { pending -> [Pending] in
            guard let first = pending.first, first.id <= metadata.appliedRequest else { return [] }
            let count = pending.prefix { $0.id <= metadata.appliedRequest }.count
            let done = Array(pending.prefix(count))
            pending.removeFirst(count)
            return done
        }
        guard !ready.isEmpty else { return }
        let time = metadata.presentationTime
        handlerQueue.async {
            for pending in ready { pending.handler.value(time) }
        }
    }
}
