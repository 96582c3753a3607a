import Foundation
import Synchronization

/// The readiness part of a photo output's state: its readiness coordinators (held weakly)
/// under a lock of its own, and the announcement of `captureReadiness` changes. The value
/// is computed when read, from the session and the schedule (`PhotoCaptureSchedule`), so
/// nothing here can disagree with it.
///
/// Threads: an announcement is made on the thread of the change (see
/// `AVCapturePhotoOutput.captureReadiness`), with no lock held: key-value observers first,
/// then each coordinator.
final class PhotoOutputReadiness: Sendable {
    private struct WeakCoordinator {
        weak var coordinator: AVCapturePhotoOutputReadinessCoordinator?
    }

    private let coordinators = Mutex<[WeakCoordinator]>([])

    func add(_ coordinator: AVCapturePhotoOutputReadinessCoordinator) {
        coordinators.withLock { $0.append(WeakCoordinator(coordinator: coordinator)) }
    }

    /// Runs `change` (which changes what `output.captureReadiness` reads) and announces the
    /// change to the output's observers and coordinators. `finished` is a capture that
    /// ended: coordinators stop tracking it.
    func announce<Result: Sendable>(_ output: AVCapturePhotoOutput, finished: Int64? = nil, around change: () -> Result) -> Result {
        let watch = KeyValueChange.watch(output, keys: ["captureReadiness"])
        let result = change()
        let live = coordinators.withLock { list -> [AVCapturePhotoOutputReadinessCoordinator] in
            list.removeAll { $0.coordinator == nil }
            return list.compactMap(\.coordinator)
        }
        watch?.didChange()
        for coordinator in live { coordinator.outputReadinessChanged(finished: finished) }
        return result
    }

    /// Tells the coordinators the output's readiness may have changed (the session started,
    /// stopped or was interrupted; the output's own key is announced by the session).
    func notifyCoordinators() {
        let live = coordinators.withLock { $0.compactMap(\.coordinator) }
        for coordinator in live { coordinator.outputReadinessChanged(finished: nil) }
    }
}
