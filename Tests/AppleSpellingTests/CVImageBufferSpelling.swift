// CVImageBuffer.h and CVBuffer.h's keys, spelled as iOS code spells them: every attachment
// key and value, the geometry functions and the CICP code-point mapping.
import CoreVideo
import Foundation
import Testing

/// Touches the image-buffer declarations; compiled, never called.
func spellCVImageBuffer(_ imageBuffer: CVImageBuffer) {
    let geometry: (CGSize, CGSize, CGRect, Bool) = (
        CVImageBufferGetEncodedSize(imageBuffer), CVImageBufferGetDisplaySize(imageBuffer), CVImageBufferGetCleanRect(imageBuffer),
        CVImageBufferIsFlipped(imageBuffer))
    let keys: [String] = [
        kCVImageBufferCGColorSpaceKey, kCVImageBufferCleanApertureKey, kCVImageBufferCleanApertureWidthKey,
        kCVImageBufferCleanApertureHeightKey, kCVImageBufferCleanApertureHorizontalOffsetKey,
        kCVImageBufferCleanApertureVerticalOffsetKey, kCVImageBufferPreferredCleanApertureKey, kCVImageBufferFieldCountKey,
        kCVImageBufferFieldDetailKey, kCVImageBufferFieldDetailTemporalTopFirst, kCVImageBufferFieldDetailTemporalBottomFirst,
        kCVImageBufferFieldDetailSpatialFirstLineEarly, kCVImageBufferFieldDetailSpatialFirstLineLate,
        kCVImageBufferPixelAspectRatioKey, kCVImageBufferPixelAspectRatioHorizontalSpacingKey,
        kCVImageBufferPixelAspectRatioVerticalSpacingKey, kCVImageBufferDisplayDimensionsKey, kCVImageBufferDisplayWidthKey,
        kCVImageBufferDisplayHeightKey, kCVImageBufferGammaLevelKey, kCVImageBufferICCProfileKey,
        kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_709_2, kCVImageBufferYCbCrMatrix_ITU_R_601_4,
        kCVImageBufferYCbCrMatrix_SMPTE_240M_1995, kCVImageBufferYCbCrMatrix_DCI_P3, kCVImageBufferYCbCrMatrix_P3_D65,
        kCVImageBufferYCbCrMatrix_ITU_R_2020, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_ITU_R_709_2,
        kCVImageBufferColorPrimaries_EBU_3213, kCVImageBufferColorPrimaries_SMPTE_C, kCVImageBufferColorPrimaries_P22,
        kCVImageBufferColorPrimaries_DCI_P3, kCVImageBufferColorPrimaries_P3_D65, kCVImageBufferColorPrimaries_ITU_R_2020,
        kCVImageBufferTransferFunctionKey, kCVImageBufferTransferFunction_ITU_R_709_2,
        kCVImageBufferTransferFunction_SMPTE_240M_1995, kCVImageBufferTransferFunction_UseGamma,
        kCVImageBufferTransferFunction_sRGB, kCVImageBufferTransferFunction_ITU_R_2020,
        kCVImageBufferTransferFunction_SMPTE_ST_428_1, kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ,
        kCVImageBufferTransferFunction_ITU_R_2100_HLG, kCVImageBufferTransferFunction_Linear,
        kCVImageBufferLogTransferFunctionKey, kCVImageBufferLogTransferFunction_AppleLog,
        kCVImageBufferMasteringDisplayColorVolumeKey, kCVImageBufferContentLightLevelInfoKey,
        kCVImageBufferAmbientViewingEnvironmentKey, kCVImageBufferChromaLocationTopFieldKey,
        kCVImageBufferChromaLocationBottomFieldKey, kCVImageBufferChromaLocation_Left, kCVImageBufferChromaLocation_Center,
        kCVImageBufferChromaLocation_TopLeft, kCVImageBufferChromaLocation_Top, kCVImageBufferChromaLocation_BottomLeft,
        kCVImageBufferChromaLocation_Bottom, kCVImageBufferChromaLocation_DV420, kCVImageBufferChromaSubsamplingKey,
        kCVImageBufferChromaSubsampling_420, kCVImageBufferChromaSubsampling_422, kCVImageBufferChromaSubsampling_411,
        kCVImageBufferAlphaChannelIsOpaque, kCVImageBufferAlphaChannelModeKey, kCVImageBufferAlphaChannelMode_StraightAlpha,
        kCVImageBufferAlphaChannelMode_PremultipliedAlpha, kCVImageBufferCameraIntrinsicMatrixKey,
        kCVImageBufferRegionOfInterestKey, kCVBufferMovieTimeKey, kCVBufferTimeValueKey, kCVBufferTimeScaleKey,
        kCVBufferPropagatedAttachmentsKey, kCVBufferNonPropagatedAttachmentsKey,
    ]
    let codePoints: (Int32, Int32, Int32) = (
        CVYCbCrMatrixGetIntegerCodePointForString(kCVImageBufferYCbCrMatrix_ITU_R_709_2),
        CVColorPrimariesGetIntegerCodePointForString(kCVImageBufferColorPrimaries_P3_D65),
        CVTransferFunctionGetIntegerCodePointForString(kCVImageBufferTransferFunction_ITU_R_2100_HLG))
    // Apple returns Unmanaged<CFString>; CFString is not importable on Linux, so the object is
    // an NSString (`as String` bridging needs the Objective-C runtime; `.description` reads it).
    let strings: (Unmanaged<NSString>?, Unmanaged<NSString>?, Unmanaged<NSString>?) = (
        CVYCbCrMatrixGetStringForIntegerCodePoint(1), CVColorPrimariesGetStringForIntegerCodePoint(12),
        CVTransferFunctionGetStringForIntegerCodePoint(18))
    _ = (geometry, keys, codePoints, strings)
}

