import Foundation

/// One key of a boxed timed-metadata track ('mebx'): ISO 14496-12's MetadataKeyBox, the
/// key namespace ('mdta' for reverse-DNS keys) and value, its data type and locale.
package struct BoxedMetadataKey: Sendable, Equatable {
    /// The key namespace, a FourCC ('mdta', 'udta', 'itsk'...).
    package var namespace: UInt32
    /// The key's bytes (UTF-8 for 'mdta', four bytes for 'udta').
    package var value: Data
    /// The well-known data type ('dtyp' in namespace 0): 1 UTF-8, 23 float32, 66 int16...;
    /// nil writes no 'dtyp' (raw data).
    package var wellKnownType: UInt32?
    /// The extended language tag ('loca'), nil for none.
    package var locale: String?

    package init(namespace: UInt32, value: Data, wellKnownType: UInt32?, locale: String? = nil) {
        self.namespace = namespace
        self.value = value
        self.wellKnownType = wellKnownType
        self.locale = locale
    }
}

/// A timed-metadata track of a movie: boxed metadata whose keys have local IDs 1, 2, ...
/// in order; each sample is a sequence of boxes of a local ID holding a value.
package struct MovieMetadataTrackSettings: Sendable, Equatable {
    package var keys: [BoxedMetadataKey]
    /// Reference the video track ('tref' 'cdsc'): the metadata describes it.
    package var describesVideo: Bool

    package init(keys: [BoxedMetadataKey], describesVideo: Bool) {
        self.keys = keys
        self.describesVideo = describesVideo
    }

    /// The 'mebx' sample entry with its 'keys' table.
    var sampleEntry: Data {
        var keyTable = Data()
        for (index, key) in keys.enumerated() {
            var children = BoxCoding.box("keyd", BoxCoding.uint32(key.namespace) + key.value)
            if let type = key.wellKnownType { children += BoxCoding.box("dtyp", BoxCoding.uint32(0) + BoxCoding.uint32(type)) }
            if let locale = key.locale { children += BoxCoding.box("loca", Data(locale.utf8)) }
            keyTable += BoxCoding.box(UInt32(index + 1), children)
        }
        // SampleEntry: six reserved bytes and data_reference_index 1.
        return BoxCoding.box("mebx", Data(count: 6) + BoxCoding.uint16(1) + BoxCoding.box("keys", keyTable))
    }

    /// A sample: one box per item, of its key's local ID, holding the value's bytes.
    package static func sample(_ items: [(localID: UInt32, value: Data)]) -> Data {
        items.reduce(into: Data()) { $0 += BoxCoding.box($1.localID, $1.value) }
    }

    /// Reads a sample back into its items.
    package static func items(ofSample sample: Data) -> [(localID: UInt32, value: Data)] {
        BoxCoding.children(sample).map { (localID: $0.type, value: $0.payload) }
    }
}

/// Reads and writes ISO base-media boxes (big-endian size and type, then the payload).
enum BoxCoding {
    static func uint32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
    static func uint16(_ value: UInt16) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
    static func fourCC(_ text: String) -> UInt32 { text.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

    static func box(_ type: String, _ payload: Data) -> Data { box(fourCC(type), payload) }
    static func box(_ type: UInt32, _ payload: Data) -> Data { uint32(UInt32(8 + payload.count)) + uint32(type) + payload }

    static func readUInt32(_ data: Data, _ offset: Int) -> UInt32 {
        let start = data.startIndex + offset
        return data[start..<start + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func readUInt64(_ data: Data, _ offset: Int) -> UInt64 {
        UInt64(readUInt32(data, offset)) << 32 | UInt64(readUInt32(data, offset + 4))
    }

    /// The boxes one after another in `data` (a truncated last box is left out).
    static func children(_ data: Data) -> [(type: UInt32, payload: Data)] {
        var result: [(UInt32, Data)] = []
        var offset = 0
        while offset + 8 <= data.count {
            var size = Int(readUInt32(data, offset))
            var header = 8
            if size == 1, offset + 16 <= data.count {
                // A 64-bit size from the file: above Int.max it is no box this data holds.
                guard let wide = Int(exactly: readUInt64(data, offset + 8)) else { break }
                size = wide
                header = 16
            } else if size == 0 {
                size = data.count - offset
            }
            // Compared as a remainder so that a huge size cannot overflow the sum.
            guard size >= header, size <= data.count - offset else { break }
            let start = data.startIndex + offset
            result.append((readUInt32(data, offset + 4), Data(data[start + header..<start + size])))
            offset += size
        }
        return result
    }
}
