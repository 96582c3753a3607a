// AVVideoSettings.h (iOS 18 SDK): codec types and settings keys, spelled as iOS code
// spells them in settings dictionaries.
import AVFoundation
import Foundation
import Testing

/// Touches every codec type and key; compiled, never called.
func spellAVVideoSettings() -> [String: Any] {
    let codecs: [AVVideoCodecType] = [
        .hevc, .h264, .jpeg, .JPEGXL, .proRes4444, .proRes4444XQ, .proRes422, .proRes422HQ, .proRes422LT, .proRes422Proxy, .hevcWithAlpha,
    ]
    let compression: [String: Any] = [
        AVVideoAverageBitRateKey: 6_000_000, AVVideoQualityKey: 0.8, AVVideoMaxKeyFrameIntervalKey: 30,
        AVVideoMaxKeyFrameIntervalDurationKey: 1.0, AVVideoAllowFrameReorderingKey: false,
        AVVideoProfileLevelKey: AVVideoProfileLevelH264HighAutoLevel, AVVideoH264EntropyModeKey: AVVideoH264EntropyModeCABAC,
        AVVideoExpectedSourceFrameRateKey: 30, AVVideoAverageNonDroppableFrameRateKey: 30,
        AVVideoPixelAspectRatioKey: [String: Any](), AVVideoCleanApertureKey: [String: Any](),
    ]
    let levels: [String] = [AVVideoProfileLevelH264BaselineAutoLevel, AVVideoProfileLevelH264MainAutoLevel, AVVideoH264EntropyModeCAVLC]
    let scaling: [String] = [AVVideoScalingModeFit, AVVideoScalingModeResize, AVVideoScalingModeResizeAspect, AVVideoScalingModeResizeAspectFill]
    let colour: [String: Any] = [AVVideoColorPrimariesKey: "ITU_R_709_2", AVVideoTransferFunctionKey: "ITU_R_709_2", AVVideoYCbCrMatrixKey: "ITU_R_709_2"]
    return [
        AVVideoCodecKey: codecs[0], AVVideoWidthKey: 1920, AVVideoHeightKey: 1080, AVVideoCompressionPropertiesKey: compression,
        AVVideoScalingModeKey: scaling[0], AVVideoColorPropertiesKey: colour, AVVideoAllowWideColorKey: true,
        AVVideoEncoderSpecificationKey: [String: Any](), "levels": levels,
    ]
}

@Suite("AVVideoSettings spelling")
struct AVVideoSettingsSpellingTests {
    @Test("codec raw values are Apple's four-character codes; only encodable codecs are offered")
    func codecValues() {
        #expect(AVVideoCodecType.hevc.rawValue == "hvc1" && AVVideoCodecType.h264.rawValue == "avc1" && AVVideoCodecType.jpeg.rawValue == "jpeg")
        #expect(AVVideoCodecType.JPEGXL.rawValue == "jxlc")
        let movie = AVCaptureMovieFileOutput()
        #expect(movie.availableVideoCodecTypes.allSatisfy { [.h264, .hevc].contains($0) })
        #expect(AVCapturePhotoOutput().availablePhotoCodecTypes == [.hevc, .jpeg])
        #expect(Set([AVVideoMaxKeyFrameIntervalKey, AVVideoProfileLevelKey, AVVideoAllowFrameReorderingKey, AVVideoExpectedSourceFrameRateKey]).count == 4)
    }
}
