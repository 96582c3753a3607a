import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// The deprecated still image output on the photo pipeline, at CIF size.
@Suite("AVCaptureStillImageOutput", .serialized)
struct StillImageOutputTests {
    /// A running session with a still image output (and a frame output to know it streams).
    static func rig() throws -> (TestRig, AVCaptureStillImageOutput) {
        let rig = try TestRig(uniqueID: "sim:back-wide", preset: .cif352x288)
        let still = AVCaptureStillImageOutput()
        #expect(rig.session.canAddOutput(still))
        rig.session.addOutput(still)
        #expect(!rig.session.canAddOutput(AVCapturePhotoOutput()), "one still output per session")
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        rig.collector.delay = 0.05
        return (rig, still)
    }

    static func take(_ still: AVCaptureStillImageOutput) throws -> CMSampleBuffer {
        let connection = try #require(still.connection(with: .video))
        let result = Completion<UncheckedSendable<CMSampleBuffer?>>("the still image")
        still.captureStillImageAsynchronously(from: connection) { buffer, error in
            #expect(error == nil)
            result.fulfil(UncheckedSendable(buffer))
        }
        #expect(still.isCapturingStillImage)
        return try #require(try result.wait().value)
    }

    @Test("a JPEG sample buffer at the format's size, its bytes from jpegStillImageNSDataRepresentation; isCapturingStillImage notifies")
    func jpegStill() throws {
        let (rig, still) = try Self.rig()
        defer { rig.stop() }
        #expect(still.availableImageDataCodecTypes == [.jpeg])
        #expect(still.outputSettings[AVVideoCodecKey] as? AVVideoCodecType == .jpeg)
        let observed = KVORecorder()
        let observation = still.observe(\.isCapturingStillImage, options: [.new]) { _, change in observed.record(change) }
        defer { observation.invalidate() }
        let buffer = try Self.take(still)
        #expect(CMSampleBufferGetImageBuffer(buffer) == nil)
        let data = try #require(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(buffer))
        #expect(data.prefix(2) == Data([0xFF, 0xD8]))
        let frame = try #require(Self.frameSize(data))
        #expect(frame.width == 352 && frame.height == 288)
        #expect(data.range(of: Data("Exif".utf8)) != nil, "the JPEG carries EXIF")
        #expect(CMSampleBufferGetFormatDescription(buffer)?.dimensions.width == 352)
        eventually("the capture ended") { !still.isCapturingStillImage }
        eventually("observers heard both edges") { observed.calls.compactMap(\.new) == ["true", "false"] }
    }

    /// The size in a JPEG's baseline or progressive frame header.
    static func frameSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xC0 || marker == 0xC2 {
                return (Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]), Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]))
            }
            index += 2 + length
        }
        return nil
    }

    @Test("uncompressed output settings give a pixel buffer; bad settings and connections raise")
    func uncompressedAndBadInput() throws {
        let (rig, still) = try Self.rig()
        defer { rig.stop() }
        let bgra = kCVPixelFormatType_32BGRA
        #expect(still.availableImageDataCVPixelFormatTypes.contains(NSNumber(value: bgra)))
        try still.setOutputSettingsChecked([kCVPixelBufferPixelFormatTypeKey as String: bgra])
        let buffer = try Self.take(still)
        let pixels = try #require(CMSampleBufferGetImageBuffer(buffer))
        #expect(CVPixelBufferGetPixelFormatType(pixels) == bgra && CVPixelBufferGetWidth(pixels) == 352)
        #expect(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(buffer) == nil)
        for bad: [String: Any] in [[AVVideoCodecKey: AVVideoCodecType.hevc], [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_DepthFloat32]] {
            let thrown = #expect(throws: AVCaptureException.self) { try still.setOutputSettingsChecked(bad) }
            #expect(thrown?.reason.hasPrefix("*** -[AVCaptureStillImageOutput setOutputSettings:]") == true)
        }
        let foreign = try #require(rig.output.connection(with: .video))
        let thrown = #expect(throws: AVCaptureException.self) { try still.captureStillImageChecked(from: foreign) { _, _ in } }
        #expect(thrown?.reason.contains("Inactive/invalid connection passed.") == true)
    }
}
