import Foundation

/// An audio mix input's volume over time (AVAudioMix.h's rules): 1.0 before the first
/// volume set; within a ramp's time range the volume goes linearly from its start volume
/// to its end volume; after a ramp or a set volume, its last volume holds until the next.
/// A volume set at a time is a ramp of zero duration. A new ramp replaces the ramps it
/// overlaps.
struct AudioVolumeCurve: Sendable, Equatable {
    struct Ramp: Sendable, Equatable {
        var startVolume: Float
        var endVolume: Float
        var timeRange: CMTimeRange
        /// Start and end in seconds, for the per-sample gain.
        var start: Double { timeRange.start.seconds }
        var end: Double { timeRange.end.seconds }
    }

    /// Sorted by start, not overlapping.
    private(set) var ramps: [Ramp] = []

    var isEmpty: Bool { ramps.isEmpty }

    mutating func add(_ ramp: Ramp) {
        let start = ramp.timeRange.start
        let end = ramp.timeRange.end
        ramps.removeAll { old in
            if ramp.timeRange.duration == .zero || old.timeRange.duration == .zero {
                return old.timeRange.start == start || (old.timeRange.start < start && start < old.timeRange.end)
                    || (start < old.timeRange.start && old.timeRange.start < end)
            }
            return old.timeRange.start < end && start < old.timeRange.end
        }
        let index = ramps.firstIndex { $0.timeRange.start > start } ?? ramps.count
        ramps.insert(ramp, at: index)
    }

    /// The volume at `seconds`.
    func volume(at seconds: Double) -> Float {
        guard let index = lastRamp(startingAtOrBefore: seconds) else { return 1 }
        let ramp = ramps[index]
        let duration = ramp.end - ramp.start
        guard duration > 0, seconds < ramp.end else { return ramp.endVolume }
        let progress = Float((seconds - ramp.start) / duration)
        return ramp.startVolume + (ramp.endVolume - ramp.startVolume) * progress
    }

    /// The ramp containing `time`, else the first starting after it; nil past the last.
    func ramp(for time: CMTime) -> Ramp? {
        if let containing = ramps.last(where: { r in
            r.timeRange.start <= time && (time < r.timeRange.end || (r.timeRange.duration == .zero && time == r.timeRange.start))
        }) {
            return containing
        }
        return ramps.first { $0.timeRange.start > time }
    }

    /// Scales interleaved samples whose first frame is at `startSeconds`.
    func apply(to samples: UnsafeMutableBufferPointer<Float>, channels: Int, startSeconds: Double, sampleRate: Double) {
        guard !ramps.isEmpty, channels > 0, sampleRate > 0 else { return }
        let frames = samples.count / channels
        for frame in 0..<frames {
            let gain = volume(at: startSeconds + Double(frame) / sampleRate)
            if gain == 1 { continue }
            for channel in 0..<channels { samples[frame * channels + channel] *= gain }
        }
    }

    private func lastRamp(startingAtOrBefore seconds: Double) -> Int? {
        var low = 0
        var high = ramps.count
        while low < high {
            let middle = (low + high) / 2
            if ramps[middle].start <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
