import Testing

@testable import CaptureCore

/// Checks every field of a time (== on CMTime compares values, not fields).
private func expectFields(
    _ time: CMTime, value: Int64, timescale: Int32, flags: CMTimeFlags, epoch: Int64 = 0,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(time.value == value, "value of \(time)", sourceLocation: sourceLocation)
    #expect(time.timescale == timescale, "timescale of \(time)", sourceLocation: sourceLocation)
    #expect(time.flags == flags, "flags of \(time): \(time.flags.rawValue)", sourceLocation: sourceLocation)
    #expect(time.epoch == epoch, "epoch of \(time)", sourceLocation: sourceLocation)
}

private let rounded: CMTimeFlags = [.valid, .hasBeenRounded]

@Suite struct CMTimeTests {
    // MARK: Creation

    @Test func valueTimescaleInitializer() {
        expectFields(CMTime(value: 1, timescale: 30), value: 1, timescale: 30, flags: .valid)
        expectFields(CMTimeMake(value: -7, timescale: 600), value: -7, timescale: 600, flags: .valid)
        expectFields(CMTimeMakeWithEpoch(value: 3, timescale: 4, epoch: 9), value: 3, timescale: 4, flags: .valid, epoch: 9)
    }

    @Test func nonPositiveTimescaleGivesInvalid() {
        for time in [
            CMTime(value: 1, timescale: 0), CMTime(value: 1, timescale: -30), CMTimeMake(value: 5, timescale: 0),
            CMTimeMakeWithEpoch(value: 1, timescale: -1, epoch: 3),
        ] {
            #expect(!time.isValid)
            expectFields(time, value: 0, timescale: 0, flags: [])
        }
        expectFields(CMTime(), value: 0, timescale: 0, flags: [])
    }

    @Test func secondsInitializerExact() {
        expectFields(CMTime(seconds: 0.5, preferredTimescale: 600), value: 300, timescale: 600, flags: .valid)
        expectFields(CMTime(seconds: 0, preferredTimescale: 90_000), value: 0, timescale: 90_000, flags: .valid)
        expectFields(CMTime(seconds: -1.25, preferredTimescale: 4), value: -5, timescale: 4, flags: .valid)
        // 200/600 converts back to the same Double as 1/3.
        expectFields(CMTime(seconds: 1.0 / 3.0, preferredTimescale: 600), value: 200, timescale: 600, flags: .valid)
        expectFields(CMTimeMakeWithSeconds(2, preferredTimescale: 1), value: 2, timescale: 1, flags: .valid)
    }

    @Test func secondsInitializerRounds() {
        let time = CMTime(seconds: 1.0001, preferredTimescale: 30)
        expectFields(time, value: 30, timescale: 30, flags: rounded)
        #expect(time.hasBeenRounded)
        expectFields(CMTime(seconds: 2.5, preferredTimescale: 1), value: 3, timescale: 1, flags: rounded)
        expectFields(CMTime(seconds: -2.5, preferredTimescale: 1), value: -3, timescale: 1, flags: rounded)
        expectFields(CMTime(seconds: 0.049, preferredTimescale: 10), value: 0, timescale: 10, flags: rounded)
        expectFields(CMTimeMakeWithSeconds(0.1, preferredTimescale: 3), value: 0, timescale: 3, flags: rounded)
    }

    @Test func secondsInitializerSpecialValues() {
        #expect(!CMTime(seconds: .nan, preferredTimescale: 600).isValid)
        #expect(CMTime(seconds: .infinity, preferredTimescale: 600).isPositiveInfinity)
        #expect(CMTime(seconds: -.infinity, preferredTimescale: 600).isNegativeInfinity)
        #expect(!CMTime(seconds: 1, preferredTimescale: 0).isValid)
        #expect(!CMTime(seconds: 1, preferredTimescale: -600).isValid)
        #expect(!CMTimeMakeWithSeconds(.nan, preferredTimescale: 1).isValid)
    }

    @Test func secondsInitializerHalvesTimescaleOnOverflow() {
        // 1e10 s at 1e9 would be 1e19 > Int64.max; at 5e8 it is 5e18.
        expectFields(
            CMTime(seconds: 1e10, preferredTimescale: 1_000_000_000), value: 5_000_000_000_000_000_000,
            timescale: 500_000_000, flags: .valid)
        #expect(CMTime(seconds: 1e300, preferredTimescale: 600).isPositiveInfinity)
        #expect(CMTime(seconds: -1e300, preferredTimescale: 600).isNegativeInfinity)
    }

