import Foundation

/// The complete part of a fragmented MP4 that stopped being written part-way (a full disk):
/// the header (`ftyp`, `moov`) and each `moof` whose `mdat` reached the file in full.
enum MP4Fragments {
    /// Where the file's complete part ends and how many fragments it holds; nil when not
    /// even the header is complete.
    static func completePart(of path: String) -> (length: Int64, fragments: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd() else { return nil }
        let fileSize = Int64(end)
        var offset: Int64 = 0
        var complete: Int64?  // end of the header, then of the last complete fragment
        var fragments = 0
        var moofStart: Int64?
        while offset + 8 <= fileSize {
            guard let (type, size) = box(at: offset, in: handle), size >= 8, offset + size <= fileSize else { break }
            switch type {
            case "moov": complete = offset + size
            case "moof": moofStart = offset
            case "mdat":
                if moofStart != nil, complete != nil {
                    fragments += 1
                    complete = offset + size
                }
                moofStart = nil
            default: break
            }
            offset += size
        }
        return complete.map { ($0, fragments) }
    }

    /// The type and size of the box at `offset` (a 64-bit size when the 32-bit one is 1);
    /// nil for a size of 0 ("to the end of the file"), which no finished box has.
    private static func box(at offset: Int64, in handle: FileHandle) -> (String, Int64)? {
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil, let head = try? handle.read(upToCount: 16), head.count >= 8 else {
            return nil
        }
        let bytes = [UInt8](head)
        let small = bytes[0..<4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let type = String(decoding: bytes[4..<8], as: UTF8.self)
        if small == 1 {
            guard bytes.count >= 16 else { return nil }
            let large = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard large <= UInt64(Int64.max) else { return nil }
            return (type, Int64(large))
        }
        return small == 0 ? nil : (type, small)
    }
}
