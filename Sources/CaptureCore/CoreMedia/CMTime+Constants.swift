extension CMTime {
    /// Zero seconds: `0/1`, valid, epoch 0.
    public static let zero = CMTime(value: 0, timescale: 1, flags: .valid, epoch: 0)
    /// An invalid time: every field 0. Test with `isValid`, not `==` against this.
    public static let invalid = CMTime()
    /// An unknown time (valid and indefinite). Test with `isIndefinite`.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    /// +infinity (valid, positive infinity flag).
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// -infinity (valid, negative infinity flag).
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)
}

/// Zero seconds, like Core Media's `kCMTimeZero`.
public let kCMTimeZero: CMTime = .zero
/// An invalid time, like Core Media's `kCMTimeInvalid`.
public let kCMTimeInvalid: CMTime = .invalid
/// An indefinite time, like Core Media's `kCMTimeIndefinite`.
public let kCMTimeIndefinite: CMTime = .indefinite
/// +infinity, like Core Media's `kCMTimePositiveInfinity`.
public let kCMTimePositiveInfinity: CMTime = .positiveInfinity
/// -infinity, like Core Media's `kCMTimeNegativeInfinity`.
public let kCMTimeNegativeInfinity: CMTime = .negativeInfinity

/// The largest timescale that arithmetic picks on its own (when the least common multiple of
/// two timescales is larger, results use this timescale and are rounded).
public let kCMTimeMaxTimescale: Int = 1_000_000_000

/// How a value is rounded when a time is converted to another timescale.
public enum CMTimeRoundingMethod: UInt32, Sendable {
    /// Rounds to the nearest value; halves go away from zero.
    case roundHalfAwayFromZero = 1
    /// Truncates toward zero.
    case roundTowardZero = 2
    /// Rounds any fraction away from zero.
    case roundAwayFromZero = 3
    /// Toward zero when converting to a smaller timescale, away from zero when converting to
    /// a larger one; a negative time never rounds to 0 (it gives `-1/newTimescale`).
    case quickTime = 4
    /// Rounds any fraction toward +infinity.
    case roundTowardPositiveInfinity = 5
    /// Rounds any fraction toward -infinity.
    case roundTowardNegativeInfinity = 6

    /// The default method, `roundHalfAwayFromZero`.
    public static var `default`: CMTimeRoundingMethod { .roundHalfAwayFromZero }
}
