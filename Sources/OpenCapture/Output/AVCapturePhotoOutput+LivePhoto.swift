import Foundation
import MediaIO

// Live Photos: a still with a movie of about 1.5 s either side (see `LivePhotoRecorder`),
// on the cameras that take stills (the simulated ones).
extension AVCapturePhotoOutput {
    private func refuse(_ selector: String, _ text: String) -> Never {
        AVCaptureException(.invalidArgument, selectorReason("AVCapturePhotoOutput", selector, text)).raise()
    }

    /// Whether Live Photos can be taken: on cameras that take stills, where FFmpeg's H.264
    /// encoder can be loaded for the movie.
    public var isLivePhotoCaptureSupported: Bool {
        stillCamera != nil && MovieWriter.isAvailable
    }

    /// Whether the pipeline keeps frames for Live Photo movies (default false). Set it
    /// before `startRunning()`: changed while running, the ring starts filling (or is freed)
    /// at once and movies in progress end now, trimmed to what they have. Setting true
    /// where unsupported raises `NSInvalidArgumentException`.
    public var isLivePhotoCaptureEnabled: Bool {
        get { isLivePhotoCaptureSupported && state.withLock { $0.livePhotoCapture } }
        set {
            if newValue && !isLivePhotoCaptureSupported { refuse("setLivePhotoCaptureEnabled:", "livePhotoCaptureSupported is NO") }
            let changed = state.withLock { state -> Bool in
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

    /// Whether Live Photo capture is paused (default false): true trims movies in progress
    /// to now and stops keeping frames; false starts again. Setting true while Live Photo
    /// capture is not enabled raises `NSInvalidArgumentException`.
    public var isLivePhotoCaptureSuspended: Bool {
        get { state.withLock { $0.livePhotoSuspended } }
        set {
            if newValue && !isLivePhotoCaptureEnabled { refuse("setLivePhotoCaptureSuspended:", "livePhotoCaptureEnabled is NO") }
            state.withLock { $0.livePhotoSuspended = newValue }
            if newValue { livePhotos.trimMoviesInProgress() }
            updateLivePhotoRing()
        }
    }

    /// Whether suspension survives the session stopping (iOS 16; default false: stopping
    /// resumes Live Photo capture). Setting true where Live Photos are unsupported raises.
    public var preservesLivePhotoCaptureSuspendedOnSessionStop: Bool {
        get { state.withLock { $0.preservesLivePhotoSuspension } }
        set {
            if newValue && !isLivePhotoCaptureSupported {
                refuse("setPreservesLivePhotoCaptureSuspendedOnSessionStop:", "livePhotoCaptureSupported is NO")
            }
            state.withLock { $0.preservesLivePhotoSuspension = newValue }
        }
    }

    /// Whether movies are cut where the picture jumps (default true where Live Photos are
    /// supported): from the still outwards, a frame whose 4x4 luma zones differ from its
    /// neighbour's by more than 24 of 255 ends the movie on that side. Setting true where
    /// unsupported raises `NSInvalidArgumentException`.
    public var isLivePhotoAutoTrimmingEnabled: Bool {
        get { isLivePhotoCaptureSupported && state.withLock { $0.livePhotoAutoTrimming } }
        set {
            if newValue && !isLivePhotoCaptureSupported { refuse("setLivePhotoAutoTrimmingEnabled:", "livePhotoCaptureSupported is NO") }
            state.withLock { $0.livePhotoAutoTrimming = newValue }
        }
    }

    /// Codecs for Live Photo movies: HEVC (where FFmpeg has libx265) and H.264; empty
    /// where Live Photos are unsupported.
    public var availableLivePhotoVideoCodecTypes: [AVVideoCodecType] {
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
        let on = state.withLock { $0.livePhotoCapture && !$0.livePhotoSuspended } && session?.isRunning == true && isLivePhotoCaptureSupported
        if on != livePhotos.isActive { livePhotos.setActive(on) }
    }

    /// Bytes the Live Photo ring holds now (Linux addition, for memory checks).
    public var livePhotoRingBytes: Int { livePhotos.ringBytes }

    /// Bytes the camera's zero-shutter-lag history holds now (Linux addition).
    public var zeroShutterLagHistoryBytes: Int { stillCamera?.recentFrameBytes ?? 0 }
}
