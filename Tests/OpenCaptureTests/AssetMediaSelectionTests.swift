import Foundation
import Testing

@testable import OpenCapture

/// The iOS 16-deprecated media selection groups of the deprecation walk (#30): a file's
/// 'tkhd' alternate groups as groups of options (ffmpeg's MP4 muxer puts audio tracks in
/// group 1, subtitle tracks in group 3, video in none).
@Suite("Asset media selection groups")
struct AssetMediaSelectionTests {
    /// An MP4 with video, English and French sound, and English and German subtitles.
    private static func movie() throws -> URL {
        let subtitles = AssetWriterFixture.temporaryURL("srt")
        try "1\n00:00:00,000 --> 00:00:00,400\nHello\n".write(to: subtitles, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: subtitles) }
        return try AssetReaderFixture.ffmpeg(
            "mp4",
            input: [
                "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-f", "lavfi", "-i", "sine=frequency=440", "-f", "lavfi", "-i",
                "sine=frequency=880", "-i", subtitles.path, "-i", subtitles.path,
            ],
            [
                "-t", "0.5", "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-map", "4", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-c:s", "mov_text", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
                "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=deu",
            ])
    }

    @Test("two sound tracks of different languages make one audible group of two options")
    func audibleGroup() async throws {
        let url = try Self.movie()
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let audio = asset.tracks(withMediaType: .audio)
        #expect(audio.count == 2)
        #expect(asset.availableMediaCharacteristicsWithMediaSelectionOptions == [.audible, .legible])
        #expect(try await asset.load(.availableMediaCharacteristicsWithMediaSelectionOptions) == [.audible, .legible])

        let group = try #require(asset.mediaSelectionGroup(forMediaCharacteristic: .audible))
        #expect(group.options.map { $0.track.trackID } == audio.map(\.trackID))
        #expect(group.options.map(\.extendedLanguageTag) == ["en", "fr"])
        #expect(group.options.map { $0.locale?.languageCode } == ["en", "fr"])
        #expect(group.options.map { $0.displayName(with: Locale(identifier: "en")) } == ["English", "French"])
        #expect(group.options.allSatisfy { $0.mediaType == .audio && $0.hasMediaCharacteristic(.audible) && !$0.hasMediaCharacteristic(.legible) })
        #expect(group.options.allSatisfy { $0.isPlayable && $0.mediaSubTypes == [NSNumber(value: kAudioFormatMPEG4AAC)] })
        // ffmpeg enables the first track of each kind; sound cannot be switched off.
        #expect(group.defaultOption == group.options.first)
        #expect(!group.allowsEmptySelection)
        // The async form gives an equal group; a property list finds its option again.
        #expect(try await asset.loadMediaSelectionGroup(for: .audible) == group)
        let french = group.options[1]
        #expect(group.mediaSelectionOption(withPropertyList: french.propertyList()) === french)
        #expect(group.mediaSelectionOption(withPropertyList: ["nothing": 1]) == nil)

        #expect(AVMediaSelectionGroup.mediaSelectionOptions(from: group.options, with: Locale(identifier: "fr_CA")) == [french])
        #expect(
            AVMediaSelectionGroup.mediaSelectionOptions(from: group.options, filteredAndSortedAccordingToPreferredLanguages: ["fr-FR", "de", "en"])
                == [french, group.options[0]])
        #expect(AVMediaSelectionGroup.mediaSelectionOptions(from: group.options, withMediaCharacteristics: [.audible]) == group.options)
        #expect(AVMediaSelectionGroup.mediaSelectionOptions(from: group.options, withoutMediaCharacteristics: [.audible]).isEmpty)
        #expect(AVMediaSelectionGroup.playableMediaSelectionOptions(from: group.options) == group.options)
    }

    @Test("subtitle tracks make a legible group that may be empty; video in no alternate group makes none")
    func legibleGroup() async throws {
        let url = try Self.movie()
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(group.options.map(\.mediaType) == [.subtitle, .subtitle])
        #expect(group.options.map(\.extendedLanguageTag) == ["en", "de"])
        #expect(group.options.allSatisfy { $0.hasMediaCharacteristic(.legible) && $0.mediaSubTypes == [NSNumber(value: FourCharCode(0x7478_3367))] })
        #expect(group.allowsEmptySelection)
        #expect(group.defaultOption == group.options.first)
        #expect(asset.mediaSelectionGroup(forMediaCharacteristic: .visual) == nil)
        #expect(asset.mediaSelectionGroup(forMediaCharacteristic: .frameBased) == nil)
        // No 'folw' reference: a sound option has no associated subtitle option.
        let audible = try #require(asset.mediaSelectionGroup(forMediaCharacteristic: .audible))
        #expect(audible.options[0].associatedMediaSelectionOption(in: group) == nil)
    }

    @Test("media selections: the defaults, every combination, and a mutable copy that selects")
    func selections() async throws {
        let url = try Self.movie()
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let audible = try #require(asset.mediaSelectionGroup(forMediaCharacteristic: .audible))
        let legible = try #require(asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        let preferred = asset.preferredMediaSelection
        #expect(preferred.asset === asset)
        #expect(preferred.selectedMediaOption(in: audible) == audible.defaultOption)
        #expect(preferred.selectedMediaOption(in: legible) == legible.defaultOption)
        #expect(preferred.mediaSelectionCriteriaCanBeAppliedAutomatically(to: audible))
        #expect(try await asset.load(.preferredMediaSelection) == preferred)

        // Two sound options times two subtitle options.
        let all = try await asset.load(.allMediaSelections)
        #expect(all.count == 4)
        #expect(Set(all.map { [$0.selectedMediaOption(in: audible)?.extendedLanguageTag, $0.selectedMediaOption(in: legible)?.extendedLanguageTag] })
            == [["en", "en"], ["en", "de"], ["fr", "en"], ["fr", "de"]])
        #expect(asset.allMediaSelections.contains(preferred))

        let mutable = try #require(preferred.mutableCopy() as? AVMutableMediaSelection)
        mutable.select(audible.options[1], in: audible)
        #expect(mutable.selectedMediaOption(in: audible) == audible.options[1])
        #expect(!mutable.mediaSelectionCriteriaCanBeAppliedAutomatically(to: audible))
        #expect(mutable.mediaSelectionCriteriaCanBeAppliedAutomatically(to: legible))
        // Sound cannot be switched off, subtitles can; an option of another group changes nothing.
        mutable.select(nil, in: audible)
        #expect(mutable.selectedMediaOption(in: audible) == audible.options[1])
        mutable.select(legible.options[1], in: audible)
        #expect(mutable.selectedMediaOption(in: audible) == audible.options[1])
        mutable.select(nil, in: legible)
        #expect(mutable.selectedMediaOption(in: legible) == nil)
        #expect(preferred.selectedMediaOption(in: audible) == audible.defaultOption, "the copy is separate")
        #expect(mutable != preferred)
    }

    @Test("a video-only MP4 and a Matroska file have no groups; an unreadable file answers nil and fails the loads")
    func none() async throws {
        let mp4 = try AssetReaderFixture.video("mp4", frames: 5, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let mkv = try AssetReaderFixture.ffmpeg(
            "mkv", input: ["-f", "lavfi", "-i", "sine=frequency=440", "-f", "lavfi", "-i", "sine=frequency=880"],
            ["-t", "0.5", "-map", "0", "-map", "1", "-c:a", "flac"])
        defer {
            try? FileManager.default.removeItem(at: mp4)
            try? FileManager.default.removeItem(at: mkv)
        }
        let video = AVURLAsset(url: mp4)
        #expect(video.availableMediaCharacteristicsWithMediaSelectionOptions.isEmpty)
        #expect(video.mediaSelectionGroup(forMediaCharacteristic: .visual) == nil)
        #expect(try await video.loadMediaSelectionGroup(for: .audible) == nil)
        let matroska = AVURLAsset(url: mkv)
        #expect(matroska.tracks(withMediaType: .audio).count == 2)
        #expect(try await matroska.load(.availableMediaCharacteristicsWithMediaSelectionOptions).isEmpty)
        #expect(try await matroska.loadMediaSelectionGroup(for: .audible) == nil)
        // No groups: one selection, of none.
        #expect(video.allMediaSelections.count == 1)
        #expect(try await matroska.load(.allMediaSelections).count == 1)

        let missing = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).mp4"))
        #expect(missing.mediaSelectionGroup(forMediaCharacteristic: .audible) == nil)
        #expect(missing.availableMediaCharacteristicsWithMediaSelectionOptions.isEmpty)
        await #expect(throws: (any Error).self) { try await missing.loadMediaSelectionGroup(for: .audible) }
        await #expect(throws: (any Error).self) { try await missing.load(.availableMediaCharacteristicsWithMediaSelectionOptions) }
        await #expect(throws: (any Error).self) { try await missing.load(.preferredMediaSelection) }
        let failed: (AVMediaSelectionGroup?, Bool) = await withCheckedContinuation { done in
            missing.loadMediaSelectionGroup(for: .audible) { group, error in done.resume(returning: (group, error != nil)) }
        }
        #expect(failed.0 == nil && failed.1)
    }
}
