import CFFmpeg
import CaptureCore
import Foundation

/// Reads a timed-metadata track ('mebx') of a movie: its keys from the sample description
/// in the 'moov' (FFmpeg does not parse them) and its samples through libavformat, which
/// shows the track as a data stream.
package final class MovieMetadataTrackReader {
    /// The keys, in local-ID order (local IDs 1, 2, ... as this writer numbers them; other
    /// IDs are kept in `localIDs`).
    package let keys: [BoxedMetadataKey]
    package let localIDs: [UInt32]
    private let source: MovieSourceStream

    /// Opens the track `track` (a data stream of the file) of the movie at `url`; nil
    /// (throws) when it is not boxed metadata.
    package init(url: URL, track: MovieTrackInfo) throws(MovieReaderError) {
        guard let found = Self.keys(url: url, trackID: UInt32(track.trackID)) else {
            throw .cannotParse("\(url.lastPathComponent): track \(track.trackID) is not boxed metadata")
        }
        localIDs = found.map(\.0)
        keys = found.map(\.1)
        source = try MovieSourceStream(url: url, track: track)
    }

    /// The next sample (its boxes), start and duration; nil at the end.
    package func next() throws(MovieReaderError) -> (sample: Data, time: CMTime, duration: CMTime)? {
        var allocated = av_packet_alloc()
        defer { av_packet_free(&allocated) }
        guard let packet = allocated else { return nil }
        // A sample without a time (no pts, no dts) cannot be placed: it is passed over.
        var stamp = Int64.min
        while stamp == Int64.min {
            av_packet_unref(packet)
            guard try source.read(into: packet) else { return nil }
            stamp = packet.pointee.pts != Int64.min ? packet.pointee.pts : packet.pointee.dts
        }
        defer { av_packet_unref(packet) }
        let base = source.timeBase
        // Rescaled, not multiplied: a time from the file times the base's numerator can overflow.
        let time = MovieReader.time(stamp, base)
        let duration = MovieReader.time(max(packet.pointee.duration, 0), base)
        let sample = packet.pointee.data.map { Data(bytes: $0, count: Int(packet.pointee.size)) } ?? Data()
        return (sample, time, duration)
    }

    /// The keys of the 'mebx' entry of track `trackID`, nil when it has none.
    static func keys(url: URL, trackID: UInt32) -> [(UInt32, BoxedMetadataKey)]? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let (offset, size, _) = MetadataTrackRewrite.findTopLevel("moov", in: handle), (try? handle.seek(toOffset: offset)) != nil,
            let moov = try? handle.read(upToCount: Int(size))
        else { return nil }
        let fourCC = BoxCoding.fourCC
        func child(_ payload: Data, _ type: String) -> Data? { BoxCoding.children(payload).first { $0.type == fourCC(type) }?.payload }
        for trak in BoxCoding.children(BoxCoding.children(moov).first?.payload ?? Data()) where trak.type == fourCC("trak") {
            guard let tkhd = child(trak.payload, "tkhd"), tkhd.count >= 24,
                BoxCoding.readUInt32(tkhd, tkhd.first == 1 ? 20 : 12) == trackID,
                let stsd = child(trak.payload, "mdia").flatMap({ child($0, "minf") }).flatMap({ child($0, "stbl") }).flatMap({ child($0, "stsd") }),
                stsd.count > 8
            else { continue }
            guard let entry = BoxCoding.children(stsd.dropFirst(8)).first, entry.type == fourCC("mebx"), entry.payload.count >= 8,
                let table = child(entry.payload.dropFirst(8), "keys")
            else { return nil }
            return BoxCoding.children(table).compactMap { key in
                guard let declaration = child(key.payload, "keyd"), declaration.count >= 4 else { return nil }
                let type = child(key.payload, "dtyp").flatMap { $0.count == 8 && BoxCoding.readUInt32($0, 0) == 0 ? BoxCoding.readUInt32($0, 4) : nil }
                let locale = child(key.payload, "loca").map { String(decoding: $0, as: UTF8.self) }
                return (key.type, BoxedMetadataKey(
                    namespace: BoxCoding.readUInt32(declaration, 0), value: Data(declaration.dropFirst(4)), wellKnownType: type, locale: locale))
            }
        }
        return nil
    }
}
