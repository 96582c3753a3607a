import Foundation
import Synchronization

/// Follows a photo output's readiness, counting capture requests the app is about to make
/// (iOS 17): between `startTrackingCaptureRequest(using:)` and the output finishing that
/// capture (or `stopTrackingCaptureRequest(using:)`), the request keeps the coordinator's
/// `captureReadiness` at least `.notReadyWaitingForCapture`, so a shutter button can be
/// disabled the moment it is tapped.
///
/// Threads: `captureReadiness` may be read from any thread. The delegate is called on the
/// output's callback queue ("OpenCapture.photo"), in order with the photo delegate's
/// calls (Apple calls it on the main queue, which a Linux program need not run); key-value
/// observers of `captureReadiness` are told on that queue too.
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
        callbackQueue = photoOutput.callbackQueue
        state = Mutex(State(readiness: photoOutput.captureReadiness))
        super.init()
        photoOutput.add(self)
    }

    /// Told of every readiness change on the output's callback queue (held weakly).
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
    /// The coordinator's readiness is now `captureReadiness`; on the output's callback queue.
    func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness)
}

extension AVCapturePhotoOutputReadinessCoordinatorDelegate {
    public func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
    ) {}
}
