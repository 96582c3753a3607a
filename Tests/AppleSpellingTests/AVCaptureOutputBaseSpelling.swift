// AVCaptureOutputBase.h (iOS 18 SDK, with iOS 26's deferred start), spelled as iOS code
// spells it.
import AVFoundation
import Foundation
import Testing

/// Touches every declaration of AVCaptureOutputBase.h; compiled, never called.
func spellAVCaptureOutputBase(_ output: AVCaptureOutput, _ object: AVMetadataObject, _ connection: AVCaptureConnection) {
    let transformed: AVMetadataObject? = output.transformedMetadataObject(for: object, connection: connection)
    _ = transformed
    let connections: [AVCaptureConnection] = output.connections
    let video: AVCaptureConnection? = output.connection(with: .video)
    let toMetadata: CGRect = output.metadataOutputRectConverted(fromOutputRect: CGRect(x: 0, y: 0, width: 10, height: 10))
    let fromMetadata: CGRect = output.outputRectConverted(fromMetadataOutputRect: CGRect(x: 0, y: 0, width: 1, height: 1))
    let reasons: [AVCaptureOutput.DataDroppedReason] = [.none, .lateData, .outOfBuffers, .discontinuity]
    let raw: Int = AVCaptureOutput.DataDroppedReason.lateData.rawValue
    let deferredSupported: Bool = output.isDeferredStartSupported
    output.isDeferredStartEnabled = false
    let deferred: Bool = output.isDeferredStartEnabled
    _ = (connections, video, toMetadata, fromMetadata, reasons, raw, deferredSupported, deferred)
}

@Suite("AVCaptureOutputBase spelling")
struct AVCaptureOutputBaseSpellingTests {
    @Test("an output not in a session has no connections and converts rectangles unchanged")
    func unconnectedOutput() {
        let output = AVCaptureVideoDataOutput()
        #expect(output.connections.isEmpty)
        #expect(output.connection(with: .video) == nil)
        let rect = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        #expect(output.metadataOutputRectConverted(fromOutputRect: rect) == rect)
        #expect(output.outputRectConverted(fromMetadataOutputRect: rect) == rect)
        #expect(AVCaptureOutput.DataDroppedReason(rawValue: 2) == .outOfBuffers)
    }

    @Test("deferred start: video data outputs support it and default to off; photo and movie outputs do not support it")
    func deferredStartSupport() {
        let video = AVCaptureVideoDataOutput()
        #expect(video.isDeferredStartSupported && !video.isDeferredStartEnabled)
        video.isDeferredStartEnabled = true
        #expect(video.isDeferredStartEnabled)
        #expect(!AVCapturePhotoOutput().isDeferredStartSupported && !AVCapturePhotoOutput().isDeferredStartEnabled)
        #expect(!AVCaptureMovieFileOutput().isDeferredStartSupported && !AVCaptureMovieFileOutput().isDeferredStartEnabled)
        let photo = AVCapturePhotoOutput()
        photo.isDeferredStartEnabled = false  // the value it has: allowed
        #expect(throws: AVCaptureException.self) { try photo.setDeferredStartEnabled(true) }
    }
}
