import Foundation

/// Sound files and ALSA configurations a test makes in a directory of its own.
struct SoundFiles {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("audiotoolbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// A 16-bit PCM WAV file written by hand, and its interleaved samples as they are stored.
    @discardableResult
    func wav(_ name: String, samples: [Int16], rate: Int, channels: Int) throws -> (url: URL, data: Data) {
        var pcm = Data(capacity: samples.count * 2)
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { pcm.append(contentsOf: $0) } }
        var file = Data()
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { file.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { file.append(contentsOf: $0) } }
        file.append(contentsOf: Array("RIFF".utf8))
        append32(36 + pcm.count)
        file.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(16)
        append16(1)  // linear PCM
        append16(channels)
        append32(rate)
        append32(rate * channels * 2)
        append16(channels * 2)
        append16(16)
        file.append(contentsOf: Array("data".utf8))
        append32(pcm.count)
        file.append(pcm)
        let url = url(name)
        try file.write(to: url)
        return (url, pcm)
    }

    /// A tone: one sine per channel (440 Hz, then 660 Hz …) at half scale, interleaved.
    static func tone(seconds: Double, rate: Int, channels: Int) -> [Int16] {
        let frames = Int(seconds * Double(rate))
        var samples: [Int16] = []
        samples.reserveCapacity(frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                let frequency = 440.0 * (1 + 0.5 * Double(channel))
                samples.append(Int16((sin(2 * .pi * frequency * Double(frame) / Double(rate)) * 16_384).rounded()))
            }
        }
        return samples
    }

    /// An ALSA configuration whose `default` playback PCM is the `file` plug-in, writing what
    /// is played to `raw` (raw samples, no header) in front of a `null` PCM, which takes
    /// everything at once: playback captured without sound hardware.
    func fileOutputConfiguration(capturingTo raw: URL) throws -> URL {
        let text = """
            pcm.default {
                type file
                slave.pcm { type null }
                file "\(raw.path)"
                format "raw"
            }

            """
        let url = url("file-output.conf")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// An ALSA configuration whose `default` PCM is a sound card that does not exist.
    func missingCardConfiguration() throws -> URL {
        let url = url("no-card.conf")
        try "pcm.default { type hw card \"OpenCaptureNoSuchCard\" }\n".write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
