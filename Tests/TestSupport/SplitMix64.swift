/// SplitMix64 (Steele, Lea and Flood, 2014): a seeded generator small enough to write here,
/// so a fuzz or a stress test makes the same choices on every run and every toolchain (the
/// standard library's generator is neither seeded nor stable across releases).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0 ..< `count` (0 when `count` is 0 or less).
    package mutating func below(_ count: Int) -> Int { Int(next() % UInt64(max(count, 1))) }

    /// One of `items`, which must not be empty.
    package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// True with probability `percent` / 100.
    package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
