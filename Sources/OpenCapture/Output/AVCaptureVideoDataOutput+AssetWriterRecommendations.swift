import Foundation

// iOS 26's asset-writer recommendations (AVCaptureVideoDataOutput.h): the track time scale
// and the movie-level metadata to give an AVAssetWriter recording this output's frames.
extension AVCaptureVideoDataOutput {
    /// The camera feeding the output, if any.
    private var sourceDevice: AVCaptureDevice? {
        (connection(with: .video)?.inputPorts.first?.input as? AVCaptureDeviceInput)?.device
    }

    /// The media time scale for an `AVAssetWriterInput` writing this output's frames
    /// (`mediaTimeScale`), from the camera's frame rate (iOS 26): the smallest multiple of
    /// 600 in which the active frame duration is a whole number of ticks, so every frame
    /// time of a steady stream is exact (600 for 24, 25, 30, 60 and 120 fps; 30000 for
    /// 29.97; 1200 for 240). Never less than 600, as Apple documents; 600 with no camera
    /// connected. A frame duration no multiple of 600 up to 1,000,000 represents (an odd
    /// V4L2 interval) gets 90000, the time scale the writer picks by itself.
    public var recommendedMediaTimeScaleForAssetWriter: CMTimeScale {
        guard let duration = sourceDevice?.activeVideoMinFrameDuration, duration.isNumeric, duration.value > 0,
            duration.timescale > 0
        else { return 600 }
        func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
        let timescale = Int64(duration.timescale)
        let needed = timescale / gcd(duration.value, timescale)  // ticks per second for one-tick frames
        let scale = 600 / gcd(600, needed) * needed
        return scale <= 1_000_000 ? CMTimeScale(scale) : 90_000
    }

    /// Movie-level metadata for an `AVAssetWriter` recording this output's frames with
    /// `videoCodecType` into a file of `outputFileType` (iOS 26): what
    /// `AVCaptureMovieFileOutput` writes by itself, the camera's make
    /// (`AVCaptureDevice.manufacturer`) and model (`modelID`) and the software
    /// ("OpenCapture"), as QuickTime metadata items; assign them to the writer's `metadata`.
    /// Nil for a codec or file type the writer cannot make, or without a camera connected.
    public func recommendedMovieMetadata(
        forVideoCodecType videoCodecType: AVVideoCodecType, assetWriterOutputFileType outputFileType: AVFileType
    ) -> [AVMetadataItem]? {
        guard availableVideoCodecTypesForAssetWriter(writingTo: outputFileType).contains(videoCodecType),
            let device = sourceDevice
        else { return nil }
        func item(_ identifier: AVMetadataIdentifier, _ value: String) -> AVMetadataItem {
            let item = AVMutableMetadataItem()
            item.identifier = identifier
            item.value = value as NSString
            return item
        }
        return [
            item(.quickTimeMetadataMake, device.manufacturer),
            item(.quickTimeMetadataModel, device.modelID),
            item(.quickTimeMetadataSoftware, MovieFileTags.softwareName),
        ]
    }
}
