// AVCompositionTrack.h, spelled as iOS code spells it.
import AVFoundation
import Testing

/// Touches the composition-track declarations; compiled, never called.
func spellAVCompositionTrack(_ track: AVMutableCompositionTrack, _ assetTrack: AVAssetTrack) throws {
    let range = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
    try track.insertTimeRange(range, of: assetTrack, at: .zero)
    track.insertEmptyTimeRange(range)
    track.removeTimeRange(range)
    track.scaleTimeRange(range, toDuration: CMTime(value: 2, timescale: 1))
    try track.validateSegments(track.segments)
    track.segments = []
    let segments: [AVCompositionTrackSegment] = track.segments
    let segment: AVCompositionTrackSegment? = track.segment(forTrackTime: .zero)
    track.isEnabled = false
    let enabled: Bool = track.isEnabled
    track.naturalTimeScale = 600
    let timeScale: CMTimeScale = track.naturalTimeScale
    track.languageCode = "eng"
    let language: String? = track.languageCode
    track.extendedLanguageTag = "en-GB"
    let tag: String? = track.extendedLanguageTag
    track.preferredTransform = .identity
    let transform: CGAffineTransform = track.preferredTransform
    track.preferredVolume = 0.5
    let volume: Float = track.preferredVolume
    let base: AVCompositionTrack = track
    let baseSegments: [AVCompositionTrackSegment] = base.segments
    _ = (segments, segment, enabled, timeScale, language, tag, transform, volume, baseSegments)
}

@Suite("AVCompositionTrack.h spelling")
struct AVCompositionTrackSpellingTests {
    @Test func emptyTrack() throws {
        let track = try #require(AVMutableComposition().addMutableTrack(withMediaType: .audio, preferredTrackID: 5))
        #expect(track.trackID == 5 && track.mediaType == .audio)
        #expect(track.segments.isEmpty && track.isEnabled && track.preferredVolume == 1)
        #expect(track.naturalTimeScale == 600, "600 without media, as the header says")
    }
}
