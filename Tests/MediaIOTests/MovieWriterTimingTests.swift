import Testing
@testable import MediaIO

/// The bookkeeping behind fragment cuts and sample durations, without an encoder.
@Suite("Movie writer timing")
struct MovieWriterTimingTests {
    @Test("a packet lasts until the next submitted frame, whatever order packets come in")
    func durationsOutOfOrder() {
        var durations = MovieFrameDurations(nominal: 3000)
        for time: Int64 in [0, 3000, 6000, 12000, 15000] { durations.submit(time) }
        // Decode order of an I P B B stream, then the last frame, whose successor is unknown.
        let taken = [0, 12000, 3000, 6000, 15000].map { durations.take($0) }
        // 6000 lasts until 12000: a dropped frame lengthens the one before it.
        #expect(taken == [3000, 3000, 3000, 6000, 3000])
        durations.submit(18000)
        let late = durations.take(18000)
        #expect(late == 3000)
    }

    @Test("a forced keyframe at every interval, jitter tolerated, gaps skipped")
    func fragmentPlan() {
        var plan = MovieFragmentPlan(interval: 90000, frameDuration: 3000)
        // 89000 is within half a frame of the 1 s boundary; 400000 jumped over two
        // boundaries and gets one keyframe; the next boundary is 450000.
        let times: [Int64] = [0, 87000, 89000, 92000, 400000, 448000, 450000]
        let forced = times.map { plan.forcesKeyframe(at: $0) }
        #expect(forced == [false, false, true, false, true, false, true])

        let cuts = [
            plan.startsFragment(time: 0, isKeyframe: true),  // the first fragment needs no cut
            plan.startsFragment(time: 89000, isKeyframe: true),
            plan.startsFragment(time: 89000, isKeyframe: true),  // each forced keyframe cuts once
            plan.startsFragment(time: 400000, isKeyframe: false),  // not a keyframe after all: no cut
            plan.startsFragment(time: 450000, isKeyframe: true),
        ]
        #expect(cuts == [false, true, false, false, true])
    }

    @Test("no fragmentation: nothing is forced")
    func unfragmentedPlan() {
        var plan = MovieFragmentPlan(interval: 0, frameDuration: 3000)
        let forced = stride(from: Int64(0), to: 900_000, by: 3000).filter { plan.forcesKeyframe(at: $0) }
        #expect(forced.isEmpty)
    }
}