@Suite("CVImageBuffer spelling")
struct CVImageBufferSpellingTests {
    func makeBuffer(width: Int = 720, height: Int = 480) -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &buffer)
        return buffer!
    }

    @Test("without geometry attachments the encoded, display and clean sizes are the whole picture")
    func plainGeometry() {
        let buffer = makeBuffer()
        #expect(CVImageBufferGetEncodedSize(buffer) == CGSize(width: 720, height: 480))
        #expect(CVImageBufferGetDisplaySize(buffer) == CGSize(width: 720, height: 480))
        #expect(CVImageBufferGetCleanRect(buffer) == CGRect(x: 0, y: 0, width: 720, height: 480))
        #expect(!CVImageBufferIsFlipped(buffer))
    }

    @Test("the clean aperture and pixel aspect ratio attachments shape the clean rect and display size")
    func attachedGeometry() {
        let buffer = makeBuffer()
        let aperture: [String: Any] = [
            kCVImageBufferCleanApertureWidthKey: 704, kCVImageBufferCleanApertureHeightKey: 480,
            kCVImageBufferCleanApertureHorizontalOffsetKey: 2, kCVImageBufferCleanApertureVerticalOffsetKey: 0,
        ]
        CVBufferSetAttachment(buffer, kCVImageBufferCleanApertureKey, aperture, .shouldPropagate)
        #expect(CVImageBufferGetCleanRect(buffer) == CGRect(x: 10, y: 0, width: 704, height: 480))
        // NTSC 4:3 in 720x480 uses 10:11 pixels.
        CVBufferSetAttachment(
            buffer, kCVImageBufferPixelAspectRatioKey,
            [kCVImageBufferPixelAspectRatioHorizontalSpacingKey: 10, kCVImageBufferPixelAspectRatioVerticalSpacingKey: 11],
            .shouldPropagate)
        #expect(CVImageBufferGetDisplaySize(buffer) == CGSize(width: 640, height: 480))
        CVBufferSetAttachment(
            buffer, kCVImageBufferDisplayDimensionsKey,
            [kCVImageBufferDisplayWidthKey: 854, kCVImageBufferDisplayHeightKey: 480], .shouldPropagate)
        #expect(CVImageBufferGetDisplaySize(buffer) == CGSize(width: 854, height: 480), "explicit display dimensions win")
        #expect(CVImageBufferGetEncodedSize(buffer) == CGSize(width: 720, height: 480))
    }

    @Test("colour tag strings map to their ITU-T H.273 code points and back")
    func codePoints() {
        #expect(CVYCbCrMatrixGetIntegerCodePointForString(kCVImageBufferYCbCrMatrix_ITU_R_709_2) == 1)
        #expect(CVYCbCrMatrixGetIntegerCodePointForString(kCVImageBufferYCbCrMatrix_ITU_R_601_4) == 6)
        #expect(CVYCbCrMatrixGetIntegerCodePointForString(kCVImageBufferYCbCrMatrix_ITU_R_2020) == 9)
        #expect(CVYCbCrMatrixGetIntegerCodePointForString(nil) == 2)
        #expect(CVColorPrimariesGetIntegerCodePointForString(kCVImageBufferColorPrimaries_ITU_R_709_2) == 1)
        #expect(CVColorPrimariesGetIntegerCodePointForString(kCVImageBufferColorPrimaries_P3_D65) == 12)
        #expect(CVColorPrimariesGetIntegerCodePointForString(kCVImageBufferColorPrimaries_ITU_R_2020) == 9)
        #expect(CVTransferFunctionGetIntegerCodePointForString(kCVImageBufferTransferFunction_ITU_R_2100_HLG) == 18)
        #expect(CVTransferFunctionGetIntegerCodePointForString(kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ) == 16)
        #expect(CVTransferFunctionGetIntegerCodePointForString(kCVImageBufferTransferFunction_sRGB) == 13)
        #expect(CVTransferFunctionGetIntegerCodePointForString(kCVImageBufferTransferFunction_UseGamma) == 2)
        #expect(CVYCbCrMatrixGetStringForIntegerCodePoint(5)?.takeUnretainedValue().description == kCVImageBufferYCbCrMatrix_ITU_R_601_4)
        #expect(CVColorPrimariesGetStringForIntegerCodePoint(12)?.takeUnretainedValue().description == kCVImageBufferColorPrimaries_P3_D65)
        #expect(CVTransferFunctionGetStringForIntegerCodePoint(18)?.takeUnretainedValue().description == kCVImageBufferTransferFunction_ITU_R_2100_HLG)
        #expect(CVTransferFunctionGetStringForIntegerCodePoint(15)?.takeUnretainedValue().description == kCVImageBufferTransferFunction_ITU_R_2020)
        #expect(CVYCbCrMatrixGetStringForIntegerCodePoint(0) == nil && CVColorPrimariesGetStringForIntegerCodePoint(2) == nil)
        // Round trip of every code point that has a string.
        for code in Int32(0)...Int32(30) {
            if let string = CVTransferFunctionGetStringForIntegerCodePoint(code)?.takeUnretainedValue().description, ![6, 15].contains(code) {
                #expect(CVTransferFunctionGetIntegerCodePointForString(string) == code)
            }
            if let string = CVColorPrimariesGetStringForIntegerCodePoint(code)?.takeUnretainedValue().description {
                #expect(CVColorPrimariesGetIntegerCodePointForString(string) == code)
            }
        }
    }
}
