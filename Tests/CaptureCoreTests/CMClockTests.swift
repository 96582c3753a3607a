import Glibc
import Testing

@testable import CaptureCore

/// CLOCK_MONOTONIC in nanoseconds, read directly.
private func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

@Suite struct CMClockTests {
    @Test func hostClockIsShared() {
        #expect(CMClockGetHostTimeClock() === CMClock.hostTimeClock)
        #expect(CMClock.hostTimeClock.offsetFromHost == .zero)
    }

    @Test func hostClockReadsMonotonicNanoseconds() {
        let before = monotonicNanoseconds()
        let time = CMClockGetTime(CMClockGetHostTimeClock())
        let after = monotonicNanoseconds()
        #expect(time.isNumeric)
        #expect(time.timescale == 1_000_000_000)
        #expect(time.epoch == 0)
        #expect(!time.hasBeenRounded)
        #expect(time.value >= before && time.value <= after)
    }

    @Test func hostClockIsMonotonic() {
        var previous = CMClock.hostTimeClock.time
        for _ in 0..<10_000 {
            let now = CMClock.hostTimeClock.time
            #expect(now >= previous)
            previous = now
        }
        let start = CMClock.hostTimeClock.time
        usleep(2_000)
        let elapsed = CMClock.hostTimeClock.time - start
        #expect(elapsed >= CMTime(value: 2, timescale: 1000))
        #expect(elapsed < CMTime(value: 10, timescale: 1))
    }

    @Test func deviceClockIsHostPlusOffset() {
        let device = CMClock(name: "camera", offsetFromHost: CMTime(value: 5, timescale: 1))
        let before = CMClock.hostTimeClock.time
        let time = device.time
        let after = CMClock.hostTimeClock.time
        #expect(time.timescale == 1_000_000_000)
        #expect(time >= before + CMTime(value: 5, timescale: 1))
        #expect(time <= after + CMTime(value: 5, timescale: 1))
        #expect(device.name == "camera")
    }

    @Test func offsetCanChange() {
        let device = CMClock(name: "camera", offsetFromHost: .zero)
        device.offsetFromHost = CMTime(value: -3, timescale: 2)
        #expect(device.offsetFromHost.value == -3)
        #expect(device.offsetFromHost.timescale == 2)
        let host = CMClock.hostTimeClock.time
        #expect(device.time < host)
    }

    @Test func syncConvertTimeIsExactAndRoundTrips() {
        let clockA = CMClock(name: "A", offsetFromHost: CMTime(value: 3, timescale: 1))
        let clockB = CMClock(name: "B", offsetFromHost: CMTime(value: -7, timescale: 2))
        let time = CMTime(value: 123_456_789, timescale: 1_000_000_000)

        // time - 3 s - 3.5 s
        let inB = CMSyncConvertTime(time, from: clockA, to: clockB)
        #expect(inB.value == -6_376_543_211)
        #expect(inB.timescale == 1_000_000_000)
        #expect(!inB.hasBeenRounded)

        let back = CMSyncConvertTime(inB, from: clockB, to: clockA)
        #expect(back.value == 123_456_789)
        #expect(back.timescale == 1_000_000_000)
        #expect(back.flags == .valid)

        // Through the host clock gives the same result.
        let viaHost = CMSyncConvertTime(
            CMSyncConvertTime(time, from: clockA, to: CMClock.hostTimeClock), from: CMClock.hostTimeClock, to: clockB)
        #expect(viaHost == inB)
        #expect(CMSyncConvertTime(time, from: clockA, to: CMClock.hostTimeClock).value == -2_876_543_211)
    }

    @Test func syncConvertTimeAcrossTimescales() {
        let clockA = CMClock(name: "A", offsetFromHost: CMTime(value: 1, timescale: 30))
        let clockB = CMClock(name: "B", offsetFromHost: CMTime(value: 1, timescale: 25))
        let time = CMTime(value: 10, timescale: 1)
        // 10 - 1/30 + 1/25 = 1501/150
        let converted = CMSyncConvertTime(time, from: clockA, to: clockB)
        #expect(converted.value == 1501)
        #expect(converted.timescale == 150)
        #expect(CMSyncConvertTime(converted, from: clockB, to: clockA) == time)
    }

