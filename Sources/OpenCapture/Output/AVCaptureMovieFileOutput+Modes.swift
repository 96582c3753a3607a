import Foundation

/// The movie output's keys and modes beyond codec and fragments (AVCaptureFileOutput.h).
extension AVCaptureMovieFileOutput {
    /// The output-settings keys `setOutputSettings(_:for:)` takes for the connection:
    /// `AVVideoCodecKey` and `AVVideoCompressionPropertiesKey` for video (iOS 12); for audio
    /// `AVFormatIDKey`, `AVSampleRateKey`, `AVNumberOfChannelsKey`, `AVEncoderBitRateKey`.
    public func supportedOutputSettingsKeys(for connection: AVCaptureConnection) -> [String] {
        if connection.inputPorts.contains(where: { $0.mediaType == .video }) { return [AVVideoCodecKey, AVVideoCompressionPropertiesKey] }
        if connection.inputPorts.contains(where: { $0.mediaType == .audio }) { return Self.audioOutputSettingsKeys }
        return []
    }

    /// Whether the output can record spatial (stereo MV-HEVC) video; `false`: no Linux
    /// camera pair is calibrated for it and FFmpeg does not encode MV-HEVC.
    public var isSpatialVideoCaptureSupported: Bool { false }

    /// Whether recordings are spatial video (default `false`); turning it on unsupported raises
    /// `NSInvalidArgumentException`, as on an iPhone without it.
    public var isSpatialVideoCaptureEnabled: Bool {
        get { false }
        set { enforce { try setSpatialVideoCaptureEnabled(newValue) } }
    }

    /// The checked form of setting `isSpatialVideoCaptureEnabled` (Linux addition).
    public func setSpatialVideoCaptureEnabled(_ enabled: Bool) throws(AVCaptureException) {
        guard !enabled || isSpatialVideoCaptureSupported else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureMovieFileOutput", "setSpatialVideoCaptureEnabled:",
                "Spatial video capture is not supported - use spatialVideoCaptureSupported"))
        }
    }
}
