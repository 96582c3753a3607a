// CMTimeRange.h and the CMTime.h arithmetic, spelled as iOS code spells them.
import CoreMedia
import Foundation
import Testing

/// Touches every declaration of CMTimeRange.h (and CMTime.h's arithmetic); compiled, never called.
func spellCMTimeRange(_ t: CMTime) {
    let range: CMTimeRange = CMTimeRangeMake(start: t, duration: CMTime(value: 1, timescale: 30))
    let fromTo: CMTimeRange = CMTimeRangeFromTimeToTime(start: .zero, end: t)
    let made = (CMTimeRange(), CMTimeRange(start: t, duration: t), CMTimeRange(start: .zero, end: t))
    let constants: [CMTimeRange] = [.zero, .invalid, kCMTimeRangeZero, kCMTimeRangeInvalid]
    let flags: (Bool, Bool, Bool) = (range.isValid, range.isIndefinite, range.isEmpty)
    let macros: (Bool, Bool, Bool, Bool) = (
        CMTIMERANGE_IS_VALID(range), CMTIMERANGE_IS_INVALID(range), CMTIMERANGE_IS_INDEFINITE(range), CMTIMERANGE_IS_EMPTY(range))
    let ends: (CMTime, CMTime, CMTime, CMTime) = (range.start, range.duration, range.end, CMTimeRangeGetEnd(range))
    let sets: (CMTimeRange, CMTimeRange, CMTimeRange, CMTimeRange) = (
        range.union(fromTo), range.intersection(fromTo), CMTimeRangeGetUnion(range, otherRange: fromTo),
        CMTimeRangeGetIntersection(range, otherRange: fromTo))
    let tests: (Bool, Bool, Bool, Bool, Bool, Bool) = (
        range.containsTime(t), range.containsTimeRange(fromTo), CMTimeRangeContainsTime(range, time: t),
        CMTimeRangeContainsTimeRange(range, otherRange: fromTo), CMTimeRangeEqual(range, fromTo), range == fromTo || range != fromTo)
    let mapped: (CMTime, CMTime, CMTime, CMTime) = (
        CMTimeMapTimeFromRangeToRange(t, fromRange: range, toRange: fromTo), CMTimeClampToRange(t, range: range),
        CMTimeMapDurationFromRangeToRange(t, fromRange: range, toRange: fromTo), CMTimeFoldIntoRange(t, foldRange: range))
    CMTimeRangeShow(range)
    CMTimeShow(t)
    let arithmetic: [CMTime] = [
        CMTimeMultiply(t, multiplier: 2), CMTimeMultiplyByFloat64(t, multiplier: 1.5), CMTimeMultiplyByRatio(t, multiplier: 1, divisor: 3),
        CMTimeConvertScale(t, timescale: 600, method: .default), CMTimeMinimum(t, .zero), CMTimeMaximum(t, .zero),
        CMTimeAbsoluteValue(t), CMTimeAdd(t, t), CMTimeSubtract(t, t), t.convertScale(90000, method: .roundHalfAwayFromZero),
    ]
    let compared: Int32 = CMTimeCompare(t, .zero)
    _ = (made, constants, flags, macros, ends, sets, tests, mapped, arithmetic, compared)
}

@Suite("CMTimeRange spelling")
struct CMTimeRangeSpellingTests {
    let second = CMTime(value: 1, timescale: 1)

