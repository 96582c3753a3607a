import Foundation

/// The product of a time and a `Float64`, as CMTime.h describes it: the result's
/// timescale starts at the time's and is doubled until it is at least 65536, then halved
/// while the value overflows (±infinity if even timescale 1 overflows); the value is
/// rounded half away from zero (the default rounding), setting `hasBeenRounded` when it
/// was not exact.
///
/// Invalid stays invalid, indefinite stays indefinite, an infinity takes the sign of the
/// product; a NaN multiplier, or an infinity times 0, gives invalid.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    guard !multiplier.isNaN else { return .invalid }
    if let special = CMTime.nonNumericProduct(time, multiplierIsZero: multiplier == 0, multiplierIsPositive: multiplier > 0) {
        return special
    }
    guard multiplier.isFinite else {
        if time.value == 0 { return .invalid }
        return CMTime.infinity(positive: (time.value > 0) == (multiplier > 0))
    }
    var timescale = Int64(time.timescale)
    while timescale < 65536 { timescale *= 2 }
    timescale = min(timescale, Int64(Int32.max))
    let seconds = Double(time.value) / Double(time.timescale) * multiplier
    while true {
        let exact = seconds * Double(timescale)
        let rounded = exact.rounded(.toNearestOrAwayFromZero)
        if abs(rounded) < 9.223_372_036_854_775e18 {
            var flags: CMTimeFlags = .valid
            if rounded != exact || time.flags.contains(.hasBeenRounded) { flags.insert(.hasBeenRounded) }
            return CMTime(value: CMTimeValue(rounded), timescale: CMTimeScale(timescale), flags: flags, epoch: time.epoch)
        }
        if timescale == 1 { return CMTime.infinity(positive: seconds > 0) }
        timescale /= 2
    }
}
