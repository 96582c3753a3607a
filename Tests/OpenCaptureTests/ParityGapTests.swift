import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// The declarations the header walk found missing (docs/parity-gaps.md), outside the photo
/// output: what they do, or Apple's answer for hardware without them.
@Suite("Header parity gaps", .serialized)
struct ParityGapTests {
    @Test("microphone modes read .standard; devices have no depth format or depth frame duration")
    func microphoneAndDepth() throws {
        #expect(AVCaptureDevice.preferredMicrophoneMode == .standard)
        #expect(AVCaptureDevice.activeMicrophoneMode == .standard)
        #expect(AVCaptureDevice.MicrophoneMode(rawValue: 2) == .voiceIsolation)
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(device.activeDepthDataFormat == nil)
        #expect(!device.activeDepthDataMinFrameDuration.isValid)
        try device.lockForConfiguration()
        device.activeDepthDataFormat = nil
        device.activeDepthDataMinFrameDuration = .invalid
        device.unlockForConfiguration()
        #expect(throws: AVCaptureException.self) { try device.setActiveDepthDataFormat(nil) }  // no lock
    }

    @Test("videoScaleAndCropFactor: up to 16 on a still image output's connection, 1 elsewhere; intrinsics unsupported")
    func connectionFactors() throws {
        let (rig, still) = try StillImageOutputTests.rig()
        defer { rig.stop() }
        let connection = try #require(still.connection(with: .video))
        #expect(connection.videoMaxScaleAndCropFactor == 16)
        #expect(connection.videoScaleAndCropFactor == 1)
        #expect(rig.connection.videoMaxScaleAndCropFactor == 1)
        #expect(throws: AVCaptureException.self) { try rig.connection.setVideoScaleAndCropFactor(2) }
        #expect(throws: AVCaptureException.self) { try connection.setVideoScaleAndCropFactor(0.5) }
        #expect(!rig.connection.isCameraIntrinsicMatrixDeliverySupported && !rig.connection.isCameraIntrinsicMatrixDeliveryEnabled)
        rig.connection.isCameraIntrinsicMatrixDeliveryEnabled = false
    }

    @Test("a still at scale-and-crop factor 2 is the centre half of the picture, scaled up to full size")
    func scaleAndCropStill() throws {
        let (rig, still) = try StillImageOutputTests.rig()
        defer { rig.stop() }
        try rig.device.simulation?.setScene(.chart)
        defer { try? rig.device.simulation?.setScene(.chart) }
        still.outputSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        let connection = try #require(still.connection(with: .video))
        let whole = try #require(CMSampleBufferGetImageBuffer(try StillImageOutputTests.take(still)))
        connection.videoScaleAndCropFactor = 2
        let cropped = try #require(CMSampleBufferGetImageBuffer(try StillImageOutputTests.take(still)))
        #expect(cropped.width == whole.width && cropped.height == whole.height, "cropped back to the still's size")
        // Pixel (x, y) of the cropped still shows what (0.5 + (x - 0.5) / 2, ...) of the whole one does.
        var matched = 0.0, unmatched = 0.0, count = 0.0
        for i in 1..<12 {
            for j in 1..<12 {
                let x = Double(i) / 12, y = Double(j) / 12
                let c = bgraPixel(cropped, x: x, y: y)
                let w = bgraPixel(whole, x: 0.5 + (x - 0.5) / 2, y: 0.5 + (y - 0.5) / 2)
                let same = bgraPixel(whole, x: x, y: y)
                matched += Double(abs(c.r - w.r) + abs(c.g - w.g) + abs(c.b - w.b)) / 3
                unmatched += Double(abs(c.r - same.r) + abs(c.g - same.g) + abs(c.b - same.b)) / 3
                count += 1
            }
        }
        #expect(matched / count < 12, "mean difference \(matched / count) against the centre of the whole still")
        #expect(unmatched / count > 2 * (matched / count), "\(unmatched / count) against the same place: the picture changed")
    }

    @Test("the movie output's metadata is written into the file: ffprobe shows title, location and creation time")
    func movieMetadata() throws {
        let output = AVCaptureMovieFileOutput()
        #expect(output.metadata == nil)
        let items = [
            AssetWriterTests.item(.commonKeyTitle, "Parity movie" as NSString),
            AssetWriterTests.item(.commonKeyLocation, "+48.8577+002.2950/" as NSString),
            AssetWriterTests.item(.commonKeyMake, "OpenCapture" as NSString),
            AssetWriterTests.item(.commonKeyCreationDate, Date(timeIntervalSince1970: 1_700_000_000) as NSDate),
        ]
        output.metadata = items
        #expect(output.metadata?.count == 4)
        let rig = try MovieFileOutputTests.rig(output)
        defer { rig.stop() }
        let url = MovieFileOutputTests.temporaryURL("metadata.mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        _ = try rig.collector.waitForFrames(rig.collector.frameCount + 10)
        output.stopRecording()
        try delegate.wait()
        #expect(delegate.error == nil)
        let tags = try AssetWriterFixture.probe(url).format["tags"] as? [String: String] ?? [:]
        #expect(tags["title"] == "Parity movie")
        #expect(tags["location"] == "+48.8577+002.2950/")
        #expect(tags["creation_time"]?.hasPrefix("2023-11-14T22:13:20") == true, "\(tags)")
    }

    @Test("a metadata input joins a session without connections; only a movie file output takes its port; append needs a running session")
    func metadataInput() throws {
        let group = AVTimedMetadataGroup(
            items: [AssetWriterTests.item(.commonKeyTitle, "note" as NSString)],
            timeRange: CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 1, timescale: 1)))
        #expect(group.items.count == 1 && group.timeRange.start == CMTime(value: 1, timescale: 1))
        let description = try #require(group.copyFormatDescription())
        #expect(description.mediaType.rawValue == kCMMediaType_Metadata && description.mediaSubType.rawValue == kCMMetadataFormatType_Boxed)
        let input = AVCaptureMetadataInput(formatDescription: description, clock: CMClockGetHostTimeClock())
        #expect(input.ports.count == 1 && input.ports[0].mediaType == .metadata && input.ports[0].formatDescription == description)
        #expect(throws: AVError.self) { try input.append(group) }
        let movie = AVCaptureMovieFileOutput()
        let rig = try MovieFileOutputTests.rig(movie)
        defer { rig.stop() }
        #expect(rig.session.canAddInput(input))
        rig.session.addInputWithNoConnections(input)
        #expect(!rig.session.canAddInput(input))
        #expect(rig.session.inputs.contains { $0 === input })
        #expect(!rig.session.connections.contains { $0.inputPorts.contains { $0.input === input } })
        let connection = AVCaptureConnection(inputPorts: input.ports, output: movie)
        #expect(rig.session.canAddConnection(connection))
        let data = AVCaptureVideoDataOutput()
        rig.session.addOutputWithNoConnections(data)
        #expect(!rig.session.canAddConnection(AVCaptureConnection(inputPorts: input.ports, output: data)))
        try input.append(group)
        #expect(throws: AVError.self) {
            try input.append(AVTimedMetadataGroup(items: [], timeRange: .invalid))
        }
        rig.session.removeInput(input)
        #expect(rig.session.canAddInput(input))
    }
}
