// Seed 000's configureCameraForHighestFrameRate, in Swift as an iOS developer writes it.
// Builds unchanged on iOS and on Linux with OpenCapture.
import AVFoundation

func configureCameraForHighestFrameRate(device: AVCaptureDevice) {
    var bestFormat: AVCaptureDevice.Format?
    var bestFrameRateRange: AVFrameRateRange?
    for format in device.formats {
        for range in format.videoSupportedFrameRateRanges {
            if range.maxFrameRate > bestFrameRateRange?.maxFrameRate ?? 0 {
                bestFormat = format
                bestFrameRateRange = range
            }
        }
    }
    if let bestFormat, let bestFrameRateRange {
        do {
            try device.lockForConfiguration()
            device.activeFormat = bestFormat
            device.activeVideoMinFrameDuration = bestFrameRateRange.minFrameDuration
            device.activeVideoMaxFrameDuration = bestFrameRateRange.minFrameDuration
            device.unlockForConfiguration()
        } catch {
            print("Could not lock \(device.localizedName): \(error)")
        }
    }
}

guard let camera = AVCaptureDevice.default(for: .video) else {
    print("No camera")
    exit(1)
}
configureCameraForHighestFrameRate(device: camera)
let dimensions = CMVideoFormatDescriptionGetDimensions(camera.activeFormat.formatDescription)
let fps = 1 / camera.activeVideoMinFrameDuration.seconds
print("\(camera.localizedName): \(dimensions.width)x\(dimensions.height) at \(Int(fps.rounded())) fps, binned: \(camera.activeFormat.isVideoBinned)")
