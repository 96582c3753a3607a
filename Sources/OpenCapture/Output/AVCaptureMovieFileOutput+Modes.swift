import Foundation

/// The movie output's keys and modes beyond codec and fragments (AVCaptureFileOutput.h).
extension AVCaptureMovieFileOutput {

    /// The checked form of setting `isSpatialVideoCaptureEnabled` (Linux addition).
    public func setSpatialVideoCaptureEnabled(_ enabled: Bool) throws(AVCaptureException) {
        guard !enabled || isSpatialVideoCaptureSupported else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureMovieFileOutput", "setSpatialVideoCaptureEnabled:",
                "Spatial video capture is not supported - use spatialVideoCaptureSupported"))
        }
    }
}
