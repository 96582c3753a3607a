/// Apple's EXIF maker note, as iPhones write it: "Apple iOS\0", version 1, "MM", then a
/// big-endian IFD whose offsets count from the note's first byte. Only tag 0x0011 is
/// written: the Live Photo content identifier (exiftool 12.19+: Apple:MediaGroupUUID,
/// the same value as the movie's QuickTime com.apple.quicktime.content.identifier).
enum AppleMakerNote {
    static let header: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)
    static let contentIdentifierTag: UInt16 = 0x0011

    static func bytes(contentIdentifier: String) -> [UInt8] {
        func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        let value = Array(contentIdentifier.utf8) + [0]
        var out = header + be16(1)
        let valueOffset = out.count + 12 + 4
        out += be16(contentIdentifierTag) + be16(2) + be32(UInt32(value.count))
        out += value.count <= 4 ? value + [UInt8](repeating: 0, count: 4 - value.count) : be32(UInt32(valueOffset))
        out += be32(0)  // no next IFD
        if value.count > 4 { out += value }
        return out
    }

    /// The content identifier in a note written as `bytes` writes it (or by an iPhone).
    static func contentIdentifier(in note: [UInt8]) -> String? {
        guard note.count >= header.count + 2, Array(note[0..<header.count]) == header else { return nil }
        func be16(_ at: Int) -> Int { Int(note[at]) << 8 | Int(note[at + 1]) }
        func be32(_ at: Int) -> Int { be16(at) << 16 | be16(at + 2) }
        let entries = be16(header.count)
        for index in 0..<entries {
            let entry = header.count + 2 + 12 * index
            guard entry + 12 <= note.count else { return nil }
            guard be16(entry) == Int(contentIdentifierTag), be16(entry + 2) == 2 else { continue }
            let count = be32(entry + 4)
            let start = count <= 4 ? entry + 8 : be32(entry + 8)
            guard count > 0, start >= 0, start + count <= note.count else { return nil }
            let bytes = note[start..<(start + count)].prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        return nil
    }
}
