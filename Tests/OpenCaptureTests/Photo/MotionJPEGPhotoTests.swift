import Foundation
import MediaIO
import Testing
import TestSupport

@testable import OpenCapture

/// Motion JPEG passthrough at the photo output: a camera whose stills carry the JPEG it sent
/// (`StillCapture.deviceJPEG`, as a V4L2 Motion JPEG camera's do) gets that JPEG back as the
/// photo with EXIF inserted, unless the photo needs rotating or another codec or quality.
/// The camera is a plug-in-style fake (its stream is `SolidColorCamera`'s; its stills are a
/// JPEG ffmpeg recorded in the test's temp dir), since a V4L2 session cannot run on fed frames.
@Suite("Motion JPEG photos: the camera's JPEG passes through", .serialized)
struct MotionJPEGPhotoTests {
    /// One Motion JPEG frame from ffmpeg, the stream's size; `huffman` is ffmpeg's choice of
    /// tables ("default": the standard ones of T.81 Annex K.3; ffmpeg's default is "optimal").
    static func recordedJPEG(huffman: String = "optimal") throws -> [UInt8] {
        let file = temporaryFile("jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        let ffmpeg = try ChildProcess.run(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=\(SolidColorCamera.width)x\(SolidColorCamera.height):rate=10", "-frames:v", "1",
             "-c:v", "mjpeg", "-huffman", huffman, "-pix_fmt", "yuvj422p", "-f", "mjpeg", file.path],
            stderr: .discard, within: .seconds(60))
        try #require(ffmpeg.status == 0, "ffmpeg failed")
        return [UInt8](try Data(contentsOf: file))
    }

    /// Offset of the first DQT segment, walking the marker segments from SOI (so bytes inside
    /// an EXIF block never count); everything from there on is the camera's compressed picture.
    static func quantizationTablesOffset(_ jpeg: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            if jpeg[offset + 1] == 0xDB { return offset }
            offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        }
        return nil
    }

    /// A session on the fake camera with a photo output, one photo taken with `settings`
    /// (the photo connection rotated by `rotation`), and the file written for exiftool.
    static func photo(_ jpeg: [UInt8], settings: AVCapturePhotoSettings, rotation: CGFloat = 0) throws -> (AVCapturePhoto, Data, [String: Any]) {
        let camera = MotionJPEGStillCamera(uniqueID: "test:mjpeg", jpeg: jpeg)
        return try DeviceRegistry(providers: [MotionJPEGProvider(camera: camera)]).withCurrent {
            let device = try #require(AVCaptureDevice(uniqueID: "test:mjpeg"))
            let session = AVCaptureSession()
            let output = AVCapturePhotoOutput()
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(output)
            let connection = try #require(output.connection(with: .video))
            connection.videoRotationAngle = rotation
            #expect(connection.videoRotationAngle == rotation)
            session.startRunning()
            defer { session.stopRunning() }
            let recorder = PhotoRecorder()
            output.capturePhoto(with: settings, delegate: recorder)
            let photo = try #require(try recorder.wait())
            #expect(recorder.error.withLock { $0 } == nil)
            let data = try #require(photo.fileDataRepresentation())
            let url = temporaryFile("photo")
            defer { try? FileManager.default.removeItem(at: url) }
            try data.write(to: url)
            return (photo, data, try ExifTool.tags(url.path, ["-n"]))
        }
    }

    @Test("a JPEG photo of the unchanged frame is the camera's JPEG byte for byte from DQT on, with EXIF exiftool reads")
    func passesThrough() throws {
        let jpeg = try Self.recordedJPEG()
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        settings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 32, AVVideoHeightKey: 24]
        let (photo, data, tags) = try Self.photo(jpeg, settings: settings)
        let file = [UInt8](data)
        let cameraStart = try #require(Self.quantizationTablesOffset(jpeg)), photoStart = try #require(Self.quantizationTablesOffset(file))
        #expect(JPEGSegments.exifPayload(in: Data(jpeg)) == nil, "ffmpeg's JPEG has no EXIF of its own")
        #expect(file[cameraStart...].count > 500)
        #expect(file[photoStart...].elementsEqual(jpeg[cameraStart...]), "the compressed picture is the camera's, not encoded again")
        #expect(JPEGSegments.exifPayload(in: data) != nil)
        #expect(tags["Make"] as? String == "Test" && tags["Model"] as? String == "Solid")
        #expect(tags["ExifImageWidth"] as? Int == SolidColorCamera.width && tags["ExifImageHeight"] as? Int == SolidColorCamera.height)
        #expect(tags["Orientation"] as? Int == 1)
        #expect(tags["ImageWidth"] as? Int == SolidColorCamera.width)
        #expect((tags["ThumbnailLength"] as? Int ?? 0) > 100, "the thumbnail sits in IFD1 as the encoder stores it")
        // The photo's buffers are still the decoded frame: no pixel buffer for a JPEG, and a
        // preview scaled from the still, not from the file.
        #expect(photo.pixelBuffer == nil)
        let preview = try #require(photo.previewPixelBuffer)
        #expect(CVPixelBufferGetPixelFormatType(preview) == kCVPixelFormatType_32BGRA)
        // A file made again with other metadata keeps the camera's picture too.
        let customized = try #require(photo.fileDataRepresentation(with: MetadataReplacer()))
        let again = [UInt8](customized)
        #expect(again[try #require(Self.quantizationTablesOffset(again))...].elementsEqual(jpeg[cameraStart...]))
        #expect(String(decoding: JPEGSegments.exifPayload(in: customized) ?? [], as: UTF8.self).contains("replaced"))
    }

    /// The picture ffmpeg decodes from a JPEG file, as RGB bytes.
    static func decoded(_ jpeg: [UInt8]) throws -> Data {
        let file = temporaryFile("jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(jpeg).write(to: file)
        let run = try ChildProcess.run(
            "/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
            stderr: .discard, within: .seconds(60))
        try #require(run.succeeded, "ffmpeg could not decode the file")
        return run.stdoutData
    }

    @Test("a camera frame without Huffman tables becomes a file with the standard ones, its scan byte for byte")
    func addsStandardHuffmanTables() throws {
        let withTables = try Self.recordedJPEG(huffman: "default")
        let jpeg = MotionJPEGFrames.strippingHuffmanTables(withTables)
        #expect(MotionJPEGFrames.offset(of: 0xC4, in: jpeg) == nil, "the camera's frame has no DHT, as UVC cameras send them")
        let (_, data, tags) = try Self.photo(jpeg, settings: AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg]))
        let file = [UInt8](data)
        let dht = try #require(MotionJPEGFrames.offset(of: 0xC4, in: file), "the photo file defines its Huffman tables")
        #expect(file[dht...].starts(with: JPEGStandardHuffmanTables.segment))
        let cameraScan = try #require(MotionJPEGFrames.offset(of: 0xDA, in: jpeg)), photoScan = try #require(MotionJPEGFrames.offset(of: 0xDA, in: file))
        #expect(file[photoScan...].count > 500)
        #expect(file[photoScan...].elementsEqual(jpeg[cameraScan...]), "the compressed picture is the camera's, not encoded again")
        #expect(tags["Make"] as? String == "Test" && tags["ImageWidth"] as? Int == SolidColorCamera.width)
        #expect(try Self.decoded(file) == (try Self.decoded(withTables)), "the file decodes to the camera's picture")
    }

    enum Change: String, CaseIterable, Sendable {
        case rotation, hevc, quality
    }

    @Test("a rotated photo, an HEVC photo or one with the app's own quality is encoded instead", arguments: Change.allCases)
    func encodedInstead(change: Change) throws {
        let jpeg = try Self.recordedJPEG()
        let cameraStart = try #require(Self.quantizationTablesOffset(jpeg))
        var format: [String: Any] = [AVVideoCodecKey: change == .hevc ? AVVideoCodecType.hevc : AVVideoCodecType.jpeg]
        if change == .quality { format[AVVideoCompressionPropertiesKey] = [AVVideoQualityKey: 0.5] }
        let (_, data, tags) = try Self.photo(jpeg, settings: AVCapturePhotoSettings(format: format), rotation: change == .rotation ? 90 : 0)
        #expect(tags["Make"] as? String == "Test")
        if change == .hevc {
            #expect(String(decoding: data[4..<12], as: UTF8.self) == "ftypheic")
            return
        }
        let file = [UInt8](data)
        let photoStart = try #require(Self.quantizationTablesOffset(file))
        #expect(!file[photoStart...].elementsEqual(jpeg[cameraStart...]), "libjpeg-turbo encoded the still")
        #expect(tags["Orientation"] as? Int == (change == .rotation ? 6 : 1))
    }
}

