// AVAssetImageGenerator.h and AVTime.h's NSValue additions, spelled as thumbnail code
// spells them.
import AVFoundation
import Foundation

/// Touches the image generator declarations; compiled, never called.
func spellAVAssetImageGenerator(_ asset: AVAsset) async throws {
    let generator = AVAssetImageGenerator(asset: asset)
    generator.appliesPreferredTrackTransform = true
    generator.maximumSize = CGSize(width: 320, height: 320)
    generator.apertureMode = .encodedPixels
    generator.requestedTimeToleranceBefore = .zero
    generator.requestedTimeToleranceAfter = CMTime(value: 1, timescale: 30)
    let (image, actualTime) = try await generator.image(at: CMTime(seconds: 1, preferredTimescale: 600))
    generator.generateCGImageAsynchronously(for: .zero) { image, time, error in _ = (image, time, error) }
    let times = [NSValue(time: .zero), NSValue(time: CMTime(value: 1, timescale: 1))]
    generator.generateCGImagesAsynchronously(forTimes: times) { requested, image, actual, result, error in
        if result == .succeeded, let image { _ = (requested, image, actual) } else if result == .cancelled || result == .failed { _ = error }
    }
    for await element in generator.images(for: [.zero]) {
        _ = (element.requestedTime, try? element.image, try? element.actualTime)
    }
    generator.cancelAllCGImageGeneration()
    let range: CMTimeRange = NSValue(timeRange: CMTimeRange(start: .zero, duration: actualTime)).timeRangeValue
    _ = (image.width, range, times[0].timeValue)
}
