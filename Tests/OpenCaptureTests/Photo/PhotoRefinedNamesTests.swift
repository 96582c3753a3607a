import Foundation
import Testing

@testable import OpenCapture

/// The NS_REFINED_FOR_SWIFT originals and the iOS 26 sensor orientation compensation.
@Suite("Photo output refined-for-Swift names and sensor orientation compensation", .serialized)
struct PhotoRefinedNamesTests {
    @Test("the underscored names answer the refined properties' values as numbers")
    func underscoredNames() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 1)
        defer { rig.stop() }
        let output = rig.photoOutput
        #expect(output.__supportedFlashModes.map(\.intValue) == output.supportedFlashModes.map(\.rawValue))
        #expect(output.__supportedFlashModes == [0, 1, 2].map { NSNumber(value: $0) })
        #expect(output.__availablePhotoPixelFormatTypes.map(\.uint32Value) == output.availablePhotoPixelFormatTypes)
        #expect(output.__availablePhotoPixelFormatTypes.contains(NSNumber(value: kCVPixelFormatType_32BGRA)))
        #expect(output.__availableRawPhotoPixelFormatTypes.map(\.uint32Value) == [kCVPixelFormatType_14Bayer_RGGB])
        #expect(output.__supportedRawPhotoPixelFormatTypes(for: .dng).map(\.uint32Value) == [kCVPixelFormatType_14Bayer_RGGB])
        #expect(output.__supportedRawPhotoPixelFormatTypes(for: .jpg).isEmpty)
        #expect(output.__supportedPhotoPixelFormatTypes(for: .tif).isEmpty)
        let settings = AVCapturePhotoSettings()
        #expect(settings.__availablePreviewPhotoPixelFormatTypes.map(\.uint32Value) == settings.availablePreviewPhotoPixelFormatTypes)
        #expect(!settings.__availablePreviewPhotoPixelFormatTypes.isEmpty)
        // NextLevel's use: the first preview format as the settings' preview format.
        let first = try #require(settings.__availablePreviewPhotoPixelFormatTypes.first)
        settings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: first]
        #expect(settings.previewPhotoFormat != nil)
    }

    @Test("without a camera: off only, no raw formats")
    func unconnected() {
        let output = AVCapturePhotoOutput()
        #expect(output.__supportedFlashModes == [NSNumber(value: 0)])
        #expect(output.__availableRawPhotoPixelFormatTypes.isEmpty)
    }

    @Test("sensor orientation compensation is unsupported and off; turning it off is allowed")
    func sensorOrientationCompensation() {
        let output = AVCapturePhotoOutput()
        #expect(!output.isCameraSensorOrientationCompensationSupported)
        #expect(!output.isCameraSensorOrientationCompensationEnabled)
        output.isCameraSensorOrientationCompensationEnabled = false
        #expect(!output.isCameraSensorOrientationCompensationEnabled)
    }

    @Test func enablingSensorOrientationCompensationEndsTheProcess() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().isCameraSensorOrientationCompensationEnabled = true
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "'NSInvalidArgumentException', reason: '*** -[AVCapturePhotoOutput setCameraSensorOrientationCompensationEnabled:] cameraSensorOrientationCompensationSupported is NO'"))
    }
}
