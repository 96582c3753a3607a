// CGColorSpace.h (the parts capture code uses), CGColor's colour space members, CGImage's
// colorSpace and CVImageBuffer.h's CVImageBufferCreateColorSpaceFromAttachments, spelled as
// iOS code spells them. The name constants are CFStrings on iOS, Strings here.
import CoreVideo
import Foundation
import QuartzCore
import Testing

/// Touches the colour space declarations; compiled, never called.
func spellCGColorSpace(_ pixelBuffer: CVPixelBuffer, image: CGImage) {
    let names: [String] = [
        CGColorSpace.sRGB, CGColorSpace.linearSRGB, CGColorSpace.extendedSRGB, CGColorSpace.extendedLinearSRGB,
        CGColorSpace.itur_709, CGColorSpace.itur_709_PQ, CGColorSpace.itur_709_HLG, CGColorSpace.coreMedia709,
        CGColorSpace.genericRGBLinear, CGColorSpace.displayP3, CGColorSpace.linearDisplayP3, CGColorSpace.extendedDisplayP3,
        CGColorSpace.extendedLinearDisplayP3, CGColorSpace.displayP3_PQ, CGColorSpace.displayP3_HLG, CGColorSpace.dcip3,
        CGColorSpace.itur_2020, CGColorSpace.itur_2020_sRGBGamma, CGColorSpace.linearITUR_2020, CGColorSpace.extendedITUR_2020,
        CGColorSpace.extendedLinearITUR_2020, CGColorSpace.itur_2100_PQ, CGColorSpace.itur_2100_HLG, CGColorSpace.adobeRGB1998,
        CGColorSpace.rommrgb, CGColorSpace.acescgLinear, CGColorSpace.genericGrayGamma2_2, CGColorSpace.linearGray,
        CGColorSpace.extendedGray, CGColorSpace.extendedLinearGray, CGColorSpace.genericCMYK, CGColorSpace.genericXYZ,
        CGColorSpace.genericLab,
    ]
    let named: CGColorSpace? = CGColorSpace(name: CGColorSpace.sRGB)
    let device: (CGColorSpace, CGColorSpace) = (CGColorSpaceCreateDeviceRGB(), CGColorSpaceCreateDeviceGray())
    let space = device.0
    let facts: (String?, CGColorSpaceModel, Int, Bool, Bool, Bool) = (
        space.name, space.model, space.numberOfComponents, space.isWideGamutRGB, space.supportsOutput, space.isHDR())
    let transfer: (Bool, Bool, Bool, Bool) = (
        CGColorSpaceUsesITUR_2100TF(space), CGColorSpaceIsPQBased(space), CGColorSpaceIsHLGBased(space),
        CGColorSpaceUsesExtendedRange(space))
    let models: [CGColorSpaceModel] = [.unknown, .monochrome, .rgb, .cmyk, .lab, .deviceN, .indexed, .pattern, .XYZ]
    let raw: Int32 = CGColorSpaceModel.rgb.rawValue
    let colors: (CGColor?, CGColor, CGColor, CGColor, CGColor) = (
        CGColor(colorSpace: space, components: [1, 0, 0, 1]), CGColor(red: 1, green: 0, blue: 0, alpha: 1),
        CGColor(srgbRed: 1, green: 0, blue: 0, alpha: 1), CGColor(gray: 0.5, alpha: 1), CGColor(genericGrayGamma2_2Gray: 0.5, alpha: 1))
    let colorSpace: CGColorSpace? = colors.1.colorSpace
    let imageSpace: CGColorSpace? = image.colorSpace
    let fromBuffer: Unmanaged<CGColorSpace>? = CVImageBufferCreateColorSpaceFromAttachments(
        CVBufferCopyAttachments(pixelBuffer, .shouldPropagate)!)
    let retained: CGColorSpace? = fromBuffer?.takeRetainedValue()
    _ = (names, named, facts, transfer, models, raw, colors, colorSpace, imageSpace, retained)
}

@Suite("CGColorSpace spelling")
struct CGColorSpaceSpellingTests {
    @Test("named spaces report their name, model and components; unknown names give nil")
    func namedSpaces() throws {
        let srgb = try #require(CGColorSpace(name: CGColorSpace.sRGB))
        #expect(srgb.name == CGColorSpace.sRGB && srgb.name == "kCGColorSpaceSRGB")
        #expect(srgb.model == .rgb && srgb.numberOfComponents == 3 && !srgb.isWideGamutRGB && srgb.supportsOutput && !srgb.isHDR())
        let gray = try #require(CGColorSpace(name: CGColorSpace.genericGrayGamma2_2))
        #expect(gray.model == .monochrome && gray.numberOfComponents == 1)
        #expect(CGColorSpace(name: CGColorSpace.genericCMYK)?.numberOfComponents == 4)
        #expect(CGColorSpace(name: "kCGColorSpaceNoSuchSpace") == nil)
        #expect(CGColorSpace(name: CGColorSpace.displayP3)?.isWideGamutRGB == true)
        #expect(CGColorSpaceUsesITUR_2100TF(try #require(CGColorSpace(name: CGColorSpace.itur_2100_HLG))))
    }

    @Test("device spaces have Core Graphics' device names")
    func deviceSpaces() {
        #expect(CGColorSpaceCreateDeviceRGB().name == "kCGColorSpaceDeviceRGB")
        #expect(CGColorSpaceCreateDeviceRGB().model == .rgb)
        #expect(CGColorSpaceCreateDeviceGray().name == "kCGColorSpaceDeviceGray")
        #expect(CGColorSpaceCreateDeviceGray().numberOfComponents == 1)
    }

    @Test("colours know their space; CGColor(colorSpace:components:) reads components plus alpha")
    func colours() throws {
        #expect(CGColor(red: 1, green: 0, blue: 0, alpha: 1).colorSpace?.name == CGColorSpace.sRGB)
        #expect(CGColor(gray: 0.5, alpha: 1).colorSpace?.name == CGColorSpace.genericGrayGamma2_2)
        let p3 = try #require(CGColorSpace(name: CGColorSpace.displayP3))
        let color = try #require(CGColor(colorSpace: p3, components: [1, 0, 0, 0.5]))
        #expect(color.colorSpace == p3 && color.components == [1, 0, 0, 0.5] && color.alpha == 0.5)
        #expect(color.copy(alpha: 1)?.colorSpace == p3)
        #expect(color != CGColor(red: 1, green: 0, blue: 0, alpha: 0.5), "same components, another space")
    }

    @Test("a camera buffer's attachments give its colour space")
    func fromAttachments() throws {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &buffer)
        let pixelBuffer = try #require(buffer)
        CVBufferSetAttachment(pixelBuffer, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_P3_D65, .shouldPropagate)
        CVBufferSetAttachment(pixelBuffer, kCVImageBufferTransferFunctionKey, kCVImageBufferTransferFunction_sRGB, .shouldPropagate)
        CVBufferSetAttachment(pixelBuffer, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_709_2, .shouldPropagate)
        let space = CVImageBufferCreateColorSpaceFromAttachments(CVBufferCopyAttachments(pixelBuffer, .shouldPropagate)!)?.takeRetainedValue()
        #expect(space?.name == CGColorSpace.displayP3)
        #expect(CVImageBufferCreateColorSpaceFromAttachments([:]) == nil)
    }
}
