// Exact rational arithmetic on CMTime, with Core Media's rules for non-numeric times.
//
// Intermediate products use Int128: a value (< 2^63) times one or two timescales
// (< 2^31 each) stays below 2^126, so nothing here can overflow before the final fit.

// MARK: - Comparison

/// Compares two times: -1 if `time1 < time2`, 0 if equal, 1 if greater.
///
/// Numeric times compare by epoch first, then exactly by value across timescales
/// (`1/2 == 2/4`). Order of the other kinds, as Core Media documents it:
/// `-infinity < numeric < indefinite < +infinity < invalid`; two times of the same
/// non-numeric kind are equal.
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    let kind1 = time1.kind
    let kind2 = time2.kind
    if kind1 != kind2 { return kind1 < kind2 ? -1 : 1 }
    guard kind1 == .numeric else { return 0 }
    if time1.epoch != time2.epoch { return time1.epoch < time2.epoch ? -1 : 1 }
    if time1.timescale == time2.timescale {
        return time1.value < time2.value ? -1 : (time1.value == time2.value ? 0 : 1)
    }
    let lhs = Int128(time1.value) * Int128(time2.timescale)
    let rhs = Int128(time2.value) * Int128(time1.timescale)
    return lhs < rhs ? -1 : (lhs == rhs ? 0 : 1)
}

/// The lesser of two times by `CMTimeCompare` (`time1` when they are equal).
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTimeCompare(time2, time1) < 0 ? time2 : time1
}

/// The greater of two times by `CMTimeCompare` (`time1` when they are equal).
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTimeCompare(time2, time1) > 0 ? time2 : time1
}

// MARK: - Addition and subtraction

/// The exact sum of two times.
///
/// Same timescales keep that timescale; different ones use their least common multiple,
/// or `kCMTimeMaxTimescale` (rounded half away from zero) when the multiple is larger.
/// A value that overflows halves the timescale until it fits, else gives ±infinity.
/// `hasBeenRounded` is set if anything was rounded or either operand was rounded.
///
/// Non-numeric rules: invalid wins; one infinite operand gives that infinity;
/// `+inf + -inf` is invalid; otherwise indefinite wins over numeric. Numeric operands in
/// different nonzero epochs give invalid; the same nonzero epoch gives epoch 0; an epoch-0
/// operand takes the other's epoch.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    CMTime.sum(lhs, rhs, negatingRHS: false)
}

/// The exact difference `lhs - rhs`, with the rules of `CMTimeAdd` (subtracting +infinity
/// is adding -infinity, so `+inf - +inf` is invalid).
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    CMTime.sum(lhs, rhs, negatingRHS: true)
}

// MARK: - Multiplication and scale conversion

/// The product of a time and an integer, at the time's timescale (halved on overflow,
/// ±infinity if even timescale 1 overflows).
///
/// Invalid stays invalid, indefinite stays indefinite, an infinity takes the sign of the
/// product; an infinity times 0 is invalid.
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    if let special = CMTime.nonNumericProduct(time, multiplierIsZero: multiplier == 0, multiplierIsPositive: multiplier > 0) {
        return special
    }
    return CMTime.nearest(
        numerator: Int128(time.value) * Int128(multiplier), denominator: Int128(time.timescale),
        timescale: time.timescale, epoch: time.epoch, rounded: time.flags.contains(.hasBeenRounded))
}

/// `time * multiplier / divisor`, exact when the result fits.
///
/// The exact result is `(value * multiplier) / (timescale * divisor)`, used as is when it
/// fits, else reduced by their common divisor. If it still does not fit, the result is
/// rounded at the reduced timescale (halved on overflow) or, when that timescale itself is
/// too large, at `kCMTimeMaxTimescale`.
///
/// A zero divisor gives ±infinity, or invalid when the time or multiplier is zero.
/// Invalid stays invalid, indefinite stays indefinite, an infinity takes the sign of the
/// ratio (an infinity times 0 is invalid).
public func CMTimeMultiplyByRatio(_ time: CMTime, multiplier: Int32, divisor: Int32) -> CMTime {
    // The ratio's sign: a zero divisor counts as positive here (it only matters when the
    // time is numeric, below).
    if let special = CMTime.nonNumericProduct(
        time, multiplierIsZero: multiplier == 0, multiplierIsPositive: (multiplier < 0) == (divisor < 0))
    {
        return special
    }
    if divisor == 0 {
        if time.value == 0 || multiplier == 0 { return .invalid }
        return CMTime.infinity(positive: (time.value > 0) == (multiplier > 0))
    }
    var numerator = Int128(time.value) * Int128(multiplier)
    var denominator = Int128(time.timescale) * Int128(divisor)
    if denominator < 0 {
        numerator = -numerator
        denominator = -denominator
    }
    let rounded = time.flags.contains(.hasBeenRounded)
    if let exact = CMTime.exactly(numerator, denominator, epoch: time.epoch, rounded: rounded) { return exact }
    let common = Int128(greatestCommonDivisor(numerator.magnitude, denominator.magnitude))
    numerator /= common
    denominator /= common
    if let exact = CMTime.exactly(numerator, denominator, epoch: time.epoch, rounded: rounded) { return exact }
    let scale = CMTimeScale(exactly: denominator) ?? CMTimeScale(kCMTimeMaxTimescale)
    return CMTime.nearest(
        numerator: numerator, denominator: denominator, timescale: scale, epoch: time.epoch, rounded: rounded)
}