    @Test func syncConvertLiveReadings() {
        let device = CMClock(name: "camera", offsetFromHost: CMTime(value: 86_400, timescale: 1))
        let before = CMClock.hostTimeClock.time
        let deviceNow = device.time
        let after = CMClock.hostTimeClock.time
        let inHost = CMSyncConvertTime(deviceNow, from: device, to: CMClockGetHostTimeClock())
        #expect(inHost >= before && inHost <= after)
    }

    @Test func syncConvertPassesNonNumericAndSameClock() {
        let clockA = CMClock(name: "A", offsetFromHost: CMTime(value: 3, timescale: 1))
        let clockB = CMClock(name: "B", offsetFromHost: CMTime(value: 9, timescale: 1))
        #expect(!CMSyncConvertTime(.invalid, from: clockA, to: clockB).isValid)
        #expect(CMSyncConvertTime(.indefinite, from: clockA, to: clockB).isIndefinite)
        #expect(CMSyncConvertTime(.positiveInfinity, from: clockA, to: clockB).isPositiveInfinity)
        #expect(CMSyncConvertTime(.negativeInfinity, from: clockA, to: clockB).isNegativeInfinity)
        let time = CMTime(value: 7, timescale: 600)
        let same = CMSyncConvertTime(time, from: clockA, to: clockA)
        #expect(same.value == 7 && same.timescale == 600)
    }

    @Test func systemUnitConversions() {
        #expect(CMClockConvertHostTimeToSystemUnits(CMTime(value: 1, timescale: 1)) == 1_000_000_000)
        #expect(CMClockConvertHostTimeToSystemUnits(CMTime(value: 3, timescale: 2)) == 1_500_000_000)
        #expect(CMClockConvertHostTimeToSystemUnits(CMTime(value: 1, timescale: 3)) == 333_333_333)
        #expect(CMClockConvertHostTimeToSystemUnits(CMTime(value: 2, timescale: 3)) == 666_666_667)
        #expect(CMClockConvertHostTimeToSystemUnits(CMTime(value: -1, timescale: 1)) == 0)
        #expect(CMClockConvertHostTimeToSystemUnits(.invalid) == 0)
        #expect(CMClockConvertHostTimeToSystemUnits(.positiveInfinity) == 0)
        #expect(CMClockConvertHostTimeToSystemUnits(CMTime(value: Int64.max, timescale: 1)) == UInt64.max)

        let time = CMClockMakeHostTimeFromSystemUnits(1_500_000_000)
        #expect(time.value == 1_500_000_000 && time.timescale == 1_000_000_000 && time.flags == .valid)
        // UInt64.max ns fits no timescale above 2.5e8 (at 5e8 it rounds up past Int64.max).
        let huge = CMClockMakeHostTimeFromSystemUnits(UInt64.max)
        #expect(huge.value == 4_611_686_018_427_387_904)
        #expect(huge.timescale == 250_000_000)
        #expect(huge.hasBeenRounded)

        let now = CMClock.hostTimeClock.time
        #expect(CMClockConvertHostTimeToSystemUnits(now) == UInt64(now.value))
        let roundTrip = CMClockMakeHostTimeFromSystemUnits(CMClockConvertHostTimeToSystemUnits(now))
        #expect(roundTrip.value == now.value && roundTrip.timescale == now.timescale)
    }

    @Test func clocksAreUsableConcurrently() async {
        let device = CMClock(name: "camera", offsetFromHost: .zero)
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for step in 0..<200 {
                        if index == 0 { device.offsetFromHost = CMTime(value: Int64(step), timescale: 1000) }
                        if !device.time.isNumeric { return false }
                    }
                    return true
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
