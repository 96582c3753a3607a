import Foundation
import TestSupport
import Testing

/// A seeded fuzz of the file deck: a small valid MP4 mutated (bytes flipped, the file or a
/// box cut short, box sizes, timescales and sample durations changed), each played by
/// `capture frames`. Every case ends by itself within the timeout, never by a signal: exit
/// 0; exit 2 (a file refused when the deck is made) or 1 (damage met mid-stream, after what
/// decoded: the tool's runtime failure) with exactly one line saying why.
@Suite("CLI file deck fuzz", .tags(.slow))
struct DeckFuzzTests {
    /// The clip every case starts from: 6 frames of 160x120 H.264, its index first.
    static let base: Data? = {
        guard let folder = try? ToolRunner.temporaryFolder() else { return nil }
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("base.mp4")
        let made = try? HostileMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "6", "-c:v", "libx264", "-preset", "ultrafast", "-g", "3",
            "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-y", url.path,
        ])
        return made == nil ? nil : try? Data(contentsOf: url)
    }()

    @Test("a mutated MP4 played forwards or backwards is exit 0, or 1 or 2 with one line", arguments: 0..<96)
    func mutatedClip(seed: UInt64) throws {
        let base = try #require(Self.base, "ffmpeg made no base clip")
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)  // the seed spread, as the cases were made
        let (bytes, mutation) = Mutator.mutate([UInt8](base), &random)
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("case\(seed).mp4")
        try Data(bytes).write(to: clip)
        let speed = random.next() % 3 == 0 ? "-1" : "1"
        let run = try MeasuredRun(
            ["frames", "--device", "file:\(clip.path)", "--speed", speed, "--virtual-time", "--count", "3", "-o", folder.appendingPathComponent("o.y4m").path],
            timeout: 20)
        let what = "case \(seed) (\(mutation), speed \(speed)): status \(run.status)\n\(run.stderr)"
        #expect((0...2).contains(run.status), "\(what)")
        if run.status != 0 { #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("capture: "), "\(what)") }
        #expect(!run.stderr.contains(" @ 0x"), "FFmpeg's log leaked: \(what)")
    }
}

/// The mutations, each aimed at what a demuxer trusts in an MP4.
enum Mutator {
    /// Boxes (offset, size, type) found walking the tree of container boxes.
    static func boxes(_ bytes: [UInt8]) -> [(offset: Int, size: Int, type: String)] {
        let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "udta"]
        var found: [(Int, Int, String)] = []
        func walk(_ start: Int, _ end: Int) {
            var offset = start
            while offset + 8 <= end {
                let size = Int(UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3]))
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                guard size >= 8, offset + size <= end else { return }
                found.append((offset, size, type))
                if containers.contains(type) { walk(offset + 8, offset + size) }
                offset += size
            }
        }
        walk(0, bytes.count)
        return found
    }

    static func write32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        guard offset + 4 <= bytes.count else { return }
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
    }

    /// A value a parser may not expect: 0, 1, the largest, or anything.
    static func wild(_ random: inout SplitMix64) -> UInt32 {
        [0, 1, 2, 0x7FFF_FFFF, 0xFFFF_FFFF, 5_000_001, UInt32(truncatingIfNeeded: random.next())][random.below(7)]
    }

    static func mutate(_ original: [UInt8], _ random: inout SplitMix64) -> ([UInt8], String) {
        var bytes = original
        let boxes = boxes(bytes)
        func box(_ type: String) -> (offset: Int, size: Int, type: String)? { boxes.first { $0.type == type } }
        switch random.below(6) {
        case 0:
            let count = 1 + random.below(16)
            for _ in 0..<count { bytes[random.below(bytes.count)] ^= UInt8(1 + random.below(255)) }
            return (bytes, "\(count) bytes flipped")
        case 1:
            let length = random.below(bytes.count)
            return (Array(bytes[..<length]), "cut to \(length) bytes")
        case 2:
            let target = boxes[random.below(boxes.count)]
            let value = wild(&random)
            write32(value, at: target.offset, in: &bytes)
            return (bytes, "\(target.type) size \(value)")
        case 3:
            // mdhd/mvhd (version 0): version and flags, two dates, then the timescale.
            let target = random.below(2) == 0 ? box("mdhd") : box("mvhd")
            let value = wild(&random)
            if let target { write32(value, at: target.offset + 20, in: &bytes) }
            return (bytes, "\(target?.type ?? "no box") timescale \(value)")
        case 4:
            let value = wild(&random)
            // stts: version and flags, entry count, then the first entry's count and delta.
            if let stts = box("stts") { write32(value, at: stts.offset + 16 + 4 * random.below(2), in: &bytes) }
            return (bytes, "stts entry \(value)")
        default:
            // A box's body cut out, the file closed up behind it.
            let target = boxes[random.below(boxes.count)]
            let cut = 8 + random.below(max(target.size - 8, 1))
            let start = min(target.offset + 8, bytes.count)
            let end = min(start + cut, bytes.count)
            bytes.removeSubrange(start..<end)
            return (bytes, "\(target.type) lost \(end - start) bytes")
        }
    }
}