/// Converts a time to `newTimescale`, rounding with `method`.
///
/// `hasBeenRounded` is set if the value had to be rounded (or the time was already
/// rounded). Non-numeric times are returned unchanged (a malformed one as invalid); a
/// `newTimescale <= 0` gives invalid; a value that overflows gives ±infinity.
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    switch time.kind {
    case .invalid: return .invalid
    case .indefinite, .positiveInfinity, .negativeInfinity: return time
    case .numeric: break
    }
    guard newTimescale > 0 else { return .invalid }
    if newTimescale == time.timescale { return time }
    var effective = method
    if method == .quickTime {
        effective = newTimescale < time.timescale ? .roundTowardZero : .roundAwayFromZero
    }
    let (quotient, exact) = CMTime.roundedQuotient(
        Int128(time.value) * Int128(newTimescale), Int128(time.timescale), effective)
    // QuickTime never rounds a negative time to 0.
    let value = method == .quickTime && quotient == 0 && time.value < 0 ? -1 : quotient
    guard let fitted = CMTimeValue(exactly: value) else { return CMTime.infinity(positive: value > 0) }
    var flags: CMTimeFlags = .valid
    if !exact || time.flags.contains(.hasBeenRounded) { flags.insert(.hasBeenRounded) }
    return CMTime(value: fitted, timescale: newTimescale, flags: flags, epoch: time.epoch)
}

/// The absolute value of a time: -infinity becomes +infinity, other non-numeric times are
/// unchanged; `Int64.min` halves the timescale to fit.
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    switch time.kind {
    case .invalid: return .invalid
    case .negativeInfinity: return .positiveInfinity
    case .indefinite, .positiveInfinity: return time
    case .numeric:
        guard time.value < 0 else { return time }
        return CMTime.nearest(
            numerator: -Int128(time.value), denominator: Int128(time.timescale), timescale: time.timescale,
            epoch: time.epoch, rounded: time.flags.contains(.hasBeenRounded))
    }
}

// MARK: - Operators

extension CMTime {
    /// The sum of two times (`CMTimeAdd`).
    public static func + (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeAdd(lhs, rhs) }

    /// The difference of two times (`CMTimeSubtract`).
    public static func - (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeSubtract(lhs, rhs) }

    /// Adds `rhs` to `lhs` (`CMTimeAdd`).
    public static func += (lhs: inout CMTime, rhs: CMTime) { lhs = CMTimeAdd(lhs, rhs) }

    /// Subtracts `rhs` from `lhs` (`CMTimeSubtract`).
    public static func -= (lhs: inout CMTime, rhs: CMTime) { lhs = CMTimeSubtract(lhs, rhs) }

    /// The product of a time and an integer (`CMTimeMultiply`).
    public static func * (time: CMTime, multiplier: Int32) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }

    /// The product of an integer and a time (`CMTimeMultiply`).
    public static func * (multiplier: Int32, time: CMTime) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }

    /// Multiplies a time by an integer (`CMTimeMultiply`).
    public static func *= (time: inout CMTime, multiplier: Int32) { time = CMTimeMultiply(time, multiplier: multiplier) }

    /// This time converted to `newTimescale` (`CMTimeConvertScale`).
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        CMTimeConvertScale(self, timescale: newTimescale, method: method)
    }
}

// MARK: - Helpers

extension CMTime {
    /// `+infinity` or `-infinity`.
    static func infinity(positive: Bool) -> CMTime { positive ? .positiveInfinity : .negativeInfinity }

    /// A product whose time is not numeric, nil when it is: invalid and indefinite stay as
    /// they are, an infinity takes the product's sign, and an infinity times zero is invalid.
    static func nonNumericProduct(_ time: CMTime, multiplierIsZero: Bool, multiplierIsPositive: Bool) -> CMTime? {
        switch time.kind {
        case .invalid: return .invalid
        case .indefinite: return .indefinite
        case .positiveInfinity, .negativeInfinity:
            if multiplierIsZero { return .invalid }
            return infinity(positive: (time.kind == .positiveInfinity) == multiplierIsPositive)
        case .numeric: return nil
        }
    }

