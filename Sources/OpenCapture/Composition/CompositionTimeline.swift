import Foundation

/// The edits of AVMutableCompositionTrack on its segment list: segments lie end to end from
/// time 0 (Apple's rule for `segments`), so inserting pushes later ones out and removing
/// pulls them in.
enum CompositionTimeline {
    /// The end of the last segment.
    static func end(_ segments: [AVCompositionTrackSegment]) -> CMTime {
        segments.last.map { $0.timeMapping.target.end } ?? .zero
    }

    /// The source time of target time `time` within `segment` (its rate applied).
    private static func sourceTime(_ segment: AVCompositionTrackSegment, at time: CMTime) -> CMTime {
        let mapping = segment.timeMapping
        let into = time - mapping.target.start
        guard mapping.source.duration != mapping.target.duration, mapping.target.duration > .zero else { return mapping.source.start + into }
        let rate = mapping.source.duration.seconds / mapping.target.duration.seconds
        let scale = max(mapping.source.start.timescale, 90_000)
        return mapping.source.start + CMTime(seconds: into.seconds * rate, preferredTimescale: scale)
    }

    /// The segment split in two at target time `time` (strictly inside it).
    private static func split(_ segment: AVCompositionTrackSegment, at time: CMTime) -> (AVCompositionTrackSegment, AVCompositionTrackSegment) {
        let mapping = segment.timeMapping
        let targetEnd = mapping.target.end
        let firstTarget = CMTimeRange(start: mapping.target.start, end: time)
        let secondTarget = CMTimeRange(start: time, end: targetEnd)
        if segment.isEmpty {
            return (AVCompositionTrackSegment(timeRange: firstTarget), AVCompositionTrackSegment(timeRange: secondTarget))
        }
        let cut = sourceTime(segment, at: time)
        let first = segment.placed(source: CMTimeRange(start: mapping.source.start, end: cut), target: firstTarget)
        let second = segment.placed(source: CMTimeRange(start: cut, end: mapping.source.end), target: secondTarget)
        return (first, second)
    }

    /// The segments with a boundary at `time` (a segment across it split in two).
    static func cut(_ segments: [AVCompositionTrackSegment], at time: CMTime) -> [AVCompositionTrackSegment] {
        var result: [AVCompositionTrackSegment] = []
        for segment in segments {
            let target = segment.timeMapping.target
            if time > target.start && time < target.end {
                let (first, second) = split(segment, at: time)
                result += [first, second]
            } else {
                result.append(segment)
            }
        }
        return result
    }

    /// The segment moved later (or earlier) by `offset` on the target.
    private static func shifted(_ segment: AVCompositionTrackSegment, by offset: CMTime) -> AVCompositionTrackSegment {
        let target = segment.timeMapping.target
        return segment.placed(source: segment.timeMapping.source, target: CMTimeRange(start: target.start + offset, duration: target.duration))
    }

    /// Inserts `inserted` (laid end to end from their first target start) at `time`,
    /// pushing what was at or after it out by their duration. A time past the end leaves
    /// an empty segment up to it.
    static func insert(_ inserted: [AVCompositionTrackSegment], into segments: [AVCompositionTrackSegment], at time: CMTime) -> [AVCompositionTrackSegment] {
        guard let first = inserted.first else { return segments }
        let duration = end(inserted) - first.timeMapping.target.start
        let trackEnd = end(segments)
        var before: [AVCompositionTrackSegment] = []
        var after: [AVCompositionTrackSegment] = []
        for segment in cut(segments, at: time) {
            if segment.timeMapping.target.start < time { before.append(segment) } else { after.append(shifted(segment, by: duration)) }
        }
        if time > trackEnd { before.append(AVCompositionTrackSegment(timeRange: CMTimeRange(start: trackEnd, end: time))) }
        let placed = inserted.map { shifted($0, by: time - first.timeMapping.target.start) }
        return merged(before + placed + after)
    }

    /// Removes `range`, pulling what follows in.
    static func remove(_ range: CMTimeRange, from segments: [AVCompositionTrackSegment]) -> [AVCompositionTrackSegment] {
        let cutSegments = cut(cut(segments, at: range.start), at: range.end)
        var result: [AVCompositionTrackSegment] = []
        for segment in cutSegments {
            let target = segment.timeMapping.target
            if target.start >= range.start && target.end <= range.end { continue }
            result.append(target.start >= range.end ? shifted(segment, by: CMTime.zero - range.duration) : segment)
        }
        return merged(result)
    }

    /// Gives the media in `range` the new `duration` (it plays faster or slower) and moves
    /// what follows accordingly.
    static func scale(_ range: CMTimeRange, to duration: CMTime, in segments: [AVCompositionTrackSegment]) -> [AVCompositionTrackSegment] {
        guard range.duration > .zero else { return segments }
        let factor = duration.seconds / range.duration.seconds
        let scale = max(range.start.timescale, 90_000)
        var result: [AVCompositionTrackSegment] = []
        var cursor = CMTime.zero
        for segment in cut(cut(segments, at: range.start), at: range.end) {
            let target = segment.timeMapping.target
            var length = target.duration
            if target.start >= range.start && target.end <= range.end {
                length = CMTime(seconds: target.duration.seconds * factor, preferredTimescale: scale)
            }
            result.append(segment.placed(source: segment.timeMapping.source, target: CMTimeRange(start: cursor, duration: length)))
            cursor = cursor + length
        }
        return result
    }

    /// Adjacent empty segments joined, zero-length ones left out.
    private static func merged(_ segments: [AVCompositionTrackSegment]) -> [AVCompositionTrackSegment] {
        var result: [AVCompositionTrackSegment] = []
        for segment in segments where segment.timeMapping.target.duration > .zero {
            if segment.isEmpty, let last = result.last, last.isEmpty {
                result[result.count - 1] = AVCompositionTrackSegment(
                    timeRange: CMTimeRange(start: last.timeMapping.target.start, end: segment.timeMapping.target.end))
            } else {
                result.append(segment)
            }
        }
        // A track never ends with an empty segment.
        while result.last?.isEmpty == true { result.removeLast() }
        return result
    }

    /// Apple's rule for a segment list: the first starts at 0, each starts where the one
    /// before ends, and each has a positive target duration and (when not empty) a numeric
    /// source start and positive source duration.
    static func validate(_ segments: [AVCompositionTrackSegment]) throws {
        var expected = CMTime.zero
        for segment in segments {
            let mapping = segment.timeMapping
            guard mapping.target.start == expected else {
                throw AVError(.compositionTrackSegmentsNotContiguous, "The composition track segments are not contiguous")
            }
            guard mapping.target.duration.isNumeric, mapping.target.duration > .zero else {
                throw AVError(.invalidCompositionTrackSegmentDuration, "A composition track segment has an invalid duration")
            }
            if !segment.isEmpty {
                guard mapping.source.start.isNumeric, mapping.source.start >= .zero else {
                    throw AVError(.invalidCompositionTrackSegmentSourceStartTime, "A composition track segment has an invalid source start time")
                }
                guard mapping.source.duration.isNumeric, mapping.source.duration > .zero else {
                    throw AVError(.invalidCompositionTrackSegmentSourceDuration, "A composition track segment has an invalid source duration")
                }
            }
            expected = mapping.target.end
        }
    }
}
