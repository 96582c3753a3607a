import Foundation

/// The flags of a `CMTime`, with Apple's raw values.
public struct CMTimeFlags: OptionSet, Sendable, Hashable {
    /// The raw bit pattern, as in Core Media's C `CMTimeFlags`.
    public let rawValue: UInt32
    /// Creates flags from a raw bit pattern.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The time is valid. The corresponding C constant is `kCMTimeFlags_Valid`.
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    /// The value was rounded when it was converted to another timescale.
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    /// The time is +infinity.
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    /// The time is -infinity.
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    /// The time is indefinite (unknown).
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// Valid, with one of the infinite or indefinite flags.
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// The numerator of a `CMTime`.
public typealias CMTimeValue = Int64
/// The denominator of a `CMTime`: units per second.
public typealias CMTimeScale = Int32
/// The epoch of a `CMTime` (loop count, item index, ...).
public typealias CMTimeEpoch = Int64

/// A rational time value: `value / timescale` seconds, as Core Media defines it.
///
/// Equality, hashing and ordering follow `CMTimeCompare`: `1/2 == 2/4`, every invalid time
/// equals every other invalid time, and the order is
/// `-infinity < numeric < indefinite < +infinity < invalid`.
///
/// A time with the valid flag but a timescale `<= 0` and no infinite/indefinite flag is
/// malformed: the `CMTIME_IS_*` predicates look only at the flags (as Apple's macros do),
/// but `seconds`, comparison and arithmetic treat it as invalid.
public struct CMTime: Sendable, Hashable {
    /// The numerator: `seconds = value / timescale`.
    public var value: CMTimeValue
    /// The denominator: how many `value` units make one second.
    public var timescale: CMTimeScale
    /// Validity, infinity, indefiniteness and rounding flags.
    public var flags: CMTimeFlags
    /// Distinguishes otherwise equal times (for example loop iterations); 0 for durations.
    public var epoch: CMTimeEpoch

    /// An invalid time, like `kCMTimeInvalid`.
    public init() {
        self.value = 0
        self.timescale = 0
        self.flags = []
        self.epoch = 0
    }

    /// Creates a time from all four fields, as Core Media's C struct does.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }
}

// MARK: - Creating times

extension CMTime {
    /// Creates a valid time of `value / timescale` seconds in epoch 0.
    ///
    /// A `timescale <= 0` gives an invalid time.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        if timescale > 0 {
            self.init(value: value, timescale: timescale, flags: .valid, epoch: 0)
        } else {
            self.init()
        }
    }

    /// Creates a time from seconds, at `preferredTimescale` when the value fits.
    ///
    /// NaN gives an invalid time, ±infinity gives the infinite times, and a
    /// `preferredTimescale <= 0` gives an invalid time. The value is rounded half away from
    /// zero; if it overflows, the timescale is halved until it fits (±infinity if it does
    /// not fit at timescale 1). `hasBeenRounded` is set when the result, converted back to
    /// seconds, differs from `seconds`.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        guard preferredTimescale > 0, !seconds.isNaN else {
            self.init()
            return
        }
        if seconds.isInfinite {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        var scale = preferredTimescale
        while true {
            let scaled = (seconds * Double(scale)).rounded(.toNearestOrAwayFromZero)
            if let value = CMTimeValue(exactly: scaled) {
                var flags: CMTimeFlags = .valid
                if Double(value) / Double(scale) != seconds { flags.insert(.hasBeenRounded) }
                self.init(value: value, timescale: scale, flags: flags, epoch: 0)
                return
            }
            if scale == 1 {
                self = seconds > 0 ? .positiveInfinity : .negativeInfinity
                return
            }
            scale /= 2
        }
    }
}

/// Makes a valid time of `value / timescale` seconds; `timescale <= 0` gives an invalid time.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime {
    CMTime(value: value, timescale: timescale)
}

/// Makes a valid time of `value / timescale` seconds in `epoch`; `timescale <= 0` gives an invalid time.
public func CMTimeMakeWithEpoch(value: Int64, timescale: Int32, epoch: Int64) -> CMTime {
    var time = CMTime(value: value, timescale: timescale)
    if time.isValid { time.epoch = epoch }
    return time
}

/// Makes a time from seconds; see `CMTime.init(seconds:preferredTimescale:)`.
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

// MARK: - Inspecting times

extension CMTime {
    /// The kind of a time, with the precedence used by comparison and arithmetic.
    enum Kind: Int, Comparable {
        // Raw values give `CMTimeCompare`'s order between kinds.
        case negativeInfinity = 0
        case numeric = 1
        case indefinite = 2
        case positiveInfinity = 3
        case invalid = 4

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The kind of this time; infinities take precedence over indefinite, and a malformed
    /// numeric time (timescale <= 0) counts as invalid.
    var kind: Kind {
        guard flags.contains(.valid) else { return .invalid }
        if flags.contains(.positiveInfinity) { return .positiveInfinity }
        if flags.contains(.negativeInfinity) { return .negativeInfinity }
        if flags.contains(.indefinite) { return .indefinite }
        return timescale > 0 ? .numeric : .invalid
    }

