import Foundation

extension AVCapturePhotoOutput {
    /// Whether the output can take a photo now without waiting (iOS 17).
    public enum CaptureReadiness: Int, Sendable {
        /// The session is not running: no photo can be taken.
        case sessionNotRunning = 0
        /// A photo taken now starts at once.
        case ready = 1
        /// Briefly not ready (not used here: nothing stalls the output momentarily).
        case notReadyMomentarily = 2
        /// A photo's exposure is in progress (until `didCapturePhotoFor`), or one waits to start.
        case notReadyWaitingForCapture = 3
        /// Photos are being processed: one, without responsive capture (the next would wait
        /// for it); `responsiveProcessingLimit` with it.
        case notReadyWaitingForProcessing = 4
    }

    var captureReadinessBacking: CaptureReadiness {
        guard let session, session.isRunning, !session.isInterrupted else { return .sessionNotRunning }
        let responsive = isResponsiveCaptureEnabled
        return state.withLock { Self.readiness($0, responsive: responsive) }
    }

    /// Live Photo movies still being recorded or written do not hold the next photo up.
    static func readiness(_ state: State, responsive: Bool) -> CaptureReadiness {
        if !state.capturing.isEmpty { return .notReadyWaitingForCapture }
        if state.processing.count >= (responsive ? responsiveProcessingLimit : 1) { return .notReadyWaitingForProcessing }
        return .ready
    }

    /// Runs `change` on the output's state and announces a readiness change to observers
    /// and coordinators. `finished` is a capture that ended: coordinators stop tracking it.
    func changeReadiness(finished: Int64? = nil, _ change: (inout State) -> Void) {
        let watch = KeyValueChange.watch(self, keys: ["captureReadiness"])
        let coordinators = state.withLock { state -> [AVCapturePhotoOutputReadinessCoordinator] in
            change(&state)
            state.coordinators.removeAll { $0.coordinator == nil }
            return state.coordinators.compactMap(\.coordinator)
        }
        watch?.didChange()
        for coordinator in coordinators { coordinator.outputReadinessChanged(finished: finished) }
    }

    func add(_ coordinator: AVCapturePhotoOutputReadinessCoordinator) {
        state.withLock { $0.coordinators.append(WeakCoordinator(coordinator: coordinator)) }
    }

    /// The session started or stopped (or was interrupted): coordinators follow. The
    /// output's own key is watched by the session's configuration lock.
    func sessionStateChanged() {
        if session?.isRunning != true, !state.withLock({ $0.preservesLivePhotoSuspension }) {
            state.withLock { $0.livePhotoSuspended = false }
        }
        updateRecentFrames()
        updateLivePhotoRing()
        let coordinators = state.withLock { $0.coordinators.compactMap(\.coordinator) }
        for coordinator in coordinators { coordinator.outputReadinessChanged(finished: nil) }
    }

    // MARK: Processing time

    /// The processing time a capture with `settings` can expect (zero-based: `start` is the
    /// shortest, `start + duration` the longest): the range of this output's last eight
    /// measured captures of the same quality prioritization and codec. Invalid before the
    /// output has measured one, since nothing else predicts this machine's speed.
    func processingTimeEstimate(for settings: AVCapturePhotoSettings) -> CMTimeRange {
        let times = state.withLock { $0.processingTimes[Self.kind(settings)] ?? [] }
        guard let shortest = times.min(), let longest = times.max() else { return .invalid }
        return CMTimeRange(
            start: CMTime(seconds: shortest, preferredTimescale: 1_000_000),
            duration: CMTime(seconds: longest - shortest, preferredTimescale: 1_000_000))
    }

    /// Remembers how long a capture's processing took (exposure end to the file ready).
    func recordProcessingTime(_ elapsed: Duration, for settings: AVCapturePhotoSettings) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        state.withLock { state in
            var times = state.processingTimes[Self.kind(settings)] ?? []
            times.append(seconds)
            if times.count > 8 { times.removeFirst(times.count - 8) }
            state.processingTimes[Self.kind(settings)] = times
        }
    }

    private static func kind(_ settings: AVCapturePhotoSettings) -> ProcessingKind {
        ProcessingKind(quality: settings.photoQualityPrioritization.rawValue, codec: settings.codec?.rawValue)
    }
}
