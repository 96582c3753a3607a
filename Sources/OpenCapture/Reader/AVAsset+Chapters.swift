import Foundation
import MediaIO

// The chapters of the deprecation walk (#30): libavformat's chapter list (MediaIO's
// MovieReader.chapters: an MP4's chapter track or 'chpl' box, Matroska chapters...) as
// timed metadata groups, each with the chapter's title over the chapter's time range.

extension AVAsset {
    /// The locales the chapters have: each chapter's language tag, "und" (undetermined)
    /// for a chapter without one; empty for an asset without chapters (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.availableChapterLocales) instead")
    public var availableChapterLocales: [Locale] { chapterLocales((try? describedFile().chapters) ?? []) }

    /// The chapters in `locale`, each a group with its title item (common key `title`)
    /// over the chapter's time range. Chapters of undetermined language belong to every
    /// locale. Titles are the only items read, so `commonKeys` filters nothing away
    /// (Apple always includes the title) (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use loadChapterMetadataGroups(withTitleLocale:containingItemsWithCommonKeys:) instead")
    public func chapterMetadataGroups(withTitleLocale locale: Locale, containingItemsWithCommonKeys commonKeys: [AVMetadataKey]?) -> [AVTimedMetadataGroup] {
        chapterGroups((try? describedFile().chapters) ?? [], languages: [locale.identifier])
    }

    /// The chapters in the first of `preferredLanguages` (BCP 47 tags) that has some,
    /// else those of undetermined language (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use loadChapterMetadataGroups(bestMatchingPreferredLanguages:) instead")
    public func chapterMetadataGroups(bestMatchingPreferredLanguages preferredLanguages: [String]) -> [AVTimedMetadataGroup] {
        chapterGroups((try? describedFile().chapters) ?? [], languages: preferredLanguages)
    }

    /// Loads `chapterMetadataGroups(withTitleLocale:containingItemsWithCommonKeys:)`.
    public func loadChapterMetadataGroups(withTitleLocale locale: Locale, containingItemsWithCommonKeys commonKeys: [AVMetadataKey] = []) async throws -> [AVTimedMetadataGroup] {
        chapterGroups(try describedFile().chapters, languages: [locale.identifier])
    }

    /// Loads `chapterMetadataGroups(bestMatchingPreferredLanguages:)`.
    public func loadChapterMetadataGroups(bestMatchingPreferredLanguages preferredLanguages: [String]) async throws -> [AVTimedMetadataGroup] {
        chapterGroups(try describedFile().chapters, languages: preferredLanguages)
    }

    func chapterLocales(_ chapters: [MovieChapter]) -> [Locale] {
        var seen: [String] = []
        for chapter in chapters where !seen.contains(chapter.language ?? "und") { seen.append(chapter.language ?? "und") }
        return seen.map { Locale(identifier: $0) }
    }

    /// The groups of the first language with chapters; undetermined chapters match any.
    private func chapterGroups(_ chapters: [MovieChapter], languages: [String]) -> [AVTimedMetadataGroup] {
        func primary(_ tag: String) -> String { String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased() }
        let undetermined = chapters.filter { $0.language == nil || $0.language == "und" }
        for language in languages.map(primary) {
            let matched = chapters.filter { chapter in chapter.language.map { primary($0) == language || ($0 == "und") } ?? true }
            if matched.count > undetermined.count { return matched.map(group) }
        }
        return undetermined.map(group)
    }

    private func group(_ chapter: MovieChapter) -> AVTimedMetadataGroup {
        let range = CMTimeRange(start: chapter.start, duration: chapter.duration)
        let item = AVMutableMetadataItem()
        item.keySpace = .common
        item.key = AVMetadataKey.commonKeyTitle.rawValue as NSString
        item.value = (chapter.title ?? "") as NSString
        item.time = range.start
        item.duration = range.duration
        item.locale = Locale(identifier: chapter.language ?? "und")
        return AVTimedMetadataGroup(items: [item], timeRange: range)
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == [Locale] {
    /// The replacement of the iOS 16-deprecated `availableChapterLocales`.
    public static var availableChapterLocales: AVAsyncProperty<Root, [Locale]> {
        .init("availableChapterLocales") { try $0.chapterLocales($0.describedFile().chapters) }
    }
}
