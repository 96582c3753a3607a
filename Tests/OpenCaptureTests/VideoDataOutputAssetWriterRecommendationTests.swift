import Foundation
import Testing

@testable import OpenCapture

/// iOS 26's asset-writer recommendations of AVCaptureVideoDataOutput.
@Suite("Video data output asset-writer recommendations (iOS 26)", .serialized)
struct VideoDataOutputAssetWriterRecommendationTests {
    static func connected(_ uniqueID: String = "sim:back-wide") throws -> (AVCaptureSession, AVCaptureVideoDataOutput, AVCaptureDevice) {
        let session = AVCaptureSession()
        let camera = try #require(AVCaptureDevice(uniqueID: uniqueID))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        session.addOutput(output)
        return (session, output, camera)
    }

    @Test("the media time scale: 600 at 30 fps; every frame duration a whole number of ticks")
    func mediaTimeScale() throws {
        #expect(AVCaptureVideoDataOutput().recommendedMediaTimeScaleForAssetWriter == 600, "no camera: the floor")
        let (session, output, camera) = try Self.connected()
        defer { withExtendedLifetime(session) {} }  // the session owns the connection
        if camera.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30) {
            #expect(output.recommendedMediaTimeScaleForAssetWriter == 600)
        }
        // Other frame rates on a camera few tests use, restored at the end.
        let (teleSession, teleOutput, tele) = try Self.connected("sim:back-tele")
        defer {
            withExtendedLifetime(teleSession) {}
            try? tele.lockForConfiguration()
            tele.activeVideoMinFrameDuration = .invalid
            tele.activeVideoMaxFrameDuration = .invalid
            tele.unlockForConfiguration()
        }
        let rates = tele.activeFormat.videoSupportedFrameRateRanges
        for duration in [CMTime(value: 1, timescale: 24), CMTime(value: 1001, timescale: 30000), CMTime(value: 1, timescale: 15)]
        where rates.contains(where: { $0.minFrameDuration <= duration && duration <= $0.maxFrameDuration }) {
            try tele.lockForConfiguration()
            tele.activeVideoMinFrameDuration = duration
            tele.activeVideoMaxFrameDuration = duration
            tele.unlockForConfiguration()
            let scale = teleOutput.recommendedMediaTimeScaleForAssetWriter
            #expect(scale >= 600 && scale % 600 == 0)
            let active = tele.activeVideoMinFrameDuration  // what the camera made of the request
            let ticks = Double(scale) * Double(active.value) / Double(active.timescale)
            #expect(abs(ticks - ticks.rounded()) < 1e-6, "\(active) at \(scale)")
        }
    }

    @Test("movie metadata: the make, model and software a movie file output writes, for writable types")
    func movieMetadata() throws {
        #expect(AVCaptureVideoDataOutput().recommendedMovieMetadata(forVideoCodecType: .h264, assetWriterOutputFileType: .mov) == nil)
        let (session, output, camera) = try Self.connected()
        defer { withExtendedLifetime(session) {} }
        let items = try #require(output.recommendedMovieMetadata(forVideoCodecType: .h264, assetWriterOutputFileType: .mov))
        let byIdentifier = Dictionary(uniqueKeysWithValues: items.compactMap { item in item.identifier.map { ($0, item.stringValue) } })
        #expect(byIdentifier[.quickTimeMetadataMake] == camera.manufacturer)
        #expect(byIdentifier[.quickTimeMetadataModel] == camera.modelID)
        #expect(byIdentifier[.quickTimeMetadataSoftware] == "OpenCapture")
        #expect(output.recommendedMovieMetadata(forVideoCodecType: .h264, assetWriterOutputFileType: .mp4)?.count == 3)
        #expect(output.recommendedMovieMetadata(forVideoCodecType: .h264, assetWriterOutputFileType: .m4a) == nil)
        #expect(output.recommendedMovieMetadata(forVideoCodecType: .proRes422, assetWriterOutputFileType: .mov) == nil)
    }

    @Test("preservesDynamicHDRMetadata is stored, default false")
    func preservesDynamicHDRMetadata() {
        let output = AVCaptureVideoDataOutput()
        #expect(!output.preservesDynamicHDRMetadata)
        output.preservesDynamicHDRMetadata = true
        #expect(output.preservesDynamicHDRMetadata)
    }
}
