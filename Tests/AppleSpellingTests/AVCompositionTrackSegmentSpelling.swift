// AVCompositionTrackSegment.h and AVAssetTrackSegment.h, spelled as iOS code spells them.
import AVFoundation
import Testing

/// Touches the segment declarations; compiled, never called.
func spellAVCompositionTrackSegment(_ url: URL) {
    let range = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
    let segment = AVCompositionTrackSegment(url: url, trackID: 1, sourceTimeRange: range, targetTimeRange: range)
    let empty = AVCompositionTrackSegment(timeRange: range)
    let isEmpty: Bool = empty.isEmpty
    let source: URL? = segment.sourceURL
    let trackID: CMPersistentTrackID = segment.sourceTrackID
    let mapping: CMTimeMapping = segment.timeMapping
    let base: AVAssetTrackSegment = segment
    _ = (isEmpty, source, trackID, mapping, base)
}

@Suite("AVCompositionTrackSegment.h spelling")
struct AVCompositionTrackSegmentSpellingTests {
    @Test func emptyAndMediaSegments() {
        let range = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        let empty = AVCompositionTrackSegment(timeRange: range)
        #expect(empty.isEmpty && empty.sourceURL == nil && !empty.timeMapping.source.start.isValid)
        let media = AVCompositionTrackSegment(url: URL(fileURLWithPath: "/tmp/clip.mov"), trackID: 2, sourceTimeRange: range, targetTimeRange: range)
        #expect(!media.isEmpty && media.sourceTrackID == 2 && media.timeMapping.target == range)
    }
}
