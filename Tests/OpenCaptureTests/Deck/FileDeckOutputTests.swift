import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// Outputs work unchanged from a file deck: photos take the frame on show, movies re-record
/// it, a metadata output reads the codes the file shows.
@Suite("File deck outputs", .serialized)
struct FileDeckOutputTests {
    /// Stopped at the end, the deck still shows its last frame: a photo is that frame.
    @Test func photoIsTheFrameOnShow() throws {
        let url = try DeckFixture.clip("photo.mp4", frames: 6, ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let device = try DeckFixture.deck(url)
        let collector = DeckCollector()
        let photoOutput = AVCapturePhotoOutput()
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector, extra: [photoOutput])
        defer { session.stopRunning() }
        collector.wait(for: 6)
        DeckFixture.waitForStop(device, collector)
        let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange])
        let recorder = PhotoRecorder()
        photoOutput.capturePhoto(with: settings, delegate: recorder)
        let photo = try #require(try recorder.wait())
        #expect(recorder.error.withLock { $0 } == nil)
        #expect(photo.resolvedSettings.photoDimensions == CMVideoDimensions(width: 160, height: 120))
        let pixels = try #require(photo.pixelBuffer)
        #expect(CVPixelBufferGetWidth(pixels) == 160 && CVPixelBufferGetHeight(pixels) == 120)
        let jpeg = AVCapturePhotoSettings()
        let second = PhotoRecorder()
        photoOutput.capturePhoto(with: jpeg, delegate: second)
        let compressed = try #require(try second.wait())
        #expect(compressed.fileDataRepresentation()?.count ?? 0 > 100)
    }

    /// A movie output records what the deck plays; the movie then plays through a deck of
    /// its own exactly as ffmpeg decodes it, forwards and backwards.
    @Test func movieOutputRecordsTheDeckAndItsMoviePlaysBack() throws {
        let url = try DeckFixture.clip("source.y4m", frames: 10, ["-pix_fmt", "yuv420p"])
        let device = try DeckFixture.deck(url)
        try DeckFixture.transport(device, .notPlaying, 1)
        let collector = DeckCollector()
        let movieOutput = AVCaptureMovieFileOutput()
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, collector: collector, extra: [movieOutput])
        let movie = DeckFixture.directory.appendingPathComponent("\(UUID().uuidString.prefix(8))-recorded.mp4")
        let delegate = RecordingRecorder()
        movieOutput.startRecording(to: movie, recordingDelegate: delegate)
        try DeckFixture.transport(device, .playing, 1)
        collector.wait(for: 10)
        DeckFixture.waitForStop(device, collector)
        movieOutput.stopRecording()
        try delegate.wait()
        session.stopRunning()
        #expect(delegate.error == nil || delegate.error?.recordingSuccessfullyFinished == true)
        let probe = try #require(Probe(movie))
        #expect(probe.codec == "h264" && probe.width == 160 && probe.height == 120)
        #expect(probe.frames == 10)
        let expected = try DeckFixture.hashes(movie, pixelFormat: "yuv420p")
        #expect(expected.count == 10)
        let replay = try DeckFixture.deck(movie)
        let frames = DeckCollector()
        let second = try DeckFixture.session(replay, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: frames)
        defer { second.stopRunning() }
        frames.wait(for: expected.count)
        DeckFixture.waitForStop(replay, frames)
        #expect(frames.hashes == expected)
        try DeckFixture.transport(replay, .playing, -1)
        frames.wait(for: 2 * expected.count - 1)
        DeckFixture.waitForStop(replay, frames)
        #expect(Array(frames.hashes.dropFirst(expected.count)) == Array(expected.dropLast().reversed()))
    }

    /// A preview layer shows a deck as it shows a camera.
    @Test func previewLayerShowsTheDeck() throws {
        let url = try DeckFixture.clip("preview.y4m", frames: 6, ["-pix_fmt", "yuv420p"])
        let device = try DeckFixture.deck(url, loops: true)
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        session.startRunning()
        defer { session.stopRunning() }
        eventually("the layer showed 3 pictures", within: .seconds(10)) { layer.renderedFrameCount >= 3 }
        let picture = try #require(layer.contents as? CVPixelBuffer)
        #expect(CVPixelBufferGetWidth(picture) == 160 && CVPixelBufferGetHeight(picture) == 120)
    }

    /// Every pixel format a video data output offers with a deck arrives as asked.
    @Test func everyOfferedPixelFormatArrives() throws {
        let url = try DeckFixture.clip("formats.y4m", frames: 2, ["-pix_fmt", "yuv420p"])
        let device = try DeckFixture.deck(url, loops: true)
        let probe = AVCaptureSession()
        probe.addInput(try AVCaptureDeviceInput(device: device))
        let offered = AVCaptureVideoDataOutput()
        probe.addOutput(offered)
        let formats = offered.availableVideoPixelFormatTypes
        #expect(formats.count >= 5, "\(formats)")
        probe.removeOutput(offered)
        probe.removeInput(probe.inputs[0])
        for format in formats {
            let collector = DeckCollector()
            let session = try DeckFixture.session(device, pixelFormat: format, collector: collector)
            collector.wait(for: 2)
            session.stopRunning()
            #expect(collector.formats.allSatisfy { $0 == format }, "\(format)")
        }
    }

    /// A movie of a QR code (qrencode's picture, encoded by ffmpeg's H.264 encoder) played
    /// through a deck: the metadata output reads the code's string from the decoded frames.
    @Test func metadataOutputReadsAQRCodeTheFilePlays() throws {
        let png = try IndependentEncoder.qrPNG("OpenCapture file deck", scale: 6, margin: 4)
        defer { try? FileManager.default.removeItem(at: png) }
        let url = DeckFixture.directory.appendingPathComponent("\(UUID().uuidString.prefix(8))-qr.mp4")
        try DeckFixture.run(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-nostdin", "-loop", "1", "-framerate", "25", "-i", png.path, "-frames:v", "8",
                "-vf", "pad=352:288:(ow-iw)/2:(oh-ih)/2:white,format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-y", url.path,
            ])
        try #require(FileManager.default.fileExists(atPath: url.path), "ffmpeg made no QR movie")
        let device = try DeckFixture.deck(url, loops: true)
        let frames = DeckCollector()
        let metadataOutput = AVCaptureMetadataOutput()
        let codes = MetadataCollector()
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, collector: frames, extra: [metadataOutput])
        defer { session.stopRunning() }
        metadataOutput.setMetadataObjectsDelegate(codes, queue: codes.queue)
        #expect(metadataOutput.availableMetadataObjectTypes.contains(.qr))
        metadataOutput.metadataObjectTypes = [.qr]
        eventually("the scanner read 3 frames of the deck", within: .seconds(10)) { metadataOutput.scanner.counts.read >= 3 }
        session.stopRunning()
        codes.queue.sync {}
        let read = codes.codes
        let code = try #require(read.first, "no code read from \(frames.hashes.count) frames")
        #expect(code.type == .qr)
        #expect(code.stringValue == "OpenCapture file deck")
        #expect(read.allSatisfy { $0.stringValue == "OpenCapture file deck" }, "never a wrong string")
        // Where the movie shows it: 33 modules of 6 px (4 of them quiet zone each side) centred in 352x288.
        let left = ((352.0 - 198) / 2 + 24) / 352, top = ((288.0 - 198) / 2 + 24) / 288
        #expect(abs(code.bounds.minX - left) < 0.03 && abs(code.bounds.minY - top) < 0.03, "\(code.bounds)")
    }
}
