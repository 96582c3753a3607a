import Foundation
import MediaIO

// Live Photos: a still with a movie of about 1.5 s either side (see `LivePhotoRecorder`),
// on the cameras that take stills (the simulated ones).
extension AVCapturePhotoOutput {
    private func refuse(_ selector: String, _ text: String) -> Never {
        AVCaptureException(.invalidArgument, selectorReason("AVCapturePhotoOutput", selector, text)).raise()
    }

    var isLivePhotoCaptureSupportedBacking: Bool {
        stillCamera != nil && MovieWriter.isAvailable
    }

    var isLivePhotoCaptureEnabledBacking: Bool {
        get { isLivePhotoCaptureSupported && settingsState.withLock { $0.livePhotoCapture } }
        set {
            if newValue && !isLivePhotoCaptureSupported { refuse("setLivePhotoCaptureEnabled:", "livePhotoCaptureSupported is NO") }
            let changed = settingsState.withLock { state -> Bool in
                defer {
                    state.livePhotoCapture = newValue
                    if !newValue { state.livePhotoSuspended = false }
                }
                return state.livePhotoCapture != newValue
            }
            if changed { livePhotos.trimMoviesInProgress() }
            updateLivePhotoRing()
        }
    }

    var isLivePhotoCaptureSuspendedBacking: Bool {
        get { settingsState.withLock { $0.livePhotoSuspended } }
        set {
            if newValue && !isLivePhotoCaptureEnabled { refuse("setLivePhotoCaptureSuspended:", "livePhotoCaptureEnabled is NO") }
            // The header: "Setting this property to YES when the session is not running will
            // fail resulting in livePhotoCaptureSuspended being reverted to NO."
            if newValue && session?.isRunning != true { return }
            settingsState.withLock { $0.livePhotoSuspended = newValue }
            if newValue { livePhotos.trimMoviesInProgress() }
            updateLivePhotoRing()
        }
    }

    var preservesLivePhotoCaptureSuspendedOnSessionStopBacking: Bool {
        get { settingsState.withLock { $0.preservesLivePhotoSuspension } }
        // Apple documents no exception for this switch (it only keeps a suspension that
        // can itself be set only where Live Photos are enabled).
        set { settingsState.withLock { $0.preservesLivePhotoSuspension = newValue } }
    }

    var isLivePhotoAutoTrimmingEnabledBacking: Bool {
        get { isLivePhotoCaptureSupported && settingsState.withLock { $0.livePhotoAutoTrimming } }
        // Apple documents no exception ("defaults to YES when livePhotoCaptureSupported is
        // YES"): the value is kept and reads false while Live Photos are unsupported.
        set { settingsState.withLock { $0.livePhotoAutoTrimming = newValue } }
    }

    var availableLivePhotoVideoCodecTypesBacking: [AVVideoCodecType] {
        guard isLivePhotoCaptureSupported else { return [] }
        return MovieWriter.canEncodeHEVC ? [.hevc, .h264] : [.h264]
    }

    /// The size of Live Photo movies for the camera's active format.
    var livePhotoMovieDimensions: CMVideoDimensions {
        guard let format = device?.activeFormat else { return CMVideoDimensions(width: 0, height: 0) }
        let size = format.formatDescription.dimensions
        return LivePhotoRecorder.movieSize(width: Int(size.width), height: Int(size.height))
    }

    /// Keeps frames while enabled, not suspended and running; frees them otherwise.
    func updateLivePhotoRing() {
        let on = settingsState.withLock { $0.livePhotoCapture && !$0.livePhotoSuspended } && session?.isRunning == true && isLivePhotoCaptureSupported
        if on != livePhotos.isActive { livePhotos.setActive(on) }
    }

    /// Bytes the Live Photo ring holds now (Linux addition, for memory checks).
    public var livePhotoRingBytes: Int { livePhotos.ringBytes }

    /// Bytes the camera's zero-shutter-lag history holds now (Linux addition).
    public var zeroShutterLagHistoryBytes: Int { stillCamera?.recentFrameBytes ?? 0 }
}
