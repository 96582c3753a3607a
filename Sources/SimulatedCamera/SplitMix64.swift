/// A small, fast, seedable random number generator (Steele, Lea & Flood's SplitMix64).
///
/// The simulated camera needs randomness that is identical on every run and machine for
/// a given seed, which `SystemRandomNumberGenerator` is not; SplitMix64 is also a good
/// 64-bit mixing function, used to derive per-frame and per-row values without state.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// A uniform value in [0, 1) with 53 random bits.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// The SplitMix64 finaliser: a bijective avalanche of all 64 bits.
    @inline(__always)
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A well-mixed hash of a seed and two keys (order matters).
    @inline(__always)
    package static func hash(_ seed: UInt64, _ a: UInt64, _ b: UInt64 = 0) -> UInt64 {
        mix(mix(mix(seed &+ 0x9E37_79B9_7F4A_7C15) ^ a) &+ b)
    }
}
