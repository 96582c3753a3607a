import Foundation

// Zero shutter lag, responsive capture and fast capture prioritization (iOS 17), on the
// cameras that take stills (the simulated ones; V4L2 cameras take no photos at all).
//
// - Zero shutter lag: the camera keeps the state of its last 8 frame boundaries (see
//   `RecentFrames` in SimulatedCamera); a capture renders the frame that was exposing when
//   `capturePhoto` was called instead of the next one. On by default where supported, as
//   for apps linked on iOS 17 or later. Not used for a capture whose flash fires or while
//   the camera's exposure mode is custom (Apple's exceptions: such photos need a frame
//   exposed for them).
// - Responsive capture (needs zero shutter lag): a capture may start while earlier ones
//   are processed; without it a capture made while another is processing waits for it.
// - Fast capture prioritization (needs responsive capture): a capture made while others
//   are processing is lowered one quality step per capture in progress.
extension AVCapturePhotoOutput {
    /// Photos that may be processing at once before responsive capture reports
    /// `notReadyWaitingForProcessing`.
    static let responsiveProcessingLimit = 3

    private func refuse(_ selector: String, _ text: String) -> Never {
        AVCaptureException(.invalidArgument, selectorReason("AVCapturePhotoOutput", selector, text)).raise()
    }

    /// The connected camera, when it takes stills.
    var stillCamera: (any StillCapturing)? { device?.backend as? StillCapturing }

    var isZeroShutterLagSupportedBacking: Bool { stillCamera != nil }

    var isZeroShutterLagEnabledBacking: Bool {
        get { isZeroShutterLagSupported && (settingsState.withLock { $0.zeroShutterLag } ?? true) }
        set {
            if newValue && !isZeroShutterLagSupported { refuse("setZeroShutterLagEnabled:", "zeroShutterLagSupported is NO") }
            let watch = KeyValueChange.watch(self, keys: Self.responsivenessKeys)
            settingsState.withLock { $0.zeroShutterLag = newValue }
            watch?.didChange()
            updateRecentFrames()
        }
    }

    var isResponsiveCaptureSupportedBacking: Bool { isZeroShutterLagEnabled }

    var isResponsiveCaptureEnabledBacking: Bool {
        get { isResponsiveCaptureSupported && settingsState.withLock { $0.responsiveCapture } }
        set {
            if newValue && !isResponsiveCaptureSupported { refuse("setResponsiveCaptureEnabled:", "responsiveCaptureSupported is NO") }
            let watch = KeyValueChange.watch(self, keys: Self.responsivenessKeys)
            settingsState.withLock { $0.responsiveCapture = newValue }
            watch?.didChange()
        }
    }

    var isFastCapturePrioritizationSupportedBacking: Bool {
        get { isResponsiveCaptureEnabled }
        set {}
    }

    var isFastCapturePrioritizationEnabledBacking: Bool {
        get { isFastCapturePrioritizationSupported && settingsState.withLock { $0.fastCapturePrioritization } }
        set {
            if newValue && !isFastCapturePrioritizationSupported {
                refuse("setFastCapturePrioritizationEnabled:", "fastCapturePrioritizationSupported is NO")
            }
            let watch = KeyValueChange.watch(self, keys: Self.responsivenessKeys)
            settingsState.withLock { $0.fastCapturePrioritization = newValue }
            watch?.didChange()
        }
    }

    static let responsivenessKeys = [
        "isZeroShutterLagEnabled", "isResponsiveCaptureSupported", "isResponsiveCaptureEnabled",
        "isFastCapturePrioritizationSupported", "isFastCapturePrioritizationEnabled",
    ]

    /// Tells the camera to keep (or stop keeping) its recent frames: while the session
    /// runs with zero shutter lag enabled. A camera this output no longer uses is let go.
    func updateRecentFrames() {
        let camera = stillCamera
        let keep = camera != nil && isZeroShutterLagEnabled && session?.isRunning == true
        let owner = ObjectIdentifier(self)
        let previous = settingsState.withLock { state -> (any StillCapturing)? in
            defer { state.recentFramesCamera = keep ? camera : nil }
            return state.recentFramesCamera
        }
        if let previous, previous !== camera || !keep { previous.keepRecentFrames(false, for: owner) }
        if keep, let camera { camera.keepRecentFrames(true, for: owner) }
    }

    /// Whether a capture with `flash` uses zero shutter lag (Apple's exceptions: flash,
    /// custom exposure).
    func usesZeroShutterLag(flash: Bool) -> Bool {
        guard isZeroShutterLagEnabled, !flash else { return false }
        return device?.exposureMode != .custom
    }

    /// The quality a capture gets: the one asked for, lowered by fast capture
    /// prioritization one step per photo processing now.
    func effectiveQuality(for settings: AVCapturePhotoSettings) -> (QualityPrioritization, lowered: Bool) {
        let asked = settings.photoQualityPrioritization
        guard isFastCapturePrioritizationEnabled else { return (asked, false) }
        let busy = schedule.withLock { $0.processing.count }
        let lowered = QualityPrioritization(rawValue: max(QualityPrioritization.speed.rawValue, asked.rawValue - busy)) ?? asked
        return (lowered, lowered != asked)
    }
}
