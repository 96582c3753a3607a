import Foundation
import MediaIO

/// Mixes decoded audio tracks into one: each track's float samples, placed on the asset's
/// timeline by their times (gaps filled with silence, overlaps cut), scaled by the track's
/// volume curve and summed, in blocks of up to 1024 frames. The tracks share a sample rate
/// and channel count (the mix output accepts only such tracks).
///
/// Not thread-safe: one reader at a time (the output serialises its callers).
final class AudioMixer {
    /// One track: where its blocks come from and what is left of them.
    final class Source {
        let next: () throws -> (samples: [Float], time: CMTime)?
        let curve: AudioVolumeCurve?
        var queue: [Float] = []
        /// The frame (on the asset's timeline) of `queue`'s first sample.
        var queueStart: Int64 = 0
        var started = false
        var ended = false

        init(curve: AudioVolumeCurve?, next: @escaping () throws -> (samples: [Float], time: CMTime)?) {
            self.curve = curve
            self.next = next
        }
    }

    static let blockFrames = 1024

    private let sources: [Source]
    private let channels: Int
    private let rate: Int
    private let startFrame: Int64
    private let endFrame: Int64?
    private var position: Int64?

    init(sources: [Source], channels: Int, sampleRate: Int, range: CMTimeRange) {
        self.sources = sources
        self.channels = max(channels, 1)
        self.rate = max(sampleRate, 1)
        startFrame = range.start.isNumeric ? Int64((range.start.seconds * Double(sampleRate)).rounded()) : 0
        endFrame = range.duration.isNumeric ? Int64((range.end.seconds * Double(sampleRate)).rounded()) : nil
    }

    /// The next mixed block and its time; nil after the last.
    func next() throws -> (samples: [Float], frames: Int, time: CMTime)? {
        if position == nil {
            for source in sources { while !source.ended && !source.started { try pull(source) } }
            let starts = sources.filter { !$0.queue.isEmpty }.map(\.queueStart)
            guard let first = starts.min() else { return nil }
            position = max(startFrame, first)
        }
        guard let position else { return nil }
        var want = Int64(Self.blockFrames)
        if let endFrame { want = min(want, endFrame - position) }
        guard want > 0 else { return nil }
        for source in sources { while !source.ended && end(of: source) < position + want { try pull(source) } }
        let frames: Int64
        if sources.allSatisfy(\.ended) {
            frames = min(want, (sources.map(end(of:)).max() ?? position) - position)
            guard frames > 0 else { return nil }
        } else {
            frames = want
        }
        var mixed = [Float](repeating: 0, count: Int(frames) * channels)
        for source in sources {
            let from = max(position, source.queueStart)
            let to = min(position + frames, end(of: source))
            guard to > from else { continue }
            var piece = Array(source.queue[Int(from - source.queueStart) * channels..<Int(to - source.queueStart) * channels])
            if let curve = source.curve {
                piece.withUnsafeMutableBufferPointer {
                    curve.apply(to: $0, channels: channels, startSeconds: Double(from) / Double(rate), sampleRate: Double(rate))
                }
            }
            let offset = Int(from - position) * channels
            for index in piece.indices { mixed[offset + index] += piece[index] }
        }
        let done = position + frames
        for source in sources {
            let drop = min(max(done - source.queueStart, 0), Int64(source.queue.count / channels))
            source.queue.removeFirst(Int(drop) * channels)
            source.queueStart += drop
            // An emptied queue continues at the mix's position, so the next block's time
            // places it (a gap filled, an overlap cut).
            if source.queue.isEmpty { source.queueStart = max(source.queueStart, done) }
        }
        self.position = done
        return (mixed, Int(frames), CMTime(value: position, timescale: CMTimeScale(rate)))
    }

    private func end(of source: Source) -> Int64 { source.queueStart + Int64(source.queue.count / channels) }

    /// Appends the source's next block where its time puts it.
    private func pull(_ source: Source) throws {
        guard let block = try source.next() else {
            source.ended = true
            return
        }
        var samples = block.samples[...]
        let at = Int64((block.time.seconds * Double(rate)).rounded())
        if !source.started {
            source.started = true
            source.queueStart = at
        } else {
            let expected = end(of: source)
            if at > expected {
                source.queue.append(contentsOf: repeatElement(0, count: Int(at - expected) * channels))
            } else if at < expected {
                samples = samples.dropFirst(min(Int(expected - at) * channels, samples.count))
            }
        }
        source.queue.append(contentsOf: samples)
    }
}