    // MARK: Constants

    @Test func constants() {
        expectFields(.zero, value: 0, timescale: 1, flags: .valid)
        expectFields(.invalid, value: 0, timescale: 0, flags: [])
        expectFields(.indefinite, value: 0, timescale: 0, flags: [.valid, .indefinite])
        expectFields(.positiveInfinity, value: 0, timescale: 0, flags: [.valid, .positiveInfinity])
        expectFields(.negativeInfinity, value: 0, timescale: 0, flags: [.valid, .negativeInfinity])
        expectFields(kCMTimeZero, value: 0, timescale: 1, flags: .valid)
        expectFields(kCMTimeInvalid, value: 0, timescale: 0, flags: [])
        expectFields(kCMTimeIndefinite, value: 0, timescale: 0, flags: [.valid, .indefinite])
        expectFields(kCMTimePositiveInfinity, value: 0, timescale: 0, flags: [.valid, .positiveInfinity])
        expectFields(kCMTimeNegativeInfinity, value: 0, timescale: 0, flags: [.valid, .negativeInfinity])
        #expect(kCMTimeMaxTimescale == 1_000_000_000)
        #expect(CMTimeFlags.valid.rawValue == 1)
        #expect(CMTimeFlags.hasBeenRounded.rawValue == 2)
        #expect(CMTimeFlags.positiveInfinity.rawValue == 4)
        #expect(CMTimeFlags.negativeInfinity.rawValue == 8)
        #expect(CMTimeFlags.indefinite.rawValue == 16)
        #expect(CMTimeRoundingMethod.default == .roundHalfAwayFromZero)
        #expect(CMTimeRoundingMethod.roundHalfAwayFromZero.rawValue == 1)
        #expect(CMTimeRoundingMethod.quickTime.rawValue == 4)
        #expect(CMTimeRoundingMethod.roundTowardNegativeInfinity.rawValue == 6)
    }

    // MARK: Inspection

    @Test func seconds() {
        #expect(CMTime(value: 1, timescale: 4).seconds == 0.25)
        #expect(CMTime(value: -3, timescale: 2).seconds == -1.5)
        #expect(CMTimeGetSeconds(CMTime(value: 90_000, timescale: 90_000)) == 1)
        #expect(CMTime.invalid.seconds.isNaN)
        #expect(CMTime.indefinite.seconds.isNaN)
        #expect(CMTimeGetSeconds(.invalid).isNaN)
        #expect(CMTime.positiveInfinity.seconds == .infinity)
        #expect(CMTime.negativeInfinity.seconds == -.infinity)
        #expect(CMTimeGetSeconds(.negativeInfinity) == -.infinity)
        // Valid flag with a zero timescale is malformed, not a division by zero.
        #expect(CMTime(value: 1, timescale: 0, flags: .valid, epoch: 0).seconds.isNaN)
    }

    @Test func predicates() {
        let numeric = CMTime(value: 1, timescale: 30)
        #expect(numeric.isValid && numeric.isNumeric)
        #expect(!numeric.isIndefinite && !numeric.isPositiveInfinity && !numeric.isNegativeInfinity)
        #expect(!numeric.hasBeenRounded)

        #expect(!CMTime.invalid.isValid && !CMTime.invalid.isNumeric && !CMTime.invalid.isIndefinite)
        #expect(CMTime.indefinite.isValid && !CMTime.indefinite.isNumeric && CMTime.indefinite.isIndefinite)
        #expect(CMTime.positiveInfinity.isPositiveInfinity && !CMTime.positiveInfinity.isNumeric)
        #expect(!CMTime.positiveInfinity.isNegativeInfinity)
        #expect(CMTime.negativeInfinity.isNegativeInfinity && !CMTime.negativeInfinity.isNumeric)

        // Implied-value flags without the valid flag do not count.
        let notValid = CMTime(value: 0, timescale: 0, flags: [.positiveInfinity, .indefinite], epoch: 0)
        #expect(!notValid.isPositiveInfinity && !notValid.isIndefinite && !notValid.isValid)

        // hasBeenRounded only for numeric times.
        #expect(CMTime(value: 1, timescale: 3, flags: rounded, epoch: 0).hasBeenRounded)
        #expect(!CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity, .hasBeenRounded], epoch: 0).hasBeenRounded)
    }

