// AVCaptureDepthDataOutput.h and AVDepthData.h's members capture code reads (iOS 18 SDK).
// No camera here has depth formats, so the output is never added, as on a phone without
// a depth camera.
import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

final class DepthSpellingDelegate: NSObject, AVCaptureDepthDataOutputDelegate {
    func depthDataOutput(_ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime, connection: AVCaptureConnection) {
        let map: CVPixelBuffer = depthData.depthDataMap
        let type: OSType = depthData.depthDataType
        let filtered: Bool = depthData.isDepthDataFiltered
        let accuracy: AVDepthData.Accuracy = depthData.depthDataAccuracy
        let quality: AVDepthData.Quality = depthData.depthDataQuality
        let types: [NSNumber] = depthData.availableDepthDataTypes
        _ = (map, type, filtered, accuracy, quality, types, [AVDepthData.Accuracy.relative, .absolute], [AVDepthData.Quality.low, .high])
    }

    func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didDrop depthData: AVDepthData, timestamp: CMTime, connection: AVCaptureConnection,
        reason: AVCaptureOutput.DataDroppedReason
    ) {}
}

/// Touches every declaration of AVCaptureDepthDataOutput.h; compiled, never called.
func spellAVCaptureDepthDataOutput(_ delegate: DepthSpellingDelegate) {
    let output = AVCaptureDepthDataOutput()
    output.setDelegate(delegate, callbackQueue: DispatchQueue(label: "depth"))
    let current: (any AVCaptureDepthDataOutputDelegate)? = output.delegate
    let queue: DispatchQueue? = output.delegateCallbackQueue
    output.alwaysDiscardsLateDepthData = false
    output.isFilteringEnabled = false
    let flags: (Bool, Bool) = (output.alwaysDiscardsLateDepthData, output.isFilteringEnabled)
    let types: [OSType] = [kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat16]
    _ = (current, queue, flags, types)
}

@Suite("AVCaptureDepthDataOutput spelling", .serialized)
struct AVCaptureDepthDataOutputSpellingTests {
    @Test("a session with a camera without depth formats cannot add a depth output; settings keep their values")
    func notAddable() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(device.formats.allSatisfy { $0.supportedDepthDataFormats.isEmpty })
        let session = AVCaptureSession()
        let input = try AVCaptureDeviceInput(device: device)
        session.addInput(input)
        let output = AVCaptureDepthDataOutput()
        #expect(!session.canAddOutput(output))
        #expect(output.alwaysDiscardsLateDepthData && output.isFilteringEnabled)
        output.isFilteringEnabled = false
        #expect(!output.isFilteringEnabled)
        let delegate = DepthSpellingDelegate()
        let queue = DispatchQueue(label: "depth")
        output.setDelegate(delegate, callbackQueue: queue)
        #expect(output.delegate === delegate && output.delegateCallbackQueue === queue)
        output.setDelegate(nil, callbackQueue: nil)
        #expect(output.delegate == nil && output.delegateCallbackQueue == nil)
    }
}
