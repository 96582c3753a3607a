import Foundation
import Testing

@testable import OpenCapture

/// Timed metadata through AVAssetWriter (a metadata input, its adaptor, the 'cdsc'
/// association) and back through AVAssetReader with the metadata adaptor.
@Suite("Timed metadata asset round trip", .serialized)
struct TimedMetadataAssetTests {
    typealias Fixture = AssetWriterFixture

    static let note = AVMetadataIdentifier(rawValue: "mdta/com.example.note")

    static func group(_ items: [(AVMetadataIdentifier, any NSCopying & NSObjectProtocol, String)], at seconds: Double) -> AVTimedMetadataGroup {
        AVTimedMetadataGroup(
            items: items.map { TimedMetadataRecordingTests.item($0.0, $0.1, $0.2) },
            timeRange: CMTimeRange(start: CMTime(seconds: seconds, preferredTimescale: 600), duration: .invalid))
    }

    @Test("written groups read back with their identifiers, values and times", arguments: [AVFileType.mov, .mp4])
    func roundTrip(fileType: AVFileType) async throws {
        let url = Fixture.temporaryURL(fileType == .mov ? "mov" : "mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: fileType)
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterTests.videoSettings(.h264))
        writer.add(video)
        let first = Self.group([
            (.quickTimeMetadataLocationISO6709, "+48.8577+002.2950/" as NSString, kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709),
            (Self.note, NSNumber(value: Int32(-7)), kCMMetadataBaseDataType_SInt32),
        ], at: 0)
        let hint = try #require(first.copyFormatDescription())
        let metadata = AVAssetWriterInput(mediaType: .metadata, outputSettings: nil, sourceFormatHint: hint)
        let adaptor = AVAssetWriterInputMetadataAdaptor(assetWriterInput: metadata)
        #expect(adaptor.assetWriterInput === metadata)
        #expect(writer.canAdd(metadata))
        writer.add(metadata)
        #expect(metadata.canAddTrackAssociation(withTrackOf: video, type: AVAssetTrack.AssociationType.metadataReferent.rawValue))
        #expect(!video.canAddTrackAssociation(withTrackOf: video, type: AVAssetTrack.AssociationType.metadataReferent.rawValue))
        metadata.addTrackAssociation(withTrackOf: video, type: AVAssetTrack.AssociationType.metadataReferent.rawValue)
        try #require(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        let frame = Fixture.frame()
        #expect(adaptor.append(first))
        #expect(!adaptor.append(Self.group([(.quickTimeMetadataTitle, "not described" as NSString, kCMMetadataBaseDataType_UTF8)], at: 0.2)))
        for index in 0..<30 {
            try await video.waitUntilReady()
            video.append(Fixture.videoSample(frame, at: CMTime(value: Int64(index), timescale: 30)))
            if index == 15 { #expect(adaptor.append(Self.group([(Self.note, NSNumber(value: Int32(42)), kCMMetadataBaseDataType_SInt32)], at: 0.5))) }
        }
        #expect(adaptor.append(AVTimedMetadataGroup(items: [], timeRange: CMTimeRange(start: CMTime(value: 3, timescale: 4), duration: .invalid))))
        metadata.markAsFinished()
        video.markAsFinished()
        await writer.finishWriting()
        #expect(writer.status == .completed)

        let probe = try Fixture.probe(url)
        let data = try #require(Fixture.stream(probe, "data"))
        #expect(data["codec_tag_string"] as? String == "mebx")

        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .metadata).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        let readAdaptor = AVAssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
        #expect(reader.canAdd(output))
        reader.add(output)
        #expect(reader.startReading())
        var groups: [AVTimedMetadataGroup] = []
        while let group = readAdaptor.nextTimedMetadataGroup() { groups.append(group) }
        #expect(reader.status == .completed)
        try #require(groups.count == 3)
        #expect(groups.map { $0.timeRange.start.seconds } == [0, 0.5, 0.75])
        #expect(abs(groups[0].timeRange.duration.seconds - 0.5) < 0.001)
        #expect(groups[0].items.map(\.identifier) == [.quickTimeMetadataLocationISO6709, Self.note])
        #expect(groups[0].items[0].stringValue == "+48.8577+002.2950/")
        #expect(groups[0].items[1].numberValue == NSNumber(value: Int32(-7)))
        #expect(groups[0].items[1].dataType == kCMMetadataBaseDataType_SInt32)
        #expect(groups[1].items.map(\.identifier) == [Self.note] && groups[1].items[0].numberValue?.int32Value == 42)
        #expect(groups[2].items.isEmpty, "the empty group ends the one before")
        let format = try #require(try await track.load(.formatDescriptions).first)
        #expect(format.mediaType == .metadata)
    }
}
