// AVComposition.h, spelled as iOS code spells it.
import AVFoundation
import Testing

/// Touches the composition declarations; compiled, never called.
func spellAVComposition(_ asset: AVAsset, _ assetTrack: AVAssetTrack) async throws {
    let composition = AVMutableComposition()
    let withOptions = AVMutableComposition(urlAssetInitializationOptions: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
    composition.naturalSize = CGSize(width: 1920, height: 1080)
    let size: CGSize = composition.naturalSize
    let options: [String: Any] = withOptions.urlAssetInitializationOptions
    let range = CMTimeRange(start: .zero, duration: asset.duration)
    try composition.insertTimeRange(range, of: asset, at: composition.duration)
    try composition.insertTimeRange(range, of: [assetTrack], at: .zero)
    composition.insertTimeRange(range, of: asset, at: .zero) { (error: (any Error)?) in _ = error }
    composition.insertEmptyTimeRange(range)
    composition.removeTimeRange(range)
    composition.scaleTimeRange(range, toDuration: CMTime(value: 2, timescale: 1))
    let video: AVMutableCompositionTrack? = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)
    let compatible: AVMutableCompositionTrack? = composition.mutableTrack(compatibleWith: assetTrack)
    if let video { composition.removeTrack(video) }
    let byID: AVMutableCompositionTrack? = composition.track(withTrackID: 1)
    let immutable: AVComposition = composition
    let immutableByID: AVCompositionTrack? = immutable.track(withTrackID: 1)
    immutable.loadTrack(withTrackID: 1) { (track: AVCompositionTrack?, error: (any Error)?) in _ = (track, error) }
    immutable.loadTracks(withMediaType: .audio) { (tracks: [AVCompositionTrack]?, error: (any Error)?) in _ = (tracks, error) }
    let unused: CMPersistentTrackID = composition.unusedTrackID()
    let tracks: [AVAssetTrack] = composition.tracks
    let audio: [AVAssetTrack] = composition.tracks(withMediaType: .audio)
    let duration: CMTime = composition.duration
    let exportable: Bool = composition.isExportable
    _ = (size, options, compatible, byID, immutableByID, unused, tracks, audio, duration, exportable)
}

@Suite("AVComposition.h spelling")
struct AVCompositionSpellingTests {
    @Test func newCompositionIsEmpty() {
        let composition = AVMutableComposition()
        #expect(composition.tracks.isEmpty)
        #expect(composition.duration == .zero)
        #expect(composition.isExportable && composition.isComposable)
        let track = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)
        #expect(track?.trackID == 1)
        #expect(composition.unusedTrackID() == 2)
    }
}
