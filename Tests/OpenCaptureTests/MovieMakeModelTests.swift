import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// Make, model, software and creation date in movie file output recordings.
@Suite("Movie make and model", .serialized)
struct MovieMakeModelTests {
    static func value(_ tags: [(String, String)], _ key: String) -> String? { tags.first { $0.0 == key }?.1 }

    @Test("defaults: the device's make and model, OpenCapture, the start time under Apple's keys")
    func defaultTags() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let tags = MovieFileTags.tags(app: [("title", "Walk")], make: "Acme", model: "Cam 1", start: start)
        #expect(Self.value(tags, "com.apple.quicktime.make") == "Acme")
        #expect(Self.value(tags, "com.apple.quicktime.model") == "Cam 1")
        #expect(Self.value(tags, "com.apple.quicktime.software") == "OpenCapture")
        #expect(Self.value(tags, "title") == "Walk")
        #expect(Self.value(tags, "creation_time") == "2023-11-14T22:13:20.000Z")
        #expect(Self.value(tags, "com.apple.quicktime.creationdate") == MovieFileTags.localDate(start))
        #expect(Set(tags.map(\.0)).count == tags.count, "each key once")
    }

    @Test("Apple's creation date form: local time with its offset")
    func creationDateForm() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(MovieFileTags.localDate(start, timeZone: try #require(TimeZone(secondsFromGMT: 3600))) == "2023-11-14T23:13:20+0100")
        #expect(MovieFileTags.localDate(start, timeZone: try #require(TimeZone(identifier: "UTC"))) == "2023-11-14T22:13:20+0000")
    }

    @Test("the app's make, model, software and creation date win, under Apple's keys")
    func appTagsWin() {
        let app = [("make", "Zeiss"), ("model", "Ikon"), ("encoder", "MyApp 2"), ("creation_time", "2020-01-01T00:00:00.000Z")]
        let tags = MovieFileTags.tags(app: app, make: "Acme", model: "Cam 1", start: Date())
        #expect(Self.value(tags, "com.apple.quicktime.make") == "Zeiss")
        #expect(Self.value(tags, "com.apple.quicktime.model") == "Ikon")
        #expect(Self.value(tags, "com.apple.quicktime.software") == "MyApp 2")
        #expect(Self.value(tags, "creation_time") == "2020-01-01T00:00:00.000Z")
        #expect(Self.value(tags, "com.apple.quicktime.creationdate") == nil, "the app's date stands alone")
        #expect(!tags.contains { ["make", "model", "encoder"].contains($0.0) }, "FFmpeg's names are renamed")
        #expect(tags.count == 4)
    }

    @Test("no device (or an empty name) leaves make and model out")
    func noDevice() {
        let tags = MovieFileTags.tags(app: [], make: nil, model: "", start: Date())
        #expect(Self.value(tags, "com.apple.quicktime.make") == nil && Self.value(tags, "com.apple.quicktime.model") == nil)
        #expect(Self.value(tags, "com.apple.quicktime.software") == "OpenCapture")
    }

    /// Records about half a second from the simulated back camera.
    static func record(_ output: AVCaptureMovieFileOutput) throws -> (URL, AVCaptureDevice) {
        output.maxRecordedDuration = CMTime(value: 1, timescale: 2)
        let rig = try MovieFileOutputTests.rig(output)
        defer { rig.stop() }
        let url = MovieFileOutputTests.temporaryURL("makemodel.mov")
        let delegate = RecordingRecorder()
        let before = Date()
        output.startRecording(to: url, recordingDelegate: delegate)
        try delegate.wait()
        #expect(delegate.error?.code == .maximumDurationReached)
        #expect(Date().timeIntervalSince(before) < 60)
        return (url, rig.device)
    }

    @Test("a recording carries the camera's make and model and OpenCapture as software (ffprobe, exiftool, AVAsset)")
    func recordedMakeModel() throws {
        let output = AVCaptureMovieFileOutput()
        let start = Date()
        let (url, device) = try Self.record(output)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(device.manufacturer == "OpenCapture" && device.modelID == "OpenCapture Simulated Wide")
        let tags = try AssetWriterFixture.probe(url).format["tags"] as? [String: String] ?? [:]
        #expect(tags["com.apple.quicktime.make"] == device.manufacturer, "\(tags)")
        #expect(tags["com.apple.quicktime.model"] == device.modelID)
        #expect(tags["com.apple.quicktime.software"] == "OpenCapture")
        let created = try #require(tags["creation_time"].flatMap { ISO8601DateFormatter().date(from: String($0.prefix(19)) + "Z") })
        #expect(abs(created.timeIntervalSince(start)) < 30, "\(created) against \(start)")
        let exif = exiftoolTags(url, ["-G1"])
        #expect(exif["Keys:Make"] as? String == device.manufacturer, "\(exif)")
        #expect(exif["Keys:Model"] as? String == device.modelID)
        #expect(exif["Keys:Software"] as? String == "OpenCapture")
        #expect(exif["Keys:CreationDate"] != nil)
        let asset = AVURLAsset(url: url)
        let common = asset.commonMetadata
        #expect(common.first { $0.commonKey == .commonKeyMake }?.stringValue == device.manufacturer)
        #expect(common.first { $0.commonKey == .commonKeyModel }?.stringValue == device.modelID)
    }

    @Test("the app's metadata items win over the device's make and model, in fragmented and unfragmented files")
    func appItemsWin() throws {
        for fragmented in [true, false] {
            let output = AVCaptureMovieFileOutput()
            if !fragmented { output.movieFragmentInterval = .invalid }
            output.metadata = [
                AssetWriterTests.item(.commonKeyMake, "Acme" as NSString),
                AssetWriterTests.item(.commonKeyModel, "Rocket Cam" as NSString),
                AssetWriterTests.item(.commonKeySoftware, "Field Recorder 3" as NSString),
                AssetWriterTests.item(.commonKeyTitle, "Launch" as NSString),
            ]
            let (url, _) = try Self.record(output)
            defer { try? FileManager.default.removeItem(at: url) }
            let tags = try AssetWriterFixture.probe(url).format["tags"] as? [String: String] ?? [:]
            #expect(tags["com.apple.quicktime.make"] == "Acme", "\(fragmented): \(tags)")
            #expect(tags["com.apple.quicktime.model"] == "Rocket Cam")
            #expect(tags["com.apple.quicktime.software"] == "Field Recorder 3")
            #expect(tags["title"] == "Launch")
            let exif = exiftoolTags(url, ["-G1"])
            #expect(exif["Keys:Make"] as? String == "Acme" && exif["Keys:Model"] as? String == "Rocket Cam", "\(exif)")
        }
    }
}
