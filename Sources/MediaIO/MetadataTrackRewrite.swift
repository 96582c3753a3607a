import Foundation

/// Turns the data tracks libavformat writes for timed metadata into boxed-metadata tracks.
///
/// FFmpeg 5.1's mov muxer has no 'mebx' sample entry, so a metadata track is muxed as a
/// binary-data stream (a 'gpmd' entry, 'meta' handler, 'gmhd' header); this rewrites that
/// track's boxes in the 'moov' as QuickTime and ISO 14496-12 define timed metadata: the
/// 'mebx' entry with its key table, the 'nmhd' header, the handler's name, and a 'cdsc'
/// track reference to the video it describes. The samples in the 'mdat' are not touched.
/// When the 'moov' comes before the media (fast start), every chunk offset moves by the
/// growth of the 'moov'.
struct MetadataTrackRewrite {
    /// The metadata tracks by track ID ('tkhd').
    var tracks: [UInt32: MovieMetadataTrackSettings]
    /// The video track's ID, for the 'cdsc' references; nil without video.
    var videoTrackID: UInt32?

    private static let containers: Set<UInt32> = Set(["moov", "trak", "mdia", "minf", "stbl"].map(BoxCoding.fourCC))

    /// The rewritten 'moov' box (header included), chunk offsets moved by `shift`.
    func moov(_ box: Data, shift: Int64) -> Data {
        let payload = BoxCoding.children(box).first?.payload ?? Data()
        return BoxCoding.box("moov", container(payload, track: nil, shift: shift))
    }

    private func container(_ payload: Data, track: UInt32?, shift: Int64) -> Data {
        var track = track
        var out = Data()
        for child in BoxCoding.children(payload) {
            let type = child.type
            if type == BoxCoding.fourCC("tkhd") {
                let version = child.payload.first ?? 0
                track = BoxCoding.readUInt32(child.payload, version == 1 ? 20 : 12)
                out += BoxCoding.box(type, child.payload)
                if let track, let settings = tracks[track], settings.describesVideo, let videoTrackID {
                    out += BoxCoding.box("tref", BoxCoding.box("cdsc", BoxCoding.uint32(videoTrackID)))
                }
                continue
            }
            let metadata = track.flatMap { tracks[$0] }
            switch type {
            case _ where Self.containers.contains(type):
                out += BoxCoding.box(type, container(child.payload, track: track, shift: shift))
            case BoxCoding.fourCC("stsd") where metadata != nil:
                out += BoxCoding.box(type, child.payload.prefix(4) + BoxCoding.uint32(1) + metadata!.sampleEntry)
            case BoxCoding.fourCC("gmhd") where metadata != nil:
                out += BoxCoding.box("nmhd", Data(count: 4))
            case BoxCoding.fourCC("hdlr") where metadata != nil && child.payload.count >= 12 && BoxCoding.readUInt32(child.payload, 8) == BoxCoding.fourCC("meta"):
                out += BoxCoding.box(type, Self.handler(child.payload, name: "Core Media Metadata"))
            case BoxCoding.fourCC("stco") where shift != 0:
                out += BoxCoding.box(type, Self.offsets(child.payload, width: 4, shift: shift))
            case BoxCoding.fourCC("co64") where shift != 0:
                out += BoxCoding.box(type, Self.offsets(child.payload, width: 8, shift: shift))
            default:
                out += BoxCoding.box(type, child.payload)
            }
        }
        return out
    }

    /// A 'hdlr' payload with another name, in the form it had (QuickTime's counted string,
    /// ISO's terminated one).
    private static func handler(_ payload: Data, name: String) -> Data {
        let fixed = payload.prefix(24)
        let old = payload.dropFirst(24)
        let counted = old.first.map { Int($0) == old.count - 1 } ?? false
        let text = Data(name.utf8)
        return fixed + (counted ? Data([UInt8(text.count)]) + text : text + Data([0]))
    }

    private static func offsets(_ payload: Data, width: Int, shift: Int64) -> Data {
        var out = Data(payload.prefix(8))
        let count = Int(BoxCoding.readUInt32(payload, 4))
        for index in 0..<count where 8 + (index + 1) * width <= payload.count {
            let offset = 8 + index * width
            if width == 4 {
                out += BoxCoding.uint32(UInt32(truncatingIfNeeded: Int64(BoxCoding.readUInt32(payload, offset)) + shift))
            } else {
                let moved = UInt64(bitPattern: Int64(bitPattern: BoxCoding.readUInt64(payload, offset)) &+ shift)
                out += BoxCoding.uint32(UInt32(moved >> 32)) + BoxCoding.uint32(UInt32(truncatingIfNeeded: moved))
            }
        }
        return out
    }

    /// Rewrites the 'moov' of a closed, unfragmented file in place: the 'moov' is rewritten
    /// where it ends the file, or, before the media, the file is rewritten with the media moved.
    func rewriteFile(at path: String) throws(MovieWriterError) {
        let url = URL(fileURLWithPath: path)
        guard let handle = try? FileHandle(forUpdating: url) else { throw .io("cannot reopen \(path)") }
        defer { try? handle.close() }
        guard let (moovOffset, moovSize, fileSize) = Self.findTopLevel("moov", in: handle) else { throw .io("\(path) has no moov") }
        guard (try? handle.seek(toOffset: moovOffset)) != nil, let old = try? handle.read(upToCount: Int(moovSize)) else {
            throw .io("cannot read the moov of \(path)")
        }
        if moovOffset + moovSize == fileSize {
            let new = moov(old, shift: 0)
            guard (try? handle.seek(toOffset: moovOffset)) != nil, (try? handle.write(contentsOf: new)) != nil,
                (try? handle.truncate(atOffset: moovOffset + UInt64(new.count))) != nil
            else { throw .io("cannot rewrite the moov of \(path)") }
            return
        }
        // Fast start: the media after the moov moves by the moov's growth.
        let grown = moov(old, shift: 0).count - old.count
        let new = moov(old, shift: Int64(grown))
        let temporary = path + ".moov"
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let out = FileHandle(forWritingAtPath: temporary) else {
            throw .io("cannot write \(temporary)")
        }
        defer { try? out.close() }
        do {
            try handle.seek(toOffset: 0)
            if let head = try handle.read(upToCount: Int(moovOffset)) { try out.write(contentsOf: head) }
            try out.write(contentsOf: new)
            try handle.seek(toOffset: moovOffset + moovSize)
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { try out.write(contentsOf: chunk) }
        } catch {
            unlink(temporary)
            throw .io("cannot move the media of \(path): \(error)")
        }
        guard rename(temporary, path) == 0 else { throw .system(errno, opening: path) }
    }

    /// The offset and size of the first top-level box of `type`, and the file's size.
    static func findTopLevel(_ type: String, in handle: FileHandle) -> (UInt64, UInt64, UInt64)? {
        guard let fileSize = try? handle.seekToEnd() else { return nil }
        var offset: UInt64 = 0
        // Sizes come from the file: compared with what is left, so no sum can overflow.
        while fileSize >= 8, offset <= fileSize - 8 {
            guard (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 16), header.count >= 8 else { return nil }
            var size = UInt64(BoxCoding.readUInt32(header, 0))
            if size == 1, header.count == 16 { size = BoxCoding.readUInt64(header, 8) }
            if size == 0 { size = fileSize - offset }
            guard size >= 8, size <= fileSize - offset else { return nil }
            if BoxCoding.readUInt32(header, 4) == BoxCoding.fourCC(type) { return (offset, size, fileSize) }
            offset += size
        }
        return nil
    }
}