/// Replaces the photo's metadata with a description, for `fileDataRepresentation(with:)`.
final class MetadataReplacer: NSObject, AVCapturePhotoFileDataRepresentationCustomizer {
    func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]? {
        var metadata = photo.metadata
        var tiff = metadata["{TIFF}"] as? [String: Any] ?? [:]
        tiff["ImageDescription"] = "replaced"
        metadata["{TIFF}"] = tiff
        return metadata
    }
}

/// The fake camera's provider: it alone, never plugged or unplugged.
final class MotionJPEGProvider: DeviceProvider {
    let camera: MotionJPEGStillCamera

    init(camera: MotionJPEGStillCamera) { self.camera = camera }

    func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] { [camera] }
}

/// A camera that sends Motion JPEG, as the photo output sees one: it streams (through a
/// `SolidColorCamera`) and its stills are its JPEG decoded, carrying that JPEG as
/// `deviceJPEG` when the request is the JPEG's size.
final class MotionJPEGStillCamera: CaptureBackend, StillCapturing, @unchecked Sendable {
    private let stream: SolidColorCamera
    private let jpeg: [UInt8]

    init(uniqueID: String, jpeg: [UInt8]) {
        stream = SolidColorCamera(uniqueID: uniqueID)
        self.jpeg = jpeg
    }

    var descriptor: DeviceDescriptor { stream.descriptor }
    var isConnected: Bool { stream.isConnected }
    func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) { try stream.start(configuration, sink: sink) }
    func update(_ configuration: StreamConfiguration) { stream.update(configuration) }
    func apply(_ request: ControlRequest) { stream.apply(request) }
    func stop() { stream.stop() }

    let hasFlash = false
    var recentFrameBytes: Int { 0 }
    func keepRecentFrames(_ keep: Bool, for owner: ObjectIdentifier) {}

    func captureStill(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) {
        let decoded: CVPixelBuffer
        do { decoded = try JPEGEncoder.decode(Data(jpeg)) } catch {
            completion(.failure(.streamFailed("the JPEG did not decode: \(error)")))
            return
        }
        var metadata = FrameMetadata()
        metadata.width = decoded.width
        metadata.height = decoded.height
        metadata.presentationTime = CMClockGetTime(CMClockGetHostTimeClock())
        var still = StillCapture(buffer: decoded, metadata: metadata, flashFired: false)
        if request.width == decoded.width, request.height == decoded.height { still.deviceJPEG = jpeg }
        completion(.success(still))
    }
}