    @Test("end, containsTime and containsTimeRange follow [start, end)")
    func containment() {
        let range = CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 2, timescale: 1))
        #expect(range.end == CMTime(value: 3, timescale: 1))
        #expect(range.containsTime(CMTime(value: 1, timescale: 1)))
        #expect(!range.containsTime(CMTime(value: 3, timescale: 1)), "the end is outside")
        #expect(range.containsTimeRange(CMTimeRange(start: CMTime(value: 2, timescale: 1), end: CMTime(value: 3, timescale: 1))))
        #expect(!range.containsTimeRange(CMTimeRange(start: .zero, end: CMTime(value: 2, timescale: 1))))
        #expect(!CMTimeRange.invalid.containsTime(.zero) && !CMTimeRange.invalid.isValid)
        #expect(CMTimeRange.zero.isEmpty && CMTimeRange.zero.isValid)
        #expect(!CMTimeRange(start: .zero, duration: CMTime(value: -1, timescale: 1)).isValid, "a negative duration is invalid")
        #expect(CMTimeRange(start: .zero, duration: .indefinite).isIndefinite)
    }

    @Test("union spans both; intersection is the overlap; disjoint ranges intersect to zero")
    func unionAndIntersection() {
        let a = CMTimeRange(start: .zero, end: CMTime(value: 2, timescale: 1))
        let b = CMTimeRange(start: CMTime(value: 1, timescale: 1), end: CMTime(value: 3, timescale: 1))
        let c = CMTimeRange(start: CMTime(value: 5, timescale: 1), end: CMTime(value: 6, timescale: 1))
        #expect(a.union(b) == CMTimeRange(start: .zero, end: CMTime(value: 3, timescale: 1)))
        #expect(a.intersection(b) == CMTimeRange(start: CMTime(value: 1, timescale: 1), end: CMTime(value: 2, timescale: 1)))
        #expect(CMTimeRangeGetIntersection(a, otherRange: c) == .zero)
        #expect(a.union(c) == CMTimeRange(start: .zero, end: CMTime(value: 6, timescale: 1)))
        #expect(a.union(.invalid) == .invalid || !a.union(.invalid).isValid)
    }

    @Test("mapping, clamping and folding times")
    func mapping() {
        let from = CMTimeRange(start: .zero, duration: CMTime(value: 10, timescale: 1))
        let to = CMTimeRange(start: CMTime(value: 100, timescale: 1), duration: CMTime(value: 20, timescale: 1))
        #expect(CMTimeMapTimeFromRangeToRange(CMTime(value: 5, timescale: 1), fromRange: from, toRange: to) == CMTime(value: 110, timescale: 1))
        #expect(CMTimeMapDurationFromRangeToRange(CMTime(value: 1, timescale: 1), fromRange: from, toRange: to) == CMTime(value: 2, timescale: 1))
        #expect(CMTimeClampToRange(CMTime(value: 42, timescale: 1), range: from) == from.end)
        #expect(CMTimeClampToRange(CMTime(value: -1, timescale: 1), range: from) == .zero)
        #expect(CMTimeFoldIntoRange(CMTime(value: 23, timescale: 1), foldRange: from) == CMTime(value: 3, timescale: 1))
        #expect(CMTimeFoldIntoRange(CMTime(value: -1, timescale: 1), foldRange: from) == CMTime(value: 9, timescale: 1))
    }

    @Test("CMTimeMultiplyByFloat64: timescale doubled to at least 65536, rounded half away from zero")
    func multiplyByFloat64() {
        let t = CMTime(value: 1, timescale: 30)
        let product = CMTimeMultiplyByFloat64(t, multiplier: 1.5)
        #expect(product.timescale == 30 * 4096)  // 30 doubled until >= 65536
        #expect(product == CMTime(value: 3, timescale: 60))
        #expect(!product.hasBeenRounded)
        let thirds = CMTimeMultiplyByFloat64(CMTime(value: 1, timescale: 65536), multiplier: 0.5)
        #expect(thirds.value == 1 && thirds.hasBeenRounded, "0.5 rounds half away from zero to 1")
        let negative = CMTimeMultiplyByFloat64(CMTime(value: -1, timescale: 65536), multiplier: 0.5)
        #expect(negative.value == -1, "-0.5 rounds away from zero to -1")
        #expect(CMTimeMultiplyByFloat64(.invalid, multiplier: 2) == .invalid || !CMTimeMultiplyByFloat64(.invalid, multiplier: 2).isValid)
        #expect(CMTimeMultiplyByFloat64(.positiveInfinity, multiplier: -1).isNegativeInfinity)
        #expect(CMTimeMultiplyByFloat64(.indefinite, multiplier: 2).isIndefinite)
    }

    @Test("CMTime arithmetic matches CMTime.h: Multiply, MultiplyByRatio, ConvertScale (default rounding), Minimum, Maximum, AbsoluteValue")
    func arithmetic() {
        #expect(CMTimeMultiply(CMTime(value: 3, timescale: 10), multiplier: 4) == CMTime(value: 12, timescale: 10))
        #expect(CMTimeMultiplyByRatio(CMTime(value: 1, timescale: 1), multiplier: 1, divisor: 3) == CMTime(value: 1, timescale: 3))
        let up = CMTimeConvertScale(CMTime(value: 1, timescale: 4), timescale: 2, method: .default)
        #expect(up.value == 1 && up.hasBeenRounded, "0.5 at timescale 2 rounds half away from zero")
        let down = CMTimeConvertScale(CMTime(value: -1, timescale: 4), timescale: 2, method: .default)
        #expect(down.value == -1)
        #expect(CMTimeConvertScale(CMTime(value: 1, timescale: 4), timescale: 2, method: .roundTowardZero).value == 0)
        #expect(CMTimeMinimum(second, .zero) == .zero && CMTimeMaximum(second, .zero) == second)
        #expect(CMTimeAbsoluteValue(CMTime(value: -7, timescale: 3)) == CMTime(value: 7, timescale: 3))
        #expect(CMTimeAbsoluteValue(.negativeInfinity).isPositiveInfinity)
        #expect(CMTimeMultiplyByRatio(second, multiplier: 1, divisor: 0).isPositiveInfinity)
        #expect(!CMTimeMultiplyByRatio(.zero, multiplier: 1, divisor: 0).isValid)
    }

    @Test("CMTimeMapping: a mapping is valid by its target; an empty edit has an invalid source")
    func timeMapping() {
        let second = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        let mapping = CMTimeMappingMake(source: second, target: second)
        #expect(mapping.isValid && !mapping.isEmpty && CMTIMEMAPPING_IS_VALID(mapping))
        let empty = CMTimeMappingMakeEmpty(target: second)
        #expect(empty.isValid && empty.isEmpty && CMTIMEMAPPING_IS_EMPTY(empty) && !empty.source.isValid)
        #expect(!kCMTimeMappingInvalid.isValid && CMTIMEMAPPING_IS_INVALID(.invalid) && CMTimeMapping() == .invalid)
        CMTimeMappingShow(mapping)
    }
}
