import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// App metadata (`AVCaptureMetadataInput`) and the orientation track recorded by a movie
/// file output on a simulated camera in virtual time, read back by ffprobe and exiftool.
@Suite("Timed metadata recording", .serialized)
struct TimedMetadataRecordingTests {
    static let speed = AVMetadataIdentifier(rawValue: "mdta/com.example.speed")

    static func formatDescription() throws -> CMMetadataFormatDescription {
        let specifications: [[String: Any]] = [
            [
                kCMMetadataFormatDescriptionMetadataSpecificationKey_Identifier as String: AVMetadataIdentifier.quickTimeMetadataLocationISO6709.rawValue,
                kCMMetadataFormatDescriptionMetadataSpecificationKey_DataType as String: kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709 as String,
            ],
            [
                kCMMetadataFormatDescriptionMetadataSpecificationKey_Identifier as String: speed.rawValue,
                kCMMetadataFormatDescriptionMetadataSpecificationKey_DataType as String: kCMMetadataBaseDataType_Float32 as String,
            ],
        ]
        var description: CMMetadataFormatDescription?
        let status = CMMetadataFormatDescriptionCreateWithMetadataSpecifications(
            allocator: kCFAllocatorDefault, metadataType: kCMMetadataFormatType_Boxed, metadataSpecifications: specifications,
            formatDescriptionOut: &description)
        #expect(status == noErr)
        return try #require(description)
    }

    static func item(_ identifier: AVMetadataIdentifier, _ value: any NSCopying & NSObjectProtocol, _ dataType: String) -> AVMetadataItem {
        let item = AVMutableMetadataItem()
        item.identifier = identifier
        item.value = value
        item.dataType = dataType
        return item
    }

