// Declarations of AVAsset.h, AVAssetWriter.h, AVComposition.h, AVMetadataItem.h,
// AVMediaFormat.h and AVVideoSettings.h that iOS code uses and that came late here:
// AVAsset(url:), AVAssetWriter(url:fileType:), the refined composition track accessors,
// the mutable metadata item's fields, media characteristics, the pre-iOS 11 codec strings.
import AVFoundation
import Testing

/// Touches the declarations; compiled, never called.
func spellAssetIssue30(_ url: URL, _ composition: AVMutableComposition, _ frozen: AVComposition) async throws {
    let asset: AVAsset = AVAsset(url: url)
    let writer: AVAssetWriter = try AVAssetWriter(url: url, fileType: .mp4)
    let mutableTracks: [AVMutableCompositionTrack] = composition.tracks
    let video: [AVMutableCompositionTrack] = composition.tracks(withMediaType: .video)
    let audible: [AVMutableCompositionTrack] = composition.tracks(withMediaCharacteristic: .audible)
    let loaded: [AVMutableCompositionTrack] = try await composition.loadTracks(withMediaType: .audio)
    let loadedVisual: [AVMutableCompositionTrack] = try await composition.loadTracks(withMediaCharacteristic: .visual)
    let one: AVMutableCompositionTrack? = composition.track(withTrackID: 1)
    let loadedOne: AVMutableCompositionTrack? = try await composition.loadTrack(withTrackID: 1)
    composition.loadTracks(withMediaType: .video) { (tracks: [AVMutableCompositionTrack]?, error: (any Error)?) in _ = (tracks, error) }
    composition.loadTrack(withTrackID: 1) { (track: AVMutableCompositionTrack?, error: (any Error)?) in _ = (track, error) }
    let compositionTracks: [AVCompositionTrack] = frozen.tracks
    let compositionVideo: [AVCompositionTrack] = frozen.tracks(withMediaType: .video)
    let assetTracks: [AVAssetTrack] = asset.tracks(withMediaCharacteristic: .visual)
    let characteristics: [AVMediaCharacteristic] = [.visual, .audible, .legible, .frameBased, .usesWideGamutColorSpace, .containsHDRVideo, .containsAlphaChannel]
    let has: Bool = assetTracks.first?.hasMediaCharacteristic(.frameBased) ?? false
    let loadedCharacteristics: [AVMediaCharacteristic]? = try await assetTracks.first?.load(.mediaCharacteristics)
    let item = AVMutableMetadataItem()
    item.identifier = .commonIdentifierTitle
    item.key = AVMetadataKey.commonKeyTitle.rawValue as NSString
    item.keySpace = .common
    item.value = "Title" as NSString
    item.dataType = "com.apple.metadata.datatype.UTF-8"
    item.extendedLanguageTag = "en-GB"
    item.locale = Locale(identifier: "en_GB")
    item.time = .zero
    item.duration = CMTime(value: 1, timescale: 1)
    item.startDate = Date()
    item.extraAttributes = [.info: "x"]
    let startDate: Date? = item.startDate
    let codecs: [String] = [AVVideoCodecJPEG, AVVideoCodecH264, AVVideoCodecHEVC]
    let settings: [String: Any] = [AVVideoCodecKey: AVVideoCodecH264, AVVideoWidthKey: 1280, AVVideoHeightKey: 720]
    _ = (writer, mutableTracks, video, audible, loaded, loadedVisual, one, loadedOne, compositionTracks, compositionVideo, characteristics, has)
    _ = (loadedCharacteristics, startDate, codecs, settings)
}

@Suite("Asset declarations of issue 30 spelling")
struct AssetIssue30SpellingTests {
    @Test func assetWithURLIsAURLAsset() {
        let url = URL(fileURLWithPath: "/tmp/none.mov")
        let asset = AVAsset(url: url)
        #expect((asset as? AVURLAsset)?.url == url)
    }

    @Test func oldCodecStringsEqualTheCodecTypes() {
        #expect(AVVideoCodecJPEG == AVVideoCodecType.jpeg.rawValue)
        #expect(AVVideoCodecH264 == AVVideoCodecType.h264.rawValue)
        #expect(AVVideoCodecHEVC == AVVideoCodecType.hevc.rawValue)
        #expect(AVVideoCodecAppleProRes422 == "apcn" && AVVideoCodecAppleProRes4444 == "ap4h")
    }

    @Test func writerWithURLIsTheWriterWithOutputURL() throws {
        let url = URL(fileURLWithPath: "/tmp/never-written-\(UUID().uuidString).mp4")
        let writer = try AVAssetWriter(url: url, fileType: .mp4)
        #expect(writer.outputURL == url && writer.outputFileType == .mp4 && writer.status == .unknown)
        #expect(throws: AVError.self) { try AVAssetWriter(url: url, fileType: .wav) }
    }

    @Test func mutableCompositionTracksAreMutableTracks() throws {
        let composition = AVMutableComposition()
        let added = try #require(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid))
        let audio = composition.tracks(withMediaType: .audio)
        #expect(audio.count == 1 && audio[0] === added)
        #expect(composition.tracks(withMediaCharacteristic: .audible).count == 1 && composition.tracks(withMediaCharacteristic: .visual).isEmpty)
        let asAsset: AVAsset = composition
        #expect(asAsset.tracks.count == 1 && asAsset.tracks[0] === added, "the AVAsset view sees the same tracks")
    }

    @Test func mutableMetadataItemKeepsEveryField() {
        let item = AVMutableMetadataItem()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        item.startDate = date
        item.extendedLanguageTag = "en-GB"
        item.dataType = "com.apple.metadata.datatype.UTF-8"
        #expect(item.startDate == date && item.extendedLanguageTag == "en-GB" && item.dataType == "com.apple.metadata.datatype.UTF-8")
        #expect(AVMetadataItem().startDate == nil)
    }
}
