import Foundation
import Testing
import TestSupport

/// Hostile media files for the deck tests, made in a test's folder: by ffmpeg, then patched
/// by hand where ffmpeg would not write the lie (a frame rate no camera has, an H.264
/// sequence parameter set claiming a huge picture).
enum HostileMedia {
    /// Runs ffmpeg (a minute at most); returns its standard output.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) throws -> Data {
        try ChildProcess.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin"] + arguments, within: .seconds(60)).stdoutData
    }

    /// A `frames`-long 160x120 testsrc2 clip at 25 fps, encoded with `arguments`.
    static func clip(_ url: URL, frames: Int = 10, _ arguments: [String]) throws -> URL {
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", String(frames)] + arguments + ["-y", url.path])
        try #require(FileManager.default.fileExists(atPath: url.path), "ffmpeg made no \(url.lastPathComponent)")
        return url
    }

    /// An MP4 whose track timescale is 5000001 with samples 2 ticks long: 2,500,000.5 frames
    /// per second, which no 32-bit timescale holds exactly (the 'stts' entry patched by hand).
    static func timescaleTrick(_ url: URL) throws -> URL {
        _ = try clip(url, frames: 5, ["-c:v", "libx264", "-preset", "ultrafast", "-video_track_timescale", "5000001"])
        var data = try Data(contentsOf: url)
        let stts = try #require(data.firstRange(of: Data("stts".utf8)), "no stts box")
        // version and flags, entry count, then the one entry: sample count, sample delta.
        let delta = stts.upperBound + 12
        try #require(data.count > delta + 4)
        data.replaceSubrange(delta..<(delta + 4), with: [0, 0, 0, 2])
        try data.write(to: url)
        return url
    }

    /// An H.264 clip (MP4 when `url` ends in .mp4, else a raw Annex B stream) whose
    /// sequence parameter set claims `width`x`height` while its pictures stay 160x120.
    static func claimedSize(_ url: URL, width: Int, height: Int) throws -> URL {
        _ = try clip(url, frames: 5, ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        var data = try Data(contentsOf: url)
        let sps = try spsBytes(data, mp4: url.pathExtension == "mp4")
        let patched = try SPSRewriter.resized(sps, width: width, height: height)
        try #require(patched.count == sps.count)
        var replaced = 0
        var from = data.startIndex
        while let range = data[from...].firstRange(of: sps) {
            data.replaceSubrange(range, with: patched)
            from = range.upperBound
            replaced += 1
        }
        try #require(replaced > 0)
        try data.write(to: url)
        return url
    }

    /// The first SPS NAL unit's bytes (header byte included): from the 'avcC' box of an
    /// MP4, else after the first start code of a raw stream.
    private static func spsBytes(_ data: Data, mp4: Bool) throws -> Data {
        let bytes = [UInt8](data)
        if mp4 {
            let avcC = try #require(data.firstRange(of: Data("avcC".utf8))).upperBound - data.startIndex
            // version, profile, compatibility, level, length size, SPS count, then a 16-bit length.
            let length = Int(bytes[avcC + 6]) << 8 | Int(bytes[avcC + 7])
            return Data(bytes[(avcC + 8)..<(avcC + 8 + length)])
        }
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1, bytes[index + 3] & 0x1F == 7 {
                var end = index + 3
                while end + 2 < bytes.count, !(bytes[end] == 0 && bytes[end + 1] == 0 && bytes[end + 2] <= 1) { end += 1 }
                return Data(bytes[(index + 3)..<end])
            }
            index += 1
        }
        throw SPSRewriter.Failure.noSPS
    }
}

/// Rewrites an H.264 sequence parameter set to claim another picture size, keeping its
/// length: the fields before the size are copied, the size written, cropping and VUI
/// dropped (which makes room), and the rest padded with zero bytes.
enum SPSRewriter {
    enum Failure: Error {
        case noSPS
        case unsupported(String)
    }