    @Test func macroFunctions() {
        let numeric = CMTime(value: 1, timescale: 30)
        #expect(CMTIME_IS_VALID(numeric) && CMTIME_IS_NUMERIC(numeric) && !CMTIME_IS_INVALID(numeric))
        #expect(CMTIME_IS_INVALID(.invalid) && !CMTIME_IS_VALID(.invalid) && !CMTIME_IS_NUMERIC(.invalid))
        #expect(CMTIME_IS_INDEFINITE(.indefinite) && !CMTIME_IS_INDEFINITE(numeric))
        #expect(CMTIME_IS_POSITIVE_INFINITY(.positiveInfinity) && !CMTIME_IS_POSITIVE_INFINITY(.negativeInfinity))
        #expect(CMTIME_IS_NEGATIVE_INFINITY(.negativeInfinity) && !CMTIME_IS_NEGATIVE_INFINITY(.positiveInfinity))
        #expect(!CMTIME_IS_NUMERIC(.indefinite) && !CMTIME_IS_NUMERIC(.positiveInfinity))
        #expect(CMTIME_HAS_BEEN_ROUNDED(CMTime(seconds: 0.1, preferredTimescale: 3)))
        #expect(!CMTIME_HAS_BEEN_ROUNDED(numeric))
    }

    // MARK: Comparison

