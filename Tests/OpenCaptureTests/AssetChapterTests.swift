import Foundation
import Testing

@testable import OpenCapture

/// The iOS 16-deprecated chapter accessors of the deprecation walk (#30) on an MP4 ffmpeg
/// wrote with chapters from an FFMETADATA1 file.
@Suite("Asset chapters")
struct AssetChapterTests {
    static func chaptered() throws -> URL {
        let plain = try AssetReaderFixture.video("mp4", frames: 20, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: plain) }
        let text = AssetWriterFixture.temporaryURL("txt")
        defer { try? FileManager.default.removeItem(at: text) }
        let chapters = ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1000\ntitle=Opening\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1000\nEND=2000\ntitle=Closing\n"
        try chapters.write(to: text, atomically: true, encoding: .utf8)
        return try AssetReaderFixture.ffmpeg("mp4", input: ["-i", plain.path, "-i", text.path], ["-map_metadata", "1", "-codec", "copy"])
    }

    @Test("two chapters: one undetermined locale, a title group over each chapter's range, sync and loaded")
    func chapters() async throws {
        let url = try Self.chaptered()
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        #expect(asset.availableChapterLocales.map(\.identifier) == ["und"])
        #expect(try await asset.load(.availableChapterLocales).count == 1)
        let groups = asset.chapterMetadataGroups(withTitleLocale: Locale(identifier: "en_US"), containingItemsWithCommonKeys: nil)
        #expect(groups.count == 2)
        let titles = groups.map { $0.items.first?.stringValue }
        #expect(titles == ["Opening", "Closing"])
        #expect(groups.allSatisfy { $0.items.first?.commonKey == .commonKeyTitle })
        #expect(groups.map(\.timeRange) == [
            CMTimeRange(start: .zero, duration: CMTime(value: 1000, timescale: 1000)),
            CMTimeRange(start: CMTime(value: 1000, timescale: 1000), duration: CMTime(value: 1000, timescale: 1000)),
        ])
        #expect(groups.last?.items.first?.time == CMTime(value: 1000, timescale: 1000))
        let best = try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: ["fr-FR", "en"])
        #expect(best.map { $0.items.first?.stringValue } == ["Opening", "Closing"])
        #expect(asset.chapterMetadataGroups(bestMatchingPreferredLanguages: []).count == 2)
    }

    @Test("a file without chapters has no locales and no groups; an unreadable file fails the loads")
    func none() async throws {
        let url = try AssetReaderFixture.video("mp4", frames: 5, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        #expect(asset.availableChapterLocales.isEmpty)
        #expect(try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: ["en"]).isEmpty)
        let missing = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).mp4"))
        await #expect(throws: (any Error).self) { try await missing.load(.availableChapterLocales) }
        #expect(missing.chapterMetadataGroups(withTitleLocale: .current, containingItemsWithCommonKeys: nil).isEmpty)
    }
}
