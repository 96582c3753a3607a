/// Gives each encoded packet the duration of its frame: the gap to the next frame's time.
///
/// The encoder hands packets back late (look-ahead, frame threads) and, with B-frames, out
/// of presentation order, so the gap is looked up among the times submitted so far. A
/// packet whose successor has not been submitted yet (the last frames, flushed by
/// `finish`) gets the nominal frame duration.
///
/// The MP4 muxer derives every sample's duration from the next sample's decode time; only
/// the last sample of each fragment, and of the file, takes its duration from here.
struct MovieFrameDurations {
    /// One submitted frame time, and whether its packet has come out of the encoder.
    private struct Entry {
        var time: Int64
        var emitted: Bool
    }

    /// The duration given to a frame whose successor is unknown, in time-base units.
    var nominal: Int64
    /// Submitted times in increasing order, from the oldest frame whose packet is still due.
    private var entries: [Entry] = []

    init(nominal: Int64) {
        self.nominal = max(nominal, 1)
        entries.reserveCapacity(64)
    }

    /// Records a frame sent to the encoder; times must increase.
    mutating func submit(_ time: Int64) {
        entries.append(Entry(time: time, emitted: false))
    }

    /// The duration of the frame whose packet carries `time`, and marks it emitted.
    mutating func take(_ time: Int64) -> Int64 {
        guard let index = entries.firstIndex(where: { $0.time == time }) else { return nominal }
        entries[index].emitted = true
        let duration = index + 1 < entries.count ? entries[index + 1].time - time : nominal
        // An entry is still needed while the frame before it waits for its packet: that
        // frame's duration ends at this entry's time. Leading emitted entries are not.
        var retired = 0
        while retired < entries.count, entries[retired].emitted { retired += 1 }
        if retired > 0 { entries.removeFirst(retired) }
        return duration
    }
}
