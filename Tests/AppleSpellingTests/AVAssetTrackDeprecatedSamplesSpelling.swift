// The AVAssetTrack.h declarations of the iOS 16 deprecation walk (#30) for segments,
// samples, language tags and track associations, each beside its replacement, and the
// composition track's refined segments, as iOS code spells them.
import AVFoundation
import Testing

/// Touches the declarations; compiled, never called.
func spellAssetTrackDeprecatedSamples(_ track: AVAssetTrack, _ compositionTrack: AVCompositionTrack, _ mutable: AVMutableCompositionTrack) async throws {
    let time = CMTime(value: 1, timescale: 2)
    let segments: [AVAssetTrackSegment] = track.segments
    let segment: AVAssetTrackSegment? = track.segment(forTrackTime: time)
    let loadedSegments: [AVAssetTrackSegment] = try await track.load(.segments)
    let loadedSegment: AVAssetTrackSegment? = try await track.loadSegment(forTrackTime: time)
    let presentation: CMTime = track.samplePresentationTime(forTrackTime: time)
    let loadedPresentation: CMTime = try await track.loadSamplePresentationTime(forTrackTime: time)
    let tag: String? = track.extendedLanguageTag
    let loadedTag: String? = try await track.load(.extendedLanguageTag)
    let length: Int64 = track.totalSampleDataLength
    let loadedLength: Int64 = try await track.load(.totalSampleDataLength)
    let dependencies: Bool = track.hasAudioSampleDependencies
    let loadedDependencies: Bool = try await track.load(.hasAudioSampleDependencies)
    let types: [AVAssetTrack.AssociationType] = track.availableTrackAssociationTypes
    let loadedTypes: [AVAssetTrack.AssociationType] = try await track.load(.availableTrackAssociationTypes)
    let associated: [AVAssetTrack] = track.associatedTracks(ofType: .chapterList)
    let loadedAssociated: [AVAssetTrack] = try await track.loadAssociatedTracks(ofType: .timecode)
    // The composition tracks' refined forms.
    let compositionSegments: [AVCompositionTrackSegment] = compositionTrack.segments
    let compositionSegment: AVCompositionTrackSegment? = compositionTrack.segment(forTrackTime: time)
    mutable.segments = compositionSegments
    let mutableSegment: AVCompositionTrackSegment? = mutable.segment(forTrackTime: time)
    let asBase: AVAssetTrack = mutable
    let baseSegments: [AVAssetTrackSegment] = asBase.segments
    _ = (segments, segment, loadedSegments, loadedSegment, presentation, loadedPresentation, tag, loadedTag, length, loadedLength)
    _ = (dependencies, loadedDependencies, types, loadedTypes, associated, loadedAssociated, compositionSegment, mutableSegment, baseSegments)
}

/// A track subclass overriding the deprecated accessors as Apple's subclass would.
final class SpellingDeprecatedSamplesTrack: AVAssetTrack, @unchecked Sendable {
    override var segments: [AVAssetTrackSegment] { super.segments }
    override func segment(forTrackTime trackTime: CMTime) -> AVAssetTrackSegment? { super.segment(forTrackTime: trackTime) }
    override func samplePresentationTime(forTrackTime trackTime: CMTime) -> CMTime { super.samplePresentationTime(forTrackTime: trackTime) }
    override var extendedLanguageTag: String? { super.extendedLanguageTag }
    override var totalSampleDataLength: Int64 { super.totalSampleDataLength }
    override var hasAudioSampleDependencies: Bool { super.hasAudioSampleDependencies }
    override var availableTrackAssociationTypes: [AVAssetTrack.AssociationType] { super.availableTrackAssociationTypes }
    override func associatedTracks(ofType trackAssociationType: AVAssetTrack.AssociationType) -> [AVAssetTrack] {
        super.associatedTracks(ofType: trackAssociationType)
    }
}

@Suite("AVAssetTrack deprecated samples spelling")
struct AVAssetTrackDeprecatedSamplesSpellingTests {
    @Test("an empty composition track has no segments, seen as itself or as an AVAssetTrack")
    func emptyCompositionTrack() throws {
        let track = try #require(AVMutableComposition().addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        let base: AVAssetTrack = track
        #expect(track.segments.isEmpty && base.segments.isEmpty)
        #expect(track.segment(forTrackTime: .zero) == nil && base.segment(forTrackTime: .zero) == nil)
        #expect(base.samplePresentationTime(forTrackTime: .zero) == .invalid)
        #expect(base.availableTrackAssociationTypes.isEmpty && base.extendedLanguageTag == nil)
    }
}

/// The AVAsset.h fragment and protection accessors (#30) beside their replacements.
func spellAssetDeprecatedFragments(_ asset: AVAsset) async throws {
    let protected: Bool = asset.hasProtectedContent
    let loadedProtected: Bool = try await asset.load(.hasProtectedContent)
    let canContain: Bool = asset.canContainFragments
    let loadedCanContain: Bool = try await asset.load(.canContainFragments)
    let contains: Bool = asset.containsFragments
    let loadedContains: Bool = try await asset.load(.containsFragments)
    let hint: CMTime = asset.overallDurationHint
    let loadedHint: CMTime = try await asset.load(.overallDurationHint)
    _ = (protected, loadedProtected, canContain, loadedCanContain, contains, loadedContains, hint, loadedHint)
}

/// An asset subclass overriding them.
final class SpellingDeprecatedFragmentsAsset: AVURLAsset, @unchecked Sendable {
    override var hasProtectedContent: Bool { super.hasProtectedContent }
    override var canContainFragments: Bool { super.canContainFragments }
    override var containsFragments: Bool { super.containsFragments }
    override var overallDurationHint: CMTime { super.overallDurationHint }
}