    /// True if the valid flag is set (`CMTIME_IS_VALID`).
    public var isValid: Bool { flags.contains(.valid) }

    /// True if valid and neither infinite nor indefinite (`CMTIME_IS_NUMERIC`).
    public var isNumeric: Bool {
        flags.intersection([.valid, .positiveInfinity, .negativeInfinity, .indefinite]) == .valid
    }

    /// True if valid and indefinite (`CMTIME_IS_INDEFINITE`).
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }

    /// True if valid and +infinity (`CMTIME_IS_POSITIVE_INFINITY`).
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }

    /// True if valid and -infinity (`CMTIME_IS_NEGATIVE_INFINITY`).
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }

    /// True if numeric and the rounded flag is set (`CMTIME_HAS_BEEN_ROUNDED`).
    public var hasBeenRounded: Bool { isNumeric && flags.contains(.hasBeenRounded) }

    /// The time in seconds: NaN if invalid or indefinite, ±infinity if infinite,
    /// else `Double(value) / Double(timescale)`.
    public var seconds: Double {
        switch kind {
        case .invalid, .indefinite: return .nan
        case .positiveInfinity: return .infinity
        case .negativeInfinity: return -.infinity
        case .numeric: return Double(value) / Double(timescale)
        }
    }
}

/// The time in seconds; see `CMTime.seconds`.
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 { time.seconds }

/// True if the time is valid.
public func CMTIME_IS_VALID(_ time: CMTime) -> Bool { time.isValid }
/// True if the time is invalid.
public func CMTIME_IS_INVALID(_ time: CMTime) -> Bool { !time.isValid }
/// True if the time is valid and neither infinite nor indefinite.
public func CMTIME_IS_NUMERIC(_ time: CMTime) -> Bool { time.isNumeric }
/// True if the time is valid and indefinite.
public func CMTIME_IS_INDEFINITE(_ time: CMTime) -> Bool { time.isIndefinite }
/// True if the time is valid and +infinity.
public func CMTIME_IS_POSITIVE_INFINITY(_ time: CMTime) -> Bool { time.isPositiveInfinity }
/// True if the time is valid and -infinity.
public func CMTIME_IS_NEGATIVE_INFINITY(_ time: CMTime) -> Bool { time.isNegativeInfinity }
/// True if the time is numeric and has been rounded.
public func CMTIME_HAS_BEEN_ROUNDED(_ time: CMTime) -> Bool { time.hasBeenRounded }

// MARK: - Equality, hashing, ordering

extension CMTime: Comparable {
    /// True when `CMTimeCompare` returns 0: `1/2 == 2/4`, invalid equals invalid.
    public static func == (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) == 0 }

    /// Ordering by `CMTimeCompare`.
    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) < 0 }

    /// Hashes the kind and, for numeric times, the epoch and the reduced fraction, so that
    /// equal times hash equally.
    public func hash(into hasher: inout Hasher) {
        let kind = self.kind
        hasher.combine(kind.rawValue)
        guard kind == .numeric else { return }
        let scale = UInt64(timescale)
        let divisor = greatestCommonDivisor(value.magnitude, scale)
        hasher.combine(epoch)
        hasher.combine(value < 0)
        hasher.combine(value.magnitude / divisor)
        hasher.combine(scale / divisor)
    }
}

/// Euclid's algorithm; `gcd(0, b) == b`.
func greatestCommonDivisor<T: BinaryInteger>(_ a: T, _ b: T) -> T {
    var a = a
    var b = b
    while b != 0 { (a, b) = (b, a % b) }
    return a
}

// MARK: - Descriptions

extension CMTime: CustomStringConvertible, CustomDebugStringConvertible {
    /// Like `CMTimeCopyDescription`: `{1/30 = 0.033}`, `{INVALID}`, `{+INFINITY}`,
    /// `{-INFINITY}` or `{INDEFINITE}`; numeric times add `, rounded` and `, epoch = N`
    /// when relevant.
    public var description: String {
        switch kind {
        case .invalid: return "{INVALID}"
        case .indefinite: return "{INDEFINITE}"
        case .positiveInfinity: return "{+INFINITY}"
        case .negativeInfinity: return "{-INFINITY}"
        case .numeric:
            var text = "{\(value)/\(timescale) = \(String(format: "%.3f", seconds))"
            if hasBeenRounded { text += ", rounded" }
            if epoch != 0 { text += ", epoch = \(epoch)" }
            return text + "}"
        }
    }

    /// The same text as `description`.
    public var debugDescription: String { description }
}
