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
        return schedule.withLock { $0.readiness(responsive: responsive) }
    }

    /// Runs `change` on the output's schedule and announces a readiness change to observers
    /// and coordinators (`PhotoOutputReadiness`). `finished` is a capture that ended:
    /// coordinators stop tracking it.
    @discardableResult
    func changeReadiness<Result: Sendable>(finished: Int64? = nil, _ change: (inout PhotoCaptureSchedule) -> Result) -> Result {
        readiness.announce(self, finished: finished) { schedule.withLock { change(&$0) } }
    }

    func add(_ coordinator: AVCapturePhotoOutputReadinessCoordinator) { readiness.add(coordinator) }

    /// The session started or stopped (or was interrupted): coordinators follow. The
    /// output's own key is watched by the session's configuration lock.
    func sessionStateChanged() {
        if session?.isRunning != true, !settingsState.withLock({ $0.preservesLivePhotoSuspension }) {
            settingsState.withLock { $0.livePhotoSuspended = false }
        }
        updateRecentFrames()
        updateLivePhotoRing()
        readiness.notifyCoordinators()
    }

    // MARK: Processing time

    /// The processing time a capture with `settings` can expect (zero-based: `start` is the
    /// shortest, `start + duration` the longest): the range of this output's last eight
    /// measured captures of the same quality prioritization and codec. Invalid before the
    /// output has measured one, since nothing else predicts this machine's speed.
    func processingTimeEstimate(for settings: AVCapturePhotoSettings) -> CMTimeRange {
        let times = schedule.withLock { $0.times(of: Self.kind(settings)) }
        guard let shortest = times.min(), let longest = times.max() else { return .invalid }
        return CMTimeRange(
            start: CMTime(seconds: shortest, preferredTimescale: 1_000_000),
            duration: CMTime(seconds: longest - shortest, preferredTimescale: 1_000_000))
    }

    /// Remembers how long a capture's processing took (exposure end to the file ready).
    func recordProcessingTime(_ elapsed: Duration, for settings: AVCapturePhotoSettings) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        schedule.withLock { $0.record(seconds, of: Self.kind(settings)) }
    }

    private static func kind(_ settings: AVCapturePhotoSettings) -> PhotoCaptureSchedule.ProcessingKind {
        PhotoCaptureSchedule.ProcessingKind(quality: settings.photoQualityPrioritization.rawValue, codec: settings.codec?.rawValue)
    }
}
