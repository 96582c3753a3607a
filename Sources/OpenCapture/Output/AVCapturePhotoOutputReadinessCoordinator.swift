import Foundation
import Synchronization

/// Follows a photo output's readiness, counting capture requests the app is about to make
/// (iOS 17): between `startTrackingCaptureRequest(using:)` and the output finishing that
/// capture (or `stopTrackingCaptureRequest(using:)`), the request keeps the coordinator's
/// `captureReadiness` at least `.notReadyWaitingForCapture`, so a shutter button can be
/// disabled the moment it is tapped.
///
/// Threads: `captureReadiness` may be read from any thread. The delegate is called on the
/// main queue, and key-value observers of `captureReadiness` are told there too, as Apple
/// documents (apps update their shutter button from the callback without hopping), in the
/// order the changes happened. A program that never runs the main queue (no run loop,
/// `dispatchMain()` or async `main`) hears nothing, as on iOS; `captureReadiness` still reads
/// the current value.
open class AVCapturePhotoOutputReadinessCoordinator: NSObject, @unchecked Sendable {
    private weak var output: AVCapturePhotoOutput?
    private let callbackQueue: DispatchQueue
    private let state: Mutex<State>
    private struct State {
        var tracked: Set<Int64> = []
        /// The readiness last announced, which `captureReadiness` reports.
        var readiness: AVCapturePhotoOutput.CaptureReadiness
        weak var delegate: (any AVCapturePhotoOutputReadinessCoordinatorDelegate)?
    }
    let coordinatorKeyValueObservers = KeyValueObserverRegistry(label: "readinessCoordinator")

    /// A coordinator for `photoOutput`.
    public init(photoOutput: AVCapturePhotoOutput) {
        output = photoOutput
        callbackQueue = .main
        state = Mutex(State(readiness: photoOutput.captureReadiness))
        super.init()
        photoOutput.add(self)
    }

    /// Told of every readiness change on the main queue (held weakly).
    open weak var delegate: (any AVCapturePhotoOutputReadinessCoordinatorDelegate)? {
        get { state.withLock { $0.delegate } }
        set {
            let delegate = UncheckedSendable(newValue)
            state.withLock { $0.delegate = delegate.value }
        }
    }

    /// The output's readiness, but not ready while a tracked request has not finished
    /// (key-value observable).
    open var captureReadiness: AVCapturePhotoOutput.CaptureReadiness { state.withLock { $0.readiness } }

    /// Counts a capture request about to be made with `settings` (call it just before
    /// `capturePhoto(with:delegate:)`).
    open func startTrackingCaptureRequest(using settings: AVCapturePhotoSettings) {
        state.withLock { _ = $0.tracked.insert(settings.uniqueID) }
        outputReadinessChanged(finished: nil)
    }

    /// Stops counting a request the app decided not to make.
    open func stopTrackingCaptureRequest(using settingsUniqueID: Int64) {
        let removed = state.withLock { $0.tracked.remove(settingsUniqueID) != nil }
        if removed { outputReadinessChanged(finished: nil) }
    }

    /// The output's readiness may have changed; `finished` is a capture that ended. Called
    /// with no lock held, on the thread that changed the output.
    func outputReadinessChanged(finished: Int64?) {
        let watch = KeyValueChange.watch(self, keys: ["captureReadiness"])
        let outputReadiness = output?.captureReadiness ?? .sessionNotRunning
        let announcement = state.withLock { state -> (AVCapturePhotoOutput.CaptureReadiness, UncheckedSendable<(any AVCapturePhotoOutputReadinessCoordinatorDelegate)?>)? in
            if let finished { state.tracked.remove(finished) }
            let now = outputReadiness == .ready && !state.tracked.isEmpty ? .notReadyWaitingForCapture : outputReadiness
            guard now != state.readiness else { return nil }
            state.readiness = now
            return (now, UncheckedSendable(state.delegate))
        }
        guard let announcement else { return }
        let (now, delegate) = announcement
        watch?.didChange(on: callbackQueue)
        callbackQueue.async { [self] in delegate.value?.readinessCoordinator(self, captureReadinessDidChange: now) }
    }
}

/// Hears a readiness coordinator's changes. Optional, as on iOS.
public protocol AVCapturePhotoOutputReadinessCoordinatorDelegate: NSObjectProtocol {
    /// The coordinator's readiness is now `captureReadiness`; on the main queue.
    func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness)
}

extension AVCapturePhotoOutputReadinessCoordinatorDelegate {
    public func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
    ) {}
}