    static func resized(_ nal: Data, width: Int, height: Int) throws -> Data {
        let original = [UInt8](nal)
        var reader = BitReader(unescape(Array(original.dropFirst())))
        var writer = BitWriter()
        func copy(_ count: Int) { writer.write(reader.read(count), count) }
        func copyUE() -> Int {
            let value = reader.readUE()
            writer.writeUE(value)
            return value
        }
        let profile = reader.read(8)
        writer.write(profile, 8)
        copy(16)  // constraint flags, level
        _ = copyUE()  // seq_parameter_set_id
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            if copyUE() == 3 { copy(1) }  // chroma_format_idc, separate_colour_plane_flag
            _ = copyUE()  // bit depths
            _ = copyUE()
            copy(1)  // qpprime_y_zero_transform_bypass_flag
            guard reader.read(1) == 0 else { throw Failure.unsupported("scaling matrices") }
            writer.write(0, 1)
        }
        _ = copyUE()  // log2_max_frame_num_minus4
        let pocType = copyUE()
        if pocType == 0 { _ = copyUE() } else if pocType == 1 { throw Failure.unsupported("pic_order_cnt_type 1") }
        _ = copyUE()  // max_num_ref_frames
        copy(1)  // gaps_in_frame_num_value_allowed_flag
        _ = reader.readUE()
        _ = reader.readUE()
        writer.writeUE(width / 16 - 1)
        writer.writeUE(height / 16 - 1)
        let frameOnly = reader.read(1)
        if frameOnly == 0 { _ = reader.read(1) }
        writer.write(1, 1)  // frame_mbs_only_flag
        copy(1)  // direct_8x8_inference_flag
        writer.write(0, 1)  // no cropping
        writer.write(0, 1)  // no VUI
        writer.write(1, 1)  // rbsp_stop_one_bit
        var result = [original[0]] + escape(writer.bytes)
        guard result.count <= original.count else { throw Failure.unsupported("no room for the new size") }
        result += [UInt8](repeating: 0, count: original.count - result.count)
        return Data(result)
    }

    /// Removes emulation-prevention bytes (00 00 03 → 00 00).
    private static func unescape(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    /// Inserts emulation-prevention bytes before 00, 01, 02 or 03 after two zeros.
    private static func escape(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte <= 3 {
                out.append(3)
                zeros = 0
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    struct BitReader {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func read(_ count: Int) -> Int {
            var value = 0
            for _ in 0..<count {
                let byte = position / 8 < bytes.count ? bytes[position / 8] : 0
                value = value << 1 | Int(byte >> (7 - UInt8(position % 8)) & 1)
                position += 1
            }
            return value
        }

        /// An unsigned Exp-Golomb code.
        mutating func readUE() -> Int {
            var zeros = 0
            while read(1) == 0 && zeros < 32 { zeros += 1 }
            return (1 << zeros) - 1 + read(zeros)
        }
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        var count = 0

        mutating func write(_ value: Int, _ bits: Int) {
            for shift in stride(from: bits - 1, through: 0, by: -1) {
                if count % 8 == 0 { bytes.append(0) }
                if value >> shift & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
                count += 1
            }
        }

        mutating func writeUE(_ value: Int) {
            let coded = value + 1
            let length = Int.bitWidth - coded.leadingZeroBitCount
            write(0, length - 1)
            write(coded, length)
        }
    }
}

extension HostileMedia {
    /// A valid progressive JPEG of `width`x`height`, 4:2:0, holding only a first DC scan of
    /// zero differences (one bit a block, all zero bytes): 786 KB at 16384x16384, whose
    /// decode makes libjpeg hold 768 MiB of coefficients at any output scale.
    static func progressiveJPEG(width: Int, height: Int) -> Data {
        var data: [UInt8] = [0xFF, 0xD8]
        data += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        data += [0xFF, 0xC2, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
        data += [1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0]
        // One DC code, "0" (length 1), for category 0: every difference is 0.
        data += [0xFF, 0xC4, 0x00, 0x14, 0x00, 1] + [UInt8](repeating: 0, count: 15) + [0]
        data += [0xFF, 0xDA, 0x00, 0x0C, 3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0]
        let units = ((width + 15) / 16) * ((height + 15) / 16)
        data += [UInt8](repeating: 0, count: (units * 6 + 7) / 8)
        data += [0xFF, 0xD9]
        return Data(data)
    }

    /// A valid baseline JPEG of `width`x`height`, 4:2:0, coded in three scans, one per
    /// component, every block all zero (a DC and an end-of-block code of one bit each).
    /// Several scans make libjpeg buffer the whole image's coefficients, as progressive
    /// coding does: 1.5 MB at 16384x16384, 768 MiB to decode.
    static func multiScanJPEG(width: Int, height: Int) -> Data {
        var data: [UInt8] = [0xFF, 0xD8]
        data += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        data += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
        data += [1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0]
        for table: UInt8 in [0x00, 0x10] {  // DC 0 and AC 0: one code, "0", for symbol 0
            data += [0xFF, 0xC4, 0x00, 0x14, table, 1] + [UInt8](repeating: 0, count: 15) + [0]
        }
        let chroma = (width: (width + 1) / 2, height: (height + 1) / 2)
        for (component, size) in [(UInt8(1), (width: width, height: height)), (2, chroma), (3, chroma)] {
            data += [0xFF, 0xDA, 0x00, 0x08, 1, component, 0x00, 0, 63, 0]
            let blocks = ((size.width + 7) / 8) * ((size.height + 7) / 8)
            data += [UInt8](repeating: 0, count: (blocks * 2 + 7) / 8)
        }
        data += [0xFF, 0xD9]
        return Data(data)
    }

    /// `url`'s bytes with the media data scrambled from `seed` (a fixed pattern): a file
    /// that opens but whose pictures FFmpeg complains about while decoding.
    static func scrambled(_ url: URL, seed: UInt64) throws -> URL {
        var data = [UInt8](try Data(contentsOf: url))
        let mdat = try #require(Data(data).firstRange(of: Data("mdat".utf8))).upperBound
        var state = seed
        for _ in 0..<200 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let index = mdat + Int((state >> 33) % UInt64(data.count - mdat))
            data[index] ^= 0xFF
        }
        try Data(data).write(to: url)
        return url
    }
}
