// CMTime.h (iOS 18 SDK) as iOS code spells it: the C functions, constants and the Swift
// overlay's members. CFDictionary/CFString arguments are Swift dictionaries and strings here.
import CoreMedia
import Foundation
import Testing

/// Touches every declaration of CMTime.h; compiled, never called.
func spellCMTime(_ t: CMTime) {
    let made: [CMTime] = [
        CMTimeMake(value: 1, timescale: 30), CMTimeMakeWithEpoch(value: 1, timescale: 30, epoch: 2),
        CMTimeMakeWithSeconds(0.5, preferredTimescale: 600), CMTime(value: 1, timescale: 30),
        CMTime(seconds: 0.5, preferredTimescale: 600), CMTime(value: 1, timescale: 30, flags: [.valid], epoch: 0), CMTime(),
    ]
    let constants: [CMTime] = [kCMTimeZero, kCMTimeInvalid, kCMTimeIndefinite, kCMTimePositiveInfinity, kCMTimeNegativeInfinity]
    let statics: [CMTime] = [.zero, .invalid, .indefinite, .positiveInfinity, .negativeInfinity]
    let maxScale: Int = kCMTimeMaxTimescale
    let parts: (CMTimeValue, CMTimeScale, CMTimeFlags, CMTimeEpoch) = (t.value, t.timescale, t.flags, t.epoch)
    let flags: [CMTimeFlags] = [.valid, .hasBeenRounded, .positiveInfinity, .negativeInfinity, .indefinite, .impliedValueFlagsMask]
    let methods: [CMTimeRoundingMethod] = [
        .roundHalfAwayFromZero, .roundTowardZero, .roundAwayFromZero, .quickTime, .roundTowardPositiveInfinity,
        .roundTowardNegativeInfinity, .default,
    ]
    let seconds: Float64 = CMTimeGetSeconds(t)
    let overlaySeconds: Double = t.seconds
    let predicates: [Bool] = [
        t.isValid, t.isNumeric, t.isIndefinite, t.isPositiveInfinity, t.isNegativeInfinity, t.hasBeenRounded,
        CMTIME_IS_VALID(t), CMTIME_IS_INVALID(t), CMTIME_IS_NUMERIC(t), CMTIME_IS_INDEFINITE(t),
        CMTIME_IS_POSITIVE_INFINITY(t), CMTIME_IS_NEGATIVE_INFINITY(t), CMTIME_HAS_BEEN_ROUNDED(t),
    ]
    let arithmetic: [CMTime] = [
        CMTimeConvertScale(t, timescale: 600, method: .default), t.convertScale(600, method: .roundTowardZero),
        CMTimeAdd(t, t), CMTimeSubtract(t, t), CMTimeMultiply(t, multiplier: 2), CMTimeMultiplyByFloat64(t, multiplier: 1.5),
        CMTimeMultiplyByRatio(t, multiplier: 2, divisor: 3), CMTimeMinimum(t, t), CMTimeMaximum(t, t), CMTimeAbsoluteValue(t),
        t + t, t - t, t * 2, 2 * t,
    ]
    var accumulated = t
    accumulated += t
    accumulated -= t
    accumulated *= 2
    let order: (Int32, Bool, Bool, Bool) = (CMTimeCompare(t, t), t == t, t < t, t >= t)
    let dictionary: [String: Any]? = CMTimeCopyAsDictionary(t, allocator: kCFAllocatorDefault)
    let back: CMTime = CMTimeMakeFromDictionary(dictionary)
    let keys: [String] = [kCMTimeValueKey, kCMTimeScaleKey, kCMTimeEpochKey, kCMTimeFlagsKey]
    let text: String? = CMTimeCopyDescription(allocator: nil, time: t)
    CMTimeShow(t)
    _ = (made, constants, statics, maxScale, parts, flags, methods, seconds, overlaySeconds, predicates, arithmetic)
    _ = (accumulated, order, back, keys, text)
}

@Suite("CMTime spelling")
struct CMTimeSpellingTests {
    @Test("a time round-trips through its dictionary; an incomplete dictionary gives the invalid time")
    func dictionaryRoundTrip() throws {
        let time = CMTimeMakeWithEpoch(value: 1001, timescale: 30000, epoch: 3)
        let dictionary = try #require(CMTimeCopyAsDictionary(time, allocator: nil))
        #expect((dictionary[kCMTimeValueKey] as? NSNumber)?.int64Value == 1001)
        let back = CMTimeMakeFromDictionary(dictionary)
        #expect(back.value == 1001 && back.timescale == 30000 && back.epoch == 3 && back.flags == .valid)
        #expect(CMTimeMakeFromDictionary(CMTimeCopyAsDictionary(.positiveInfinity, allocator: nil)).isPositiveInfinity)
        #expect(!CMTimeMakeFromDictionary([kCMTimeValueKey: 1]).isValid)
        #expect(!CMTimeMakeFromDictionary(nil).isValid)
        #expect(CMTimeCopyDescription(allocator: nil, time: time) == time.description)
    }
}