    @Test func compareFollowsAppleOrder() {
        // Groups in increasing order; times in one group are equal.
        let groups: [[CMTime]] = [
            [.negativeInfinity, CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 7)],
            [CMTime(value: -1, timescale: 1)],
            [.zero, CMTime(value: 0, timescale: 600)],
            [CMTime(value: 1, timescale: 30), CMTime(value: 20, timescale: 600)],
            [CMTime(value: 1, timescale: 2), CMTime(value: 2, timescale: 4), CMTime(value: 45_000, timescale: 90_000)],
            [CMTime(value: 5, timescale: 1, flags: .valid, epoch: 1)],
            [.indefinite, CMTime(value: 9, timescale: 3, flags: [.valid, .indefinite], epoch: 2)],
            [.positiveInfinity],
            [.invalid, CMTime(value: 5, timescale: 30, flags: [], epoch: 0), CMTime(value: 1, timescale: 0, flags: .valid, epoch: 0)],
        ]
        for (i, groupA) in groups.enumerated() {
            for (j, groupB) in groups.enumerated() {
                let expected: Int32 = i < j ? -1 : (i == j ? 0 : 1)
                for a in groupA {
                    for b in groupB {
                        #expect(CMTimeCompare(a, b) == expected, "compare \(a) with \(b)")
                        #expect((a == b) == (expected == 0))
                        #expect((a < b) == (expected < 0))
                    }
                }
            }
        }
    }

    @Test func compareNamedCases() {
        #expect(CMTimeCompare(.invalid, .invalid) == 0)
        #expect(CMTimeCompare(.invalid, .positiveInfinity) == 1)
        #expect(CMTimeCompare(.positiveInfinity, .indefinite) == 1)
        #expect(CMTimeCompare(.indefinite, CMTime(value: Int64.max, timescale: 1)) == 1)
        #expect(CMTimeCompare(.negativeInfinity, CMTime(value: Int64.min, timescale: 1)) == -1)
        #expect(CMTimeCompare(.negativeInfinity, .negativeInfinity) == 0)
        #expect(CMTimeCompare(.indefinite, .indefinite) == 0)
    }

    @Test func compareEpochsFirst() {
        let early = CMTime(value: 1_000, timescale: 1, flags: .valid, epoch: 0)
        let late = CMTime(value: 1, timescale: 1, flags: .valid, epoch: 1)
        #expect(CMTimeCompare(early, late) == -1)
        #expect(CMTimeCompare(late, early) == 1)
        #expect(CMTime(value: 1, timescale: 2, flags: .valid, epoch: 3) != CMTime(value: 1, timescale: 2))
    }

    @Test func compareIsExactBeyondDoublePrecision() {
        // a is 2^53 + 1 s and b is 2^53 s: equal as Doubles, not as rationals.
        let a = CMTime(value: (1 << 54) + 2, timescale: 2)
        let b = CMTime(value: 1 << 53, timescale: 1)
        #expect(a.seconds == b.seconds)
        #expect(CMTimeCompare(a, b) == 1)
        #expect(CMTimeCompare(b, a) == -1)
        let c = CMTime(value: Int64.max, timescale: Int32.max)
        let d = CMTime(value: Int64.max - 1, timescale: Int32.max)
        let e = CMTime(value: Int64.max, timescale: Int32.max - 1)
        #expect(d < c && c < e)
    }

    @Test func comparableSortsAndMinMax() {
        let times: [CMTime] = [
            .invalid, .positiveInfinity, CMTime(value: 1, timescale: 2), .indefinite, .negativeInfinity,
            CMTime(value: 1, timescale: 3),
        ]
        let sorted = times.sorted()
        #expect(sorted.map(\.description) == ["{-INFINITY}", "{1/3 = 0.333}", "{1/2 = 0.500}", "{INDEFINITE}", "{+INFINITY}", "{INVALID}"])
        #expect(times.min()?.isNegativeInfinity == true)
        #expect(times.max()?.isValid == false)
    }

    // MARK: Equality and hashing

    @Test func equalityIsByValue() {
        #expect(CMTime(value: 1, timescale: 2) == CMTime(value: 2, timescale: 4))
        #expect(CMTime(value: 0, timescale: 1) == CMTime(value: 0, timescale: 90_000))
        #expect(CMTime(value: -1, timescale: 2) != CMTime(value: 1, timescale: 2))
        #expect(CMTime(value: 1, timescale: 3, flags: rounded, epoch: 0) == CMTime(value: 1, timescale: 3))
        #expect(CMTime.invalid == CMTime(value: 3, timescale: 7, flags: [], epoch: 1))
        #expect(CMTime.indefinite == CMTime(value: 3, timescale: 7, flags: [.valid, .indefinite], epoch: 0))
        #expect(CMTime.indefinite != .positiveInfinity)
    }

    @Test func hashIsConsistentWithEquality() {
        let halves: Set<CMTime> = [
            CMTime(value: 1, timescale: 2), CMTime(value: 2, timescale: 4), CMTime(value: 300, timescale: 600),
            CMTime(value: 1, timescale: 2, flags: rounded, epoch: 0),
        ]
        #expect(halves.count == 1)
        #expect(CMTime(value: 1, timescale: 2).hashValue == CMTime(value: 45_000, timescale: 90_000).hashValue)
        #expect(CMTime(value: -2, timescale: 6).hashValue == CMTime(value: -1, timescale: 3).hashValue)
        #expect(CMTime.zero.hashValue == CMTime(value: 0, timescale: 600).hashValue)
        #expect(CMTime.invalid.hashValue == CMTime(value: 3, timescale: 7, flags: [], epoch: 1).hashValue)
        #expect(
            CMTime.indefinite.hashValue == CMTime(value: 3, timescale: 7, flags: [.valid, .indefinite], epoch: 5).hashValue)
        let mixed: Set<CMTime> = [
            .invalid, .indefinite, .positiveInfinity, .negativeInfinity, .zero, CMTime(value: 1, timescale: 2),
            CMTime(value: -1, timescale: 2), CMTime(value: 1, timescale: 2, flags: .valid, epoch: 1),
            CMTime(value: Int64.min, timescale: 1), CMTime(value: 0, timescale: 0, flags: [], epoch: 0),
        ]
        #expect(mixed.count == 9)
    }

    // MARK: Addition and subtraction

    @Test func addIsExactAcrossTimescales() {
        let sum = CMTimeAdd(CMTime(value: 1, timescale: 30), CMTime(value: 1, timescale: 25))
        expectFields(sum, value: 11, timescale: 150, flags: .valid)
        expectFields(CMTime(value: 1, timescale: 30) + CMTime(value: 1, timescale: 30), value: 2, timescale: 30, flags: .valid)
        expectFields(CMTime(value: -1, timescale: 3) + CMTime(value: 1, timescale: 6), value: -1, timescale: 6, flags: .valid)
        expectFields(CMTime(value: 1001, timescale: 30_000) + CMTime(value: 1, timescale: 1), value: 31_001, timescale: 30_000, flags: .valid)
        expectFields(CMTime.zero + CMTime(value: 7, timescale: 90_000), value: 7, timescale: 90_000, flags: .valid)
    }

    @Test func subtractIsExactAcrossTimescales() {
        expectFields(CMTimeSubtract(CMTime(value: 1, timescale: 25), CMTime(value: 1, timescale: 30)), value: 1, timescale: 150, flags: .valid)
        expectFields(CMTime(value: 1, timescale: 30) - CMTime(value: 1, timescale: 25), value: -1, timescale: 150, flags: .valid)
        expectFields(CMTime(value: 5, timescale: 30) - CMTime(value: 5, timescale: 30), value: 0, timescale: 30, flags: .valid)
        var time = CMTime(value: 1, timescale: 10)
        time += CMTime(value: 1, timescale: 4)
        expectFields(time, value: 7, timescale: 20, flags: .valid)
        time -= CMTime(value: 1, timescale: 5)
        expectFields(time, value: 3, timescale: 20, flags: .valid)
    }

    @Test func addFallsBackToMaxTimescaleAndRounds() {
        // lcm(999_999_999, 2) = 1_999_999_998 > kCMTimeMaxTimescale.
        let sum = CMTime(value: 1, timescale: 999_999_999) + CMTime(value: 1, timescale: 2)
        expectFields(sum, value: 500_000_001, timescale: 1_000_000_000, flags: rounded)
        #expect(sum.hasBeenRounded)
    }

    @Test func addHalvesTimescaleOnOverflow() {
        let big = CMTime(value: Int64.max, timescale: 1000)
        expectFields(big + big, value: Int64.max, timescale: 500, flags: .valid)
        #expect((CMTime(value: Int64.max, timescale: 1) + CMTime(value: 1, timescale: 1)).isPositiveInfinity)
        #expect((CMTime(value: Int64.min, timescale: 1) - CMTime(value: 1, timescale: 1)).isNegativeInfinity)
        // (2^64 - 2) / 3 s fits no timescale above 1; at 1 it rounds from ...204.67.
        let thirds = CMTime(value: Int64.max, timescale: 3) + CMTime(value: Int64.max, timescale: 3)
        expectFields(thirds, value: 6_148_914_691_236_517_205, timescale: 1, flags: rounded)
    }

    @Test func addPropagatesRoundedFlag() {
        let roundedThird = CMTime(seconds: 1.0 / 3.0, preferredTimescale: 10)
        #expect(roundedThird.hasBeenRounded)
        let sum = roundedThird + CMTime(value: 1, timescale: 10)
        expectFields(sum, value: 4, timescale: 10, flags: rounded)
        expectFields(CMTime(value: 1, timescale: 10) - roundedThird, value: -2, timescale: 10, flags: rounded)
    }

    @Test func addNonNumericRules() {
        let one = CMTime(value: 1, timescale: 1)
        #expect(!(CMTime.invalid + one).isValid)
        #expect(!(one + CMTime.invalid).isValid)
        #expect(!(CMTime.invalid + CMTime.positiveInfinity).isValid)
        #expect(!(CMTime.indefinite + CMTime.invalid).isValid)
        #expect((CMTime.positiveInfinity + one).isPositiveInfinity)
        #expect((one + CMTime.negativeInfinity).isNegativeInfinity)
        #expect((CMTime.positiveInfinity + CMTime.positiveInfinity).isPositiveInfinity)
        #expect((CMTime.negativeInfinity + CMTime.negativeInfinity).isNegativeInfinity)
        #expect(!(CMTime.positiveInfinity + CMTime.negativeInfinity).isValid)
        #expect(!(CMTime.negativeInfinity + CMTime.positiveInfinity).isValid)
        #expect((CMTime.indefinite + one).isIndefinite)
        #expect((one + CMTime.indefinite).isIndefinite)
        #expect((CMTime.indefinite + CMTime.indefinite).isIndefinite)
        #expect((CMTime.indefinite + CMTime.positiveInfinity).isPositiveInfinity)
        #expect((CMTime.negativeInfinity + CMTime.indefinite).isNegativeInfinity)
    }

    @Test func subtractNonNumericRules() {
        let one = CMTime(value: 1, timescale: 1)
        #expect(!(CMTime.positiveInfinity - CMTime.positiveInfinity).isValid)
        #expect(!(CMTime.negativeInfinity - CMTime.negativeInfinity).isValid)
        #expect((CMTime.positiveInfinity - CMTime.negativeInfinity).isPositiveInfinity)
        #expect((CMTime.negativeInfinity - CMTime.positiveInfinity).isNegativeInfinity)
        #expect((one - CMTime.positiveInfinity).isNegativeInfinity)
        #expect((one - CMTime.negativeInfinity).isPositiveInfinity)
        #expect((CMTime.positiveInfinity - one).isPositiveInfinity)
        #expect((CMTime.indefinite - one).isIndefinite)
        #expect((one - CMTime.indefinite).isIndefinite)
        #expect(!(one - CMTime.invalid).isValid)
    }

    @Test func addAndSubtractEpochs() {
        let inEpoch2 = CMTime(value: 5, timescale: 1, flags: .valid, epoch: 2)
        let duration = CMTime(value: 1, timescale: 1)
        expectFields(inEpoch2 + duration, value: 6, timescale: 1, flags: .valid, epoch: 2)
        expectFields(duration + inEpoch2, value: 6, timescale: 1, flags: .valid, epoch: 2)
        expectFields(inEpoch2 - duration, value: 4, timescale: 1, flags: .valid, epoch: 2)
        let alsoEpoch2 = CMTime(value: 3, timescale: 1, flags: .valid, epoch: 2)
        expectFields(inEpoch2 - alsoEpoch2, value: 2, timescale: 1, flags: .valid, epoch: 0)
        let inEpoch3 = CMTime(value: 3, timescale: 1, flags: .valid, epoch: 3)
        #expect(!(inEpoch2 + inEpoch3).isValid)
        #expect(!(inEpoch2 - inEpoch3).isValid)
    }

    // MARK: Multiplication

    @Test func multiply() {
        let frame = CMTime(value: 1, timescale: 30)
        expectFields(CMTimeMultiply(frame, multiplier: 3), value: 3, timescale: 30, flags: .valid)
        expectFields(CMTimeMultiply(frame, multiplier: -2), value: -2, timescale: 30, flags: .valid)
        expectFields(frame * 4, value: 4, timescale: 30, flags: .valid)
        expectFields(5 * frame, value: 5, timescale: 30, flags: .valid)
        var time = CMTime(value: 2, timescale: 7, flags: .valid, epoch: 4)
        time *= 3
        expectFields(time, value: 6, timescale: 7, flags: .valid, epoch: 4)
        expectFields(CMTimeMultiply(CMTime(value: 1, timescale: 3, flags: rounded, epoch: 0), multiplier: 2), value: 2, timescale: 3, flags: rounded)
    }

    @Test func multiplyOverflow() {
        expectFields(CMTimeMultiply(CMTime(value: Int64.max, timescale: 1000), multiplier: 2), value: Int64.max, timescale: 500, flags: .valid)
        #expect(CMTimeMultiply(CMTime(value: Int64.max, timescale: 1), multiplier: 2).isPositiveInfinity)
        #expect(CMTimeMultiply(CMTime(value: Int64.max, timescale: 1), multiplier: -2).isNegativeInfinity)
    }

    @Test func multiplyNonNumeric() {
        #expect(CMTimeMultiply(.positiveInfinity, multiplier: 2).isPositiveInfinity)
        #expect(CMTimeMultiply(.positiveInfinity, multiplier: -1).isNegativeInfinity)
        #expect(CMTimeMultiply(.negativeInfinity, multiplier: -3).isPositiveInfinity)
        #expect(!CMTimeMultiply(.positiveInfinity, multiplier: 0).isValid)
        #expect(CMTimeMultiply(.indefinite, multiplier: 2).isIndefinite)
        #expect(!CMTimeMultiply(.invalid, multiplier: 2).isValid)
    }

    @Test func multiplyByRatio() {
        // Exact: the timescale grows instead of the value being divided.
        expectFields(
            CMTimeMultiplyByRatio(CMTime(value: 43_804, timescale: 600), multiplier: 1, divisor: 4), value: 43_804,
            timescale: 2400, flags: .valid)
        expectFields(CMTimeMultiplyByRatio(CMTime(value: 1, timescale: 30), multiplier: 3, divisor: -2), value: -3, timescale: 60, flags: .valid)
        // Too large unreduced, exact after reduction.
        expectFields(
            CMTimeMultiplyByRatio(CMTime(value: Int64.max, timescale: 2), multiplier: 2, divisor: 1), value: Int64.max,
            timescale: 1, flags: .valid)
        // Denominator 3e9 does not fit: 7/3e9 s is rounded at kCMTimeMaxTimescale.
        expectFields(
            CMTimeMultiplyByRatio(CMTime(value: 7, timescale: 3), multiplier: 1, divisor: 1_000_000_000), value: 2,
            timescale: 1_000_000_000, flags: rounded)
        #expect(CMTimeMultiplyByRatio(CMTime(value: Int64.max, timescale: 1), multiplier: 3, divisor: 1).isPositiveInfinity)
    }

    @Test func multiplyByRatioSpecialCases() {
        #expect(CMTimeMultiplyByRatio(CMTime(value: 1, timescale: 30), multiplier: 1, divisor: 0).isPositiveInfinity)
        #expect(CMTimeMultiplyByRatio(CMTime(value: -1, timescale: 30), multiplier: 1, divisor: 0).isNegativeInfinity)
        #expect(CMTimeMultiplyByRatio(CMTime(value: 1, timescale: 30), multiplier: -1, divisor: 0).isNegativeInfinity)
        // An infinite time takes the ratio's sign (a zero divisor keeps the multiplier's).
        #expect(CMTimeMultiplyByRatio(.positiveInfinity, multiplier: 1, divisor: -2).isNegativeInfinity)
        #expect(CMTimeMultiplyByRatio(.negativeInfinity, multiplier: -1, divisor: -2).isNegativeInfinity)
        #expect(CMTimeMultiplyByRatio(.negativeInfinity, multiplier: -3, divisor: 0).isPositiveInfinity)
        #expect(!CMTimeMultiplyByRatio(.positiveInfinity, multiplier: 0, divisor: 5).isValid)
        #expect(!CMTimeMultiplyByRatio(.zero, multiplier: 1, divisor: 0).isValid)
        #expect(!CMTimeMultiplyByRatio(CMTime(value: 1, timescale: 30), multiplier: 0, divisor: 0).isValid)
        #expect(CMTimeMultiplyByRatio(.positiveInfinity, multiplier: -1, divisor: 2).isNegativeInfinity)
        #expect(CMTimeMultiplyByRatio(.positiveInfinity, multiplier: 1, divisor: -2).isNegativeInfinity)
        #expect(CMTimeMultiplyByRatio(.negativeInfinity, multiplier: -1, divisor: -1).isNegativeInfinity)
        #expect(CMTimeMultiplyByRatio(.indefinite, multiplier: 1, divisor: 0).isIndefinite)
        #expect(!CMTimeMultiplyByRatio(.invalid, multiplier: 1, divisor: 1).isValid)
    }

    // MARK: Scale conversion

    @Test(arguments: [
        (CMTimeRoundingMethod.roundHalfAwayFromZero, Int64(3), Int64(-3), Int64(1), Int64(-1)),
        (.roundTowardZero, 3, -3, 0, 0),
        (.roundAwayFromZero, 4, -4, 1, -1),
        (.roundTowardPositiveInfinity, 4, -3, 1, 0),
        (.roundTowardNegativeInfinity, 3, -4, 0, -1),
    ])
    func convertScaleRounding(method: CMTimeRoundingMethod, third: Int64, minusThird: Int64, quarter: Int64, minusQuarter: Int64) {
        // 1/3 s at timescale 10 is 3.33; 1/4 s at timescale 2 is 0.5.
        expectFields(CMTimeConvertScale(CMTime(value: 1, timescale: 3), timescale: 10, method: method), value: third, timescale: 10, flags: rounded)
        expectFields(CMTimeConvertScale(CMTime(value: -1, timescale: 3), timescale: 10, method: method), value: minusThird, timescale: 10, flags: rounded)
        expectFields(CMTimeConvertScale(CMTime(value: 1, timescale: 4), timescale: 2, method: method), value: quarter, timescale: 2, flags: rounded)
        expectFields(CMTimeConvertScale(CMTime(value: -1, timescale: 4), timescale: 2, method: method), value: minusQuarter, timescale: 2, flags: rounded)
        expectFields(CMTimeConvertScale(CMTime(value: 1, timescale: 2), timescale: 10, method: method), value: 5, timescale: 10, flags: .valid)
    }

    @Test func convertScaleQuickTime() {
        // To a larger timescale: away from zero.
        expectFields(CMTimeConvertScale(CMTime(value: 1, timescale: 3), timescale: 10, method: .quickTime), value: 4, timescale: 10, flags: rounded)
        // To a smaller timescale: toward zero.
        expectFields(CMTimeConvertScale(CMTime(value: 17, timescale: 30), timescale: 2, method: .quickTime), value: 1, timescale: 2, flags: rounded)
        // A negative time never becomes 0.
        expectFields(CMTimeConvertScale(CMTime(value: -1, timescale: 30), timescale: 2, method: .quickTime), value: -1, timescale: 2, flags: rounded)
        expectFields(CMTimeConvertScale(CMTime(value: 1, timescale: 30), timescale: 2, method: .quickTime), value: 0, timescale: 2, flags: rounded)
    }

    @Test func convertScaleEdges() {
        let time = CMTime(value: 7, timescale: 30, flags: .valid, epoch: 3)
        expectFields(time.convertScale(60, method: .default), value: 14, timescale: 60, flags: .valid, epoch: 3)
        expectFields(CMTimeConvertScale(time, timescale: 30, method: .roundTowardZero), value: 7, timescale: 30, flags: .valid, epoch: 3)
        #expect(!CMTimeConvertScale(time, timescale: 0, method: .default).isValid)
        #expect(CMTimeConvertScale(CMTime(value: Int64.max, timescale: 1), timescale: 2, method: .default).isPositiveInfinity)
        #expect(CMTimeConvertScale(CMTime(value: Int64.min, timescale: 1), timescale: 2, method: .default).isNegativeInfinity)
        #expect(CMTimeConvertScale(.positiveInfinity, timescale: 600, method: .default).isPositiveInfinity)
        #expect(CMTimeConvertScale(.negativeInfinity, timescale: 600, method: .default).isNegativeInfinity)
        #expect(CMTimeConvertScale(.indefinite, timescale: 600, method: .default).isIndefinite)
        #expect(!CMTimeConvertScale(.invalid, timescale: 600, method: .default).isValid)
        // The rounded flag is kept.
        expectFields(
            CMTimeConvertScale(CMTime(value: 1, timescale: 3, flags: rounded, epoch: 0), timescale: 6, method: .default),
            value: 2, timescale: 6, flags: rounded)
    }

    // MARK: Minimum, maximum, absolute value

    @Test func minimumAndMaximum() {
        let half = CMTime(value: 1, timescale: 2)
        let third = CMTime(value: 1, timescale: 3)
        expectFields(CMTimeMinimum(half, third), value: 1, timescale: 3, flags: .valid)
        expectFields(CMTimeMaximum(third, half), value: 1, timescale: 2, flags: .valid)
        expectFields(CMTimeMinimum(half, CMTime(value: 2, timescale: 4)), value: 1, timescale: 2, flags: .valid)
        expectFields(CMTimeMaximum(CMTime(value: 2, timescale: 4), half), value: 2, timescale: 4, flags: .valid)
        #expect(CMTimeMinimum(half, .negativeInfinity).isNegativeInfinity)
        #expect(CMTimeMaximum(half, .positiveInfinity).isPositiveInfinity)
        #expect(CMTimeMaximum(.indefinite, half).isIndefinite)
        #expect(!CMTimeMaximum(.positiveInfinity, .invalid).isValid)
        expectFields(CMTimeMinimum(.invalid, half), value: 1, timescale: 2, flags: .valid)
    }

    @Test func absoluteValue() {
        expectFields(CMTimeAbsoluteValue(CMTime(value: -1, timescale: 3)), value: 1, timescale: 3, flags: .valid)
        expectFields(CMTimeAbsoluteValue(CMTime(value: 4, timescale: 3, flags: .valid, epoch: 2)), value: 4, timescale: 3, flags: .valid, epoch: 2)
        expectFields(CMTimeAbsoluteValue(CMTime(value: Int64.min, timescale: 2)), value: 1 << 62, timescale: 1, flags: .valid)
        #expect(CMTimeAbsoluteValue(CMTime(value: Int64.min, timescale: 1)).isPositiveInfinity)
        #expect(CMTimeAbsoluteValue(.negativeInfinity).isPositiveInfinity)
        #expect(CMTimeAbsoluteValue(.positiveInfinity).isPositiveInfinity)
        #expect(CMTimeAbsoluteValue(.indefinite).isIndefinite)
        #expect(!CMTimeAbsoluteValue(.invalid).isValid)
    }

    // MARK: Descriptions

    @Test func descriptions() {
        #expect(CMTime(value: 1, timescale: 30).description == "{1/30 = 0.033}")
        #expect(CMTime(value: 10_000, timescale: 600).description == "{10000/600 = 16.667}")
        #expect(CMTime(value: -3, timescale: 2).description == "{-3/2 = -1.500}")
        #expect(CMTime.invalid.description == "{INVALID}")
        #expect(CMTime.positiveInfinity.description == "{+INFINITY}")
        #expect(CMTime.negativeInfinity.description == "{-INFINITY}")
        #expect(CMTime.indefinite.description == "{INDEFINITE}")
        #expect(CMTime(seconds: 1.0001, preferredTimescale: 30).description == "{30/30 = 1.000, rounded}")
        #expect(CMTime(value: 1, timescale: 2, flags: .valid, epoch: 4).description == "{1/2 = 0.500, epoch = 4}")
        #expect(CMTime(value: 1, timescale: 30).debugDescription == "{1/30 = 0.033}")
        #expect(String(describing: CMTime.zero) == "{0/1 = 0.000}")
        #expect("\(CMTime.indefinite)" == "{INDEFINITE}")
    }
}
