import Foundation
import Testing

@testable import MediaIO

/// MP4 boxes whose 64-bit sizes are lies (issue 26): `Int(UInt64)` trapped above Int.max
/// and `offset + size` overflowed; such a box now ends the walk.
@Suite("MP4 box sizes from hostile files")
struct BoxSizeHostileTests {
    /// A box with a 64-bit size ("size 1", then the claimed size) and 8 payload bytes: 24 bytes in all.
    static func wideBox(_ type: String, size: UInt64) -> Data {
        BoxCoding.uint32(1) + BoxCoding.uint32(BoxCoding.fourCC(type)) + BoxCoding.uint32(UInt32(size >> 32))
            + BoxCoding.uint32(UInt32(truncatingIfNeeded: size)) + Data(count: 8)
    }

    @Test("children() stops at a 64-bit size above Int.max, or one that overflows the offset, keeping the boxes before", arguments: [
        UInt64.max, UInt64(Int64.max), UInt64(Int64.max) - 4, 25,
    ])
    func childrenStopAtHugeSizes(size: UInt64) {
        let data = BoxCoding.box("free", Data(count: 4)) + Self.wideBox("mdat", size: size)
        let found = BoxCoding.children(data)
        #expect(found.count == 1)
        #expect(found.first?.type == BoxCoding.fourCC("free"))
    }

    @Test("findTopLevel and the metadata key reader stop at a top-level box of size 0xFFFFFFFFFFFFFFFF")
    func topLevelWalkStops() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oc-boxes-\(getpid())-\(UUID().uuidString.prefix(8)).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        try (BoxCoding.box("ftyp", Data("isom".utf8) + Data(count: 4)) + Self.wideBox("mdat", size: .max) + BoxCoding.box("moov", Data()))
            .write(to: url)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        #expect(MetadataTrackRewrite.findTopLevel("moov", in: handle) == nil)
        #expect(MovieMetadataTrackReader.keys(url: url, trackID: 1) == nil)
        // A box that claims more than the file holds is no box either.
        try (BoxCoding.box("ftyp", Data(count: 8)) + BoxCoding.uint32(4096) + BoxCoding.uint32(BoxCoding.fourCC("moov"))).write(to: url)
        let short = try FileHandle(forReadingFrom: url)
        defer { try? short.close() }
        #expect(MetadataTrackRewrite.findTopLevel("moov", in: short) == nil)
    }

    @Test("saturating arithmetic holds file times to Int64's range")
    func saturating() {
        #expect(SaturatingInt64.rounded(.nan) == 0)
        #expect(SaturatingInt64.rounded(1e300) == .max && SaturatingInt64.rounded(-1e300) == .min)
        #expect(SaturatingInt64.rounded(2.5) == 3)
        #expect(SaturatingInt64.sum(.max, 1) == .max && SaturatingInt64.sum(.min, -1) == .min)
        #expect(SaturatingInt64.difference(.max, -1) == .max && SaturatingInt64.difference(.min, 1) == .min)
        #expect(SaturatingInt64.difference(10, 3) == 7)
    }
}