    @Test("format description: identifiers, keys by local ID, identifiers made from key and key space")
    func formatDescriptionKeys() throws {
        let description = try Self.formatDescription()
        #expect(description.mediaType.rawValue == kCMMediaType_Metadata && description.mediaSubType.rawValue == kCMMetadataFormatType_Boxed)
        let identifiers = CMMetadataFormatDescriptionGetIdentifiers(description) as? [String]
        #expect(identifiers == ["mdta/com.apple.quicktime.location.ISO6709", "mdta/com.example.speed"])
        let key = try #require(CMMetadataFormatDescriptionGetKeyWithLocalID(description, localKeyID: 2))
        #expect(key[kCMMetadataFormatDescriptionKey_Value] as? Data == Data("com.example.speed".utf8))
        #expect((key[kCMMetadataFormatDescriptionKey_Namespace] as? NSNumber)?.uint32Value == 0x6D64_7461)
        #expect(key[kCMMetadataFormatDescriptionKey_DataType] as? String == kCMMetadataBaseDataType_Float32)
        #expect(CMMetadataFormatDescriptionGetKeyWithLocalID(description, localKeyID: 3) == nil)
        var identifier: String?
        #expect(CMMetadataCreateIdentifierForKeyAndKeySpace(allocator: nil, key: "com.example.speed", keySpace: "mdta", identifierOut: &identifier) == noErr)
        #expect(identifier == Self.speed.rawValue)
        #expect(CMMetadataCreateIdentifierForKeyAndKeySpace(allocator: nil, key: "x", keySpace: "toolong", identifierOut: &identifier)
            == kCMMetadataIdentifierError_BadKeySpace)
        var none: CMMetadataFormatDescription?
        #expect(CMMetadataFormatDescriptionCreateWithMetadataSpecifications(
            allocator: nil, metadataType: kCMMetadataFormatType_Boxed, metadataSpecifications: [["nothing": 1]], formatDescriptionOut: &none)
            == kCMFormatDescriptionError_InvalidParameter)
    }

    @Test("orientation-track choice: per video connection of the output, off by default")
    func orientationChoice() throws {
        let movie = AVCaptureMovieFileOutput()
        let rig = try TestRig(preset: .vga640x480)
        rig.session.addOutput(movie)
        let video = try #require(movie.connection(with: .video))
        #expect(!movie.recordsVideoOrientationAndMirroringChangesAsMetadataTrack(for: video))
        movie.setRecordsVideoOrientationAndMirroringChangesAsMetadataTrack(true, for: video)
        #expect(movie.recordsVideoOrientationAndMirroringChangesAsMetadataTrack(for: video))
        #expect(AVCaptureMovieFileOutput.orientation(rotation: 90, mirrored: false) == 6)
        #expect(AVCaptureMovieFileOutput.orientation(rotation: 0, mirrored: true) == 2)
        #expect(AVCaptureMovieFileOutput.orientation(rotation: 270, mirrored: false) == 8)
    }

    @Test("app metadata and orientation changes become 'mebx' tracks that ffprobe and exiftool read", arguments: [false, true])
    func recording(fragmented: Bool) throws {
        let movie = AVCaptureMovieFileOutput()
        let rig = try TestRig(preset: .vga640x480)
        defer { rig.stop() }
        rig.session.addOutput(movie)
        let video = try #require(movie.connection(with: .video))
        movie.setRecordsVideoOrientationAndMirroringChangesAsMetadataTrack(true, for: video)
        let input = AVCaptureMetadataInput(formatDescription: try Self.formatDescription(), clock: CMClockGetHostTimeClock())
        rig.session.addInputWithNoConnections(input)
        let connection = AVCaptureConnection(inputPorts: input.ports, output: movie)
        #expect(rig.session.canAddConnection(connection))
        rig.session.addConnection(connection)
        rig.session.startRunning()
        try rig.collector.waitForFrames(2)

        // Unfragmented: exiftool 12.57 reads no timed metadata from 'moof' fragments (ffprobe does).
        movie.movieFragmentInterval = fragmented ? CMTime(value: 1, timescale: 2) : .invalid
        let url = MovieFileOutputTests.temporaryURL("metadata.mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        movie.startRecording(to: url, recordingDelegate: delegate)
        eventually("5 frames recorded") { movie.recordedFrameCount >= 5 }
        let now = { rig.collector.log.lastFrame?.time ?? .zero }
        let range = { CMTimeRange(start: now(), duration: .invalid) }
        try input.append(AVTimedMetadataGroup(items: [
            Self.item(.quickTimeMetadataLocationISO6709, "+48.8577+002.2950+035.000/" as NSString, kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709),
            Self.item(Self.speed, NSNumber(value: 2.5 as Float), kCMMetadataBaseDataType_Float32),
        ], timeRange: range()))
        #expect(throws: AVError.self, "an item the format description does not describe") {
            try input.append(AVTimedMetadataGroup(items: [Self.item(.quickTimeMetadataTitle, "x" as NSString, kCMMetadataBaseDataType_UTF8)], timeRange: range()))
        }
        eventually("15 frames recorded") { movie.recordedFrameCount >= 15 }
        video.videoRotationAngle = 90
        try input.append(AVTimedMetadataGroup(items: [], timeRange: range()))
        eventually("25 frames recorded") { movie.recordedFrameCount >= 25 }
        movie.stopRecording()
        try delegate.wait()
        #expect(delegate.error == nil)

        let streams = try FFprobe.streams(url.path, ["-show_streams"])
        let data = streams.filter { $0["codec_type"] as? String == "data" }
        #expect(data.count == 2, "the app's track and the orientation track")
        #expect(data.allSatisfy { $0["codec_tag_string"] as? String == "mebx" })
        #expect(data.allSatisfy { ($0["tags"] as? [String: Any])?["handler_name"] as? String == "Core Media Metadata" })
        let exif = runTool("/usr/bin/exiftool", ["-ee", "-G3", "-a", "-u", url.path]) ?? ""
        if !fragmented {
            #expect(exif.contains("48.8577") || exif.contains("48 deg 51"), "\(exif)")
            #expect(exif.contains("2.5"))
            #expect(exif.lowercased().contains("orientation"))
        }
        let orientation = runTool(
            "/usr/bin/ffprobe", ["-v", "error", "-select_streams", "d:1", "-show_entries", "packet=pts_time,size", "-of", "csv=p=0", url.path]) ?? ""
        #expect(orientation.split(separator: "\n").count == 2, "one sample at the start, one at the rotation: \(orientation)")
    }
}
