import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// One row of CVImageBufferCreateColorSpaceFromAttachments's table.
struct ColorTagCase: CustomTestStringConvertible, Sendable {
    let primaries: String
    let transfer: String
    let space: String?
    var testDescription: String { "\(primaries) + \(transfer) → \(space ?? "nil")" }
}

/// Hands over the colour space the first frame's attachments describe.
private final class ColorSpaceGrabber: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.colorSpace")
    let name = Completion<String>("a frame's colour space")

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return name.fulfil("no pixel buffer") }
        guard let attachments = CVBufferCopyAttachments(pixelBuffer, .shouldPropagate) else { return name.fulfil("no attachments") }
        let space = CVImageBufferCreateColorSpaceFromAttachments(attachments)?.takeRetainedValue()
        name.fulfil(space?.name ?? "none: \(attachments)")
    }
}

@Suite("Colour spaces from buffer attachments", .serialized)
struct ColorSpaceAttachmentsTests {
    static let table: [ColorTagCase] = [
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_709_2, transfer: kCVImageBufferTransferFunction_sRGB, space: CGColorSpace.sRGB),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_709_2, transfer: kCVImageBufferTransferFunction_ITU_R_709_2, space: CGColorSpace.itur_709),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_709_2, transfer: kCVImageBufferTransferFunction_ITU_R_2020, space: CGColorSpace.itur_709),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_709_2, transfer: kCVImageBufferTransferFunction_Linear, space: CGColorSpace.linearSRGB),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_709_2, transfer: kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ, space: CGColorSpace.itur_709_PQ),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_709_2, transfer: kCVImageBufferTransferFunction_ITU_R_2100_HLG, space: CGColorSpace.itur_709_HLG),
        .init(primaries: kCVImageBufferColorPrimaries_P3_D65, transfer: kCVImageBufferTransferFunction_sRGB, space: CGColorSpace.displayP3),
        .init(primaries: kCVImageBufferColorPrimaries_P3_D65, transfer: kCVImageBufferTransferFunction_ITU_R_709_2, space: CGColorSpace.displayP3),
        .init(primaries: kCVImageBufferColorPrimaries_P3_D65, transfer: kCVImageBufferTransferFunction_Linear, space: CGColorSpace.linearDisplayP3),
        .init(primaries: kCVImageBufferColorPrimaries_P3_D65, transfer: kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ, space: CGColorSpace.displayP3_PQ),
        .init(primaries: kCVImageBufferColorPrimaries_P3_D65, transfer: kCVImageBufferTransferFunction_ITU_R_2100_HLG, space: CGColorSpace.displayP3_HLG),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_2020, transfer: kCVImageBufferTransferFunction_ITU_R_709_2, space: CGColorSpace.itur_2020),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_2020, transfer: kCVImageBufferTransferFunction_ITU_R_2020, space: CGColorSpace.itur_2020),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_2020, transfer: kCVImageBufferTransferFunction_sRGB, space: CGColorSpace.itur_2020_sRGBGamma),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_2020, transfer: kCVImageBufferTransferFunction_Linear, space: CGColorSpace.linearITUR_2020),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_2020, transfer: kCVImageBufferTransferFunction_ITU_R_2100_HLG, space: CGColorSpace.itur_2100_HLG),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_2020, transfer: kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ, space: CGColorSpace.itur_2100_PQ),
        // Pairs that name no system space.
        .init(primaries: kCVImageBufferColorPrimaries_EBU_3213, transfer: kCVImageBufferTransferFunction_ITU_R_709_2, space: nil),
        .init(primaries: kCVImageBufferColorPrimaries_SMPTE_C, transfer: kCVImageBufferTransferFunction_ITU_R_709_2, space: nil),
        .init(primaries: kCVImageBufferColorPrimaries_ITU_R_709_2, transfer: kCVImageBufferTransferFunction_SMPTE_240M_1995, space: nil),
        .init(primaries: kCVImageBufferColorPrimaries_DCI_P3, transfer: kCVImageBufferTransferFunction_sRGB, space: nil),
    ]

    static func name(_ attachments: [String: Any]) -> String? {
        CVImageBufferCreateColorSpaceFromAttachments(attachments)?.takeRetainedValue().name
    }

    @Test("primaries and transfer function name the space", arguments: table)
    func tagTable(_ row: ColorTagCase) {
        let attachments: [String: Any] = [kCVImageBufferColorPrimariesKey: row.primaries, kCVImageBufferTransferFunctionKey: row.transfer]
        #expect(Self.name(attachments) == row.space)
    }

    @Test("the Y'CbCr matrix does not change the space, and is not needed (V4L2's BT.601 frames are sRGB)")
    func matrixIgnored() {
        for matrix in [kCVImageBufferYCbCrMatrix_ITU_R_709_2, kCVImageBufferYCbCrMatrix_ITU_R_601_4, nil] {
            var attachments: [String: Any] = [
                kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_ITU_R_709_2,
                kCVImageBufferTransferFunctionKey: kCVImageBufferTransferFunction_sRGB,
            ]
            attachments[kCVImageBufferYCbCrMatrixKey] = matrix
            #expect(Self.name(attachments) == CGColorSpace.sRGB, "\(matrix ?? "no matrix")")
        }
    }

    @Test("without primaries or a transfer function there is no space; an ICC profile alone is not read")
    func incompleteTags() {
        #expect(Self.name([:]) == nil)
        #expect(Self.name([kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_P3_D65]) == nil)
        #expect(Self.name([kCVImageBufferTransferFunctionKey: kCVImageBufferTransferFunction_sRGB]) == nil)
        #expect(Self.name([kCVImageBufferICCProfileKey: Data(count: 128) as NSData]) == nil)
        #expect(Self.name([kCVImageBufferColorPrimariesKey: 12, kCVImageBufferTransferFunctionKey: 13]) == nil, "code points are not tags")
    }

    @Test("DCI-P3 primaries with gamma 2.6 are DCI-P3; another gamma names nothing")
    func dciGamma() {
        func name(gamma: Any?) -> String? {
            var attachments: [String: Any] = [
                kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_DCI_P3,
                kCVImageBufferTransferFunctionKey: kCVImageBufferTransferFunction_UseGamma,
            ]
            attachments[kCVImageBufferGammaLevelKey] = gamma
            return Self.name(attachments)
        }
        #expect(name(gamma: 2.6) == CGColorSpace.dcip3)
        #expect(name(gamma: NSNumber(value: 2.6)) == CGColorSpace.dcip3)
        #expect(name(gamma: 2.2) == nil)
        #expect(name(gamma: nil) == nil)
    }

    @Test("tags given as NSStrings are read")
    func nsStringTags() {
        let attachments: [String: Any] = [
            kCVImageBufferColorPrimariesKey: NSString(string: kCVImageBufferColorPrimaries_P3_D65),
            kCVImageBufferTransferFunctionKey: NSString(string: kCVImageBufferTransferFunction_sRGB),
        ]
        #expect(Self.name(attachments) == CGColorSpace.displayP3)
    }

    @Test("the result is retained for the caller: taking it leaves a live space")
    func retainedResult() throws {
        let unmanaged = try #require(CVImageBufferCreateColorSpaceFromAttachments([
            kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_ITU_R_2020,
            kCVImageBufferTransferFunctionKey: kCVImageBufferTransferFunction_ITU_R_2100_HLG,
        ]))
        weak var weakSpace: CGColorSpace?
        do {
            let space = unmanaged.takeRetainedValue()
            weakSpace = space
            #expect(space.isHDR() && CGColorSpaceIsHLGBased(space) && !CGColorSpaceIsPQBased(space) && space.isWideGamutRGB)
        }
        #expect(weakSpace == nil, "takeRetainedValue balanced the retain")
    }

    /// The colour space of the first frame the camera delivers in `colorSpace`.
    private func cameraSpace(_ colorSpace: AVCaptureColorSpace) throws -> String {
        let tenBit = colorSpace == .HLG_BT2020
        let rig = try TestRig(preset: tenBit ? .hd1920x1080 : .hd1280x720, pixelFormat: kCVPixelFormatType_32BGRA)
        defer {
            rig.stop()
            rig.device.core.format.colorSpace = 0
            if tenBit {
                try? rig.device.lockForConfiguration()
                if let format = rig.device.formats.first(where: { $0.formatDescription.dimensions.width == 1280 && !$0.isVideoBinned }) {
                    try? rig.device.setActiveFormat(format)
                }
                rig.device.unlockForConfiguration()
            }
        }
        rig.session.automaticallyConfiguresCaptureDeviceForWideColor = false
        try rig.device.lockForConfiguration()
        if tenBit {
            let format = try #require(rig.device.formats.first {
                $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange
                    && $0.formatDescription.dimensions.width == 1920
            })
            try rig.device.setActiveFormat(format)
        }
        try rig.device.setActiveColorSpace(colorSpace)
        rig.device.unlockForConfiguration()
        if tenBit {
            rig.output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange]
        }
        let grabber = ColorSpaceGrabber()
        rig.output.setSampleBufferDelegate(grabber, queue: grabber.queue)
        rig.session.startRunning()
        return try withExtendedLifetime(grabber) { try grabber.name.wait(within: .seconds(20)) }
    }

    /// One camera, so the three colour spaces run one after another.
    @Test("a simulated camera's frames give its colour space: sRGB, Display P3, BT.2100 HLG")
    func cameraFrames() throws {
        let cases = [(AVCaptureColorSpace.sRGB, CGColorSpace.sRGB), (.P3_D65, CGColorSpace.displayP3), (.HLG_BT2020, CGColorSpace.itur_2100_HLG)]
        for (colorSpace, expected) in cases {
            #expect(try cameraSpace(colorSpace) == expected, "\(colorSpace)")
        }
    }

    @Test("photo CGImages report sRGB, the space stills are in")
    func photoImages() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        for format in [[AVVideoCodecKey: AVVideoCodecType.jpeg], [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange]] as [[String: Any]] {
            let (photo, _) = try rig.take(PhotoCodecTests.settings(format))
            let image = try #require(photo?.cgImageRepresentation())
            #expect(image.colorSpace?.name == CGColorSpace.sRGB)
        }
    }
}
