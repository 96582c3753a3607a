import CaptureCore
import Foundation

/// What an ISO base-media file (MP4, MOV, M4A) says in its boxes that libavformat does
/// not expose: each track's references ('tref'), whether the movie may be fragmented
/// ('mvex', with its 'mehd' duration) and how many movie fragments ('moof') it has.
///
/// Only the top-level box headers and the 'moov' box are read; a file that is not ISO
/// base media gives the empty summary.
package struct MovieFileBoxes: Sendable, Equatable {
    /// One track reference: a four-character type ("cdsc", "chap", "fall"...) and the
    /// track IDs it names.
    package struct Reference: Sendable, Equatable {
        package var type: String
        package var trackIDs: [Int32]
    }

    /// The references each track ('tkhd' track ID) makes, in the file's order.
    package var references: [Int32: [Reference]] = [:]
    /// Each track's BCP 47 language tag ('mdia'/'elng'), for the tracks that have one.
    package var extendedLanguageTags: [Int32: String] = [:]
    /// Some track's sample entry is an encrypted one ('encv', 'enca', 'enct', 'encs':
    /// ISO common encryption, Apple's FairPlay files included).
    package var hasEncryptedTrack = false
    /// Each track's non-zero 'tkhd' alternate group, by track ID.
    package var alternateGroups: [Int32: Int] = [:]
    /// The tracks whose 'tkhd' flags mark them enabled (bit 0), by track ID.
    package var enabledTracks: Set<Int32> = []
    /// Each track's media handler type ('mdia'/'hdlr': "vide", "soun", "sbtl", "text"...).
    package var handlerTypes: [Int32: String] = [:]
    /// The movie has a movie-extends box: it may have fragments.
    package var hasMovieExtends = false
    /// The fragment duration the 'mehd' box gives (in the movie time scale); nil without one.
    package var fragmentDuration: CMTime?
    /// How many top-level 'moof' boxes the file has.
    package var fragmentCount = 0

    /// The largest 'moov' read: far above any real movie header.
    private static let largestMovieBox = 64 << 20

    package init() {}

    /// Reads the file's top-level boxes and its 'moov'.
    package init(url: URL) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return }
        defer { try? handle.close() }
        var offset: UInt64 = 0
        let end = (try? handle.seekToEnd()) ?? 0
        while offset + 8 <= end {
            guard (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 16), header.count >= 8 else { break }
            var size = UInt64(BoxCoding.readUInt32(header, 0))
            let type = BoxCoding.readUInt32(header, 4)
            var headerSize: UInt64 = 8
            if size == 1 {
                guard header.count == 16 else { break }
                size = BoxCoding.readUInt64(header, 8)
                headerSize = 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= headerSize, size <= end - offset else { break }
            if type == BoxCoding.fourCC("moof") { fragmentCount += 1 }
            if type == BoxCoding.fourCC("moov"), size - headerSize <= UInt64(Self.largestMovieBox) {
                guard (try? handle.seek(toOffset: offset + headerSize)) != nil,
                    let payload = try? handle.read(upToCount: Int(size - headerSize))
                else { break }
                readMovie(payload)
            }
            offset += size
        }
    }

    private mutating func readMovie(_ movie: Data) {
        var timeScale: Int32 = 0
        for (type, payload) in BoxCoding.children(movie) {
            switch type {
            case BoxCoding.fourCC("mvhd") where payload.count >= 24:
                timeScale = Int32(bitPattern: BoxCoding.readUInt32(payload, payload[payload.startIndex] == 1 ? 20 : 12))
            case BoxCoding.fourCC("mvex"):
                hasMovieExtends = true
                for (childType, child) in BoxCoding.children(payload) where childType == BoxCoding.fourCC("mehd") && child.count >= 8 {
                    let version = child[child.startIndex]
                    let value = version == 1 && child.count >= 12 ? BoxCoding.readUInt64(child, 4) : UInt64(BoxCoding.readUInt32(child, 4))
                    if let value = Int64(exactly: value), timeScale > 0 { fragmentDuration = CMTime(value: value, timescale: timeScale) }
                }
            case BoxCoding.fourCC("trak"):
                readTrack(payload)
            default:
                break
            }
        }
    }

    private mutating func readTrack(_ track: Data) {
        var trackID: Int32?
        var found: [Reference] = []
        var language: String?
        var alternate = 0
        var enabled = false
        var handler: String?
        for (type, payload) in BoxCoding.children(track) {
            if type == BoxCoding.fourCC("tkhd"), payload.count >= 24 {
                let version1 = payload[payload.startIndex] == 1
                enabled = payload[payload.startIndex + 3] & 1 != 0
                trackID = Int32(bitPattern: BoxCoding.readUInt32(payload, version1 ? 20 : 12))
                // After the times, ID, duration, reserved words and layer: the alternate group.
                let at = payload.startIndex + (version1 ? 46 : 34)
                if payload.endIndex >= at + 2 { alternate = Int(payload[at]) << 8 | Int(payload[at + 1]) }
            } else if type == BoxCoding.fourCC("mdia") {
                // 'elng': version and flags, then a NUL-terminated tag.
                for (childType, child) in BoxCoding.children(payload) where childType == BoxCoding.fourCC("elng") && child.count > 4 {
                    let tag = String(decoding: child.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
                    if !tag.isEmpty { language = tag }
                }
                // 'hdlr': version and flags, a predefined word, then the handler type.
                for (childType, child) in BoxCoding.children(payload) where childType == BoxCoding.fourCC("hdlr") && child.count >= 12 {
                    handler = Self.text(BoxCoding.readUInt32(child, 8))
                }
                if Self.hasEncryptedEntry(mediaBox: payload) { hasEncryptedTrack = true }
            } else if type == BoxCoding.fourCC("tref") {
                for (referenceType, ids) in BoxCoding.children(payload) {
                    let named = (0..<ids.count / 4).map { Int32(bitPattern: BoxCoding.readUInt32(ids, $0 * 4)) }
                    found.append(Reference(type: Self.text(referenceType), trackIDs: named))
                }
            }
        }
        guard let trackID else { return }
        if !found.isEmpty { references[trackID, default: []] += found }
        if let language { extendedLanguageTags[trackID] = language }
        if alternate != 0 { alternateGroups[trackID] = alternate }
        if enabled { enabledTracks.insert(trackID) }
        if let handler { handlerTypes[trackID] = handler }
    }

    /// Whether 'mdia'/'minf'/'stbl'/'stsd' lists an encrypted sample entry.
    private static func hasEncryptedEntry(mediaBox: Data) -> Bool {
        let encrypted: Set<UInt32> = Set(["encv", "enca", "enct", "encs"].map(BoxCoding.fourCC))
        for (type, information) in BoxCoding.children(mediaBox) where type == BoxCoding.fourCC("minf") {
            for (tableType, table) in BoxCoding.children(information) where tableType == BoxCoding.fourCC("stbl") {
                for (entryType, descriptions) in BoxCoding.children(table) where entryType == BoxCoding.fourCC("stsd") && descriptions.count > 8 {
                    // Version, flags and entry count, then the sample entries as boxes.
                    if BoxCoding.children(descriptions.dropFirst(8)).contains(where: { encrypted.contains($0.type) }) { return true }
                }
            }
        }
        return false
    }

    private static func text(_ code: UInt32) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }, as: UTF8.self)
    }
}
