import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// `FrameAccount`, the check every real-time test leans on: it must catch a frame that went
/// missing unreported, and pass a stream whose gaps are all reported, as a real one with a
/// slow delegate is.
@Suite("Frame account", .serialized)
struct FrameAccountTests {
    static let thirtieth = CMTime(value: 1, timescale: 30)

    /// Frame `n` of a 30 fps stream starting at 10 s.
    static func at(_ n: Int64) -> CMTime { CMTime(value: 300 + n, timescale: 30) }

    @Test("gaps filled by drops (a discontinuity's drops share its first frame's time) account for every frame")
    func reportedGapsAreComplete() {
        let events: [FrameAccount.Event] = [
            .frame(Self.at(0)), .drop(Self.at(1), reason: kCMSampleBufferDroppedFrameReason_FrameWasLate), .frame(Self.at(2)),
            .drop(Self.at(3), reason: kCMSampleBufferDroppedFrameReason_Discontinuity),
            .drop(Self.at(3), reason: kCMSampleBufferDroppedFrameReason_Discontinuity), .frame(Self.at(5)),
            .drop(Self.at(6), reason: kCMSampleBufferDroppedFrameReason_OutOfBuffers),
        ]
        let account = FrameAccount(events, frameDuration: Self.thirtieth)
        #expect(account.isComplete, "\(account.problems)")
        #expect(account.delivered == 3 && account.longestGap == 2)
        #expect(account.dropped == [
            kCMSampleBufferDroppedFrameReason_FrameWasLate: 1, kCMSampleBufferDroppedFrameReason_Discontinuity: 2,
            kCMSampleBufferDroppedFrameReason_OutOfBuffers: 1,
        ])
    }

    @Test("a frame missing unreported, one repeated, one off the grid or a drop outside its gap breaks the account")
    func unreportedGapsAreProblems() {
        let late = kCMSampleBufferDroppedFrameReason_FrameWasLate
        let broken: [[FrameAccount.Event]] = [
            [.frame(Self.at(0)), .frame(Self.at(2))],
            [.frame(Self.at(0)), .drop(Self.at(1), reason: late), .drop(Self.at(2), reason: late), .frame(Self.at(2))],
            [.frame(Self.at(1)), .frame(Self.at(0))],
            [.frame(Self.at(0)), .frame(Self.at(0))],
            [.frame(Self.at(0)), .frame(CMTime(value: 1_001, timescale: 30_000) + Self.at(0))],
            [.frame(Self.at(0)), .drop(Self.at(0), reason: late), .frame(Self.at(2))],
            [.frame(Self.at(3)), .drop(Self.at(2), reason: late)],
        ]
        for events in broken {
            #expect(!FrameAccount(events, frameDuration: Self.thirtieth).isComplete, "\(events)")
        }
    }

    @Test("a delegate too slow for real time (80 ms a frame at 30 fps): FrameWasLate drops (and any discontinuity) fill every gap")
    func slowDelegateInRealTimeIsAccountedFor() throws {
        let rig = try TestRig(preset: .cif352x288, pacing: .realTime)
        rig.collector.delay = 0.08
        rig.session.startRunning()
        try rig.collector.waitForDrops(10)
        try rig.collector.waitForMoreFrames(2)
        rig.stop()
        rig.collector.queue.sync {}
        let account = FrameAccount(rig.collector.events, frameDuration: Self.thirtieth)
        #expect(account.isComplete, "\(account.problems)")
        #expect(account.dropped[kCMSampleBufferDroppedFrameReason_FrameWasLate, default: 0] >= 10, "\(account)")
        #expect(account.longestGap >= 1)
    }
}