    /// Shared body of `CMTimeAdd` and `CMTimeSubtract`.
    static func sum(_ lhs: CMTime, _ rhs: CMTime, negatingRHS: Bool) -> CMTime {
        let kind1 = lhs.kind
        var kind2 = rhs.kind
        if negatingRHS {
            if kind2 == .positiveInfinity {
                kind2 = .negativeInfinity
            } else if kind2 == .negativeInfinity {
                kind2 = .positiveInfinity
            }
        }
        if kind1 == .invalid || kind2 == .invalid { return .invalid }
        let infinite1 = kind1 == .positiveInfinity || kind1 == .negativeInfinity
        let infinite2 = kind2 == .positiveInfinity || kind2 == .negativeInfinity
        if infinite1 && infinite2 { return kind1 == kind2 ? infinity(positive: kind1 == .positiveInfinity) : .invalid }
        if infinite1 { return infinity(positive: kind1 == .positiveInfinity) }
        if infinite2 { return infinity(positive: kind2 == .positiveInfinity) }
        if kind1 == .indefinite || kind2 == .indefinite { return .indefinite }

        let epoch: CMTimeEpoch
        if lhs.epoch == 0 {
            epoch = rhs.epoch
        } else if rhs.epoch == 0 {
            epoch = lhs.epoch
        } else if lhs.epoch == rhs.epoch {
            epoch = 0
        } else {
            return .invalid
        }
        let rounded = lhs.flags.contains(.hasBeenRounded) || rhs.flags.contains(.hasBeenRounded)
        let value1 = Int128(lhs.value)
        let value2 = negatingRHS ? -Int128(rhs.value) : Int128(rhs.value)
        if lhs.timescale == rhs.timescale {
            return nearest(
                numerator: value1 + value2, denominator: Int128(lhs.timescale), timescale: lhs.timescale,
                epoch: epoch, rounded: rounded)
        }
        let scale1 = Int128(lhs.timescale)
        let scale2 = Int128(rhs.timescale)
        let lcm = scale1 / greatestCommonDivisor(scale1, scale2) * scale2
        let numerator = value1 * (lcm / scale1) + value2 * (lcm / scale2)
        let scale = lcm <= Int128(kCMTimeMaxTimescale) ? CMTimeScale(lcm) : CMTimeScale(kCMTimeMaxTimescale)
        return nearest(numerator: numerator, denominator: lcm, timescale: scale, epoch: epoch, rounded: rounded)
    }

    /// `numerator / denominator` as a time when both fit the fields exactly, else nil.
    static func exactly(_ numerator: Int128, _ denominator: Int128, epoch: CMTimeEpoch, rounded: Bool) -> CMTime? {
        guard let value = CMTimeValue(exactly: numerator), let scale = CMTimeScale(exactly: denominator) else {
            return nil
        }
        return CMTime(value: value, timescale: scale, flags: rounded ? [.valid, .hasBeenRounded] : .valid, epoch: epoch)
    }

    /// The time nearest to `numerator / denominator` seconds (`denominator > 0`) at
    /// `timescale`, rounded half away from zero; the timescale is halved while the value
    /// overflows, and ±infinity is returned if it still overflows at timescale 1.
    static func nearest(
        numerator: Int128, denominator: Int128, timescale: CMTimeScale, epoch: CMTimeEpoch, rounded: Bool
    ) -> CMTime {
        var scale = timescale
        while true {
            let (quotient, exact) =
                denominator == Int128(scale)
                ? (numerator, true)
                : roundedQuotient(numerator * Int128(scale), denominator, .roundHalfAwayFromZero)
            if let value = CMTimeValue(exactly: quotient) {
                let flags: CMTimeFlags = rounded || !exact ? [.valid, .hasBeenRounded] : .valid
                return CMTime(value: value, timescale: scale, flags: flags, epoch: epoch)
            }
            if scale == 1 { return infinity(positive: numerator > 0) }
            scale /= 2
        }
    }

    /// `numerator / denominator` (`denominator > 0`) rounded to an integer with `method`
    /// (`quickTime` must already be resolved to a direction; it acts as toward zero here).
    static func roundedQuotient(
        _ numerator: Int128, _ denominator: Int128, _ method: CMTimeRoundingMethod
    ) -> (quotient: Int128, exact: Bool) {
        let quotient = numerator / denominator
        let remainder = numerator % denominator
        if remainder == 0 { return (quotient, true) }
        let away: Int128 = numerator > 0 ? 1 : -1
        switch method {
        case .roundHalfAwayFromZero:
            return (remainder.magnitude * 2 >= denominator.magnitude ? quotient + away : quotient, false)
        case .roundTowardZero, .quickTime:
            return (quotient, false)
        case .roundAwayFromZero:
            return (quotient + away, false)
        case .roundTowardPositiveInfinity:
            return (numerator > 0 ? quotient + 1 : quotient, false)
        case .roundTowardNegativeInfinity:
            return (numerator > 0 ? quotient : quotient - 1, false)
        }
    }
}
