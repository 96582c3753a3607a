/// Linear R, G and B packed into one 64-bit word as three fixed-point fields, so that adding
/// words adds all three at once: the ISP's colour matrix as two additions per pixel.
///
/// Fields, in units of 1/`scale` of white: R in bits 0–20, G in bits 21–41, B in bits
/// 42–62. A camera channel's table entry holds that channel's term of each output row
/// (matrix entry × signal), and terms may be negative: entries are packed with wrapping
/// two's-complement arithmetic, so a negative field borrows from the one above it, and the
/// borrow is paid back when the three entries of a pixel are added. That works because
/// each *sum* is kept inside 0 ..< 2²¹ by an offset (the ISP's `toneZero`), carried by the
/// red channel's entries: the integer identity Σ entries = Σ fields · 2^shift then holds
/// without overflow, and each field of the sum reads back exactly.
enum PackedLinearRGB {
    /// Fixed-point steps per unit of linear light (white = 1): 12 bits, finer than any
    /// sensor code after white balance (a 12-bit ADC spans white in ≤ 3 839 codes).
    static let scale: Float = 4096
    static let greenShift: UInt64 = 21
    static let blueShift: UInt64 = 42
    static let fieldMask: UInt64 = (1 << 21) - 1
    /// The largest field value a sum may reach.
    static let fieldLimit = 1 << 21

    /// Packs three signed field values.
    static func pack(_ red: Int, _ green: Int, _ blue: Int) -> UInt64 {
        let word = Int64(red) &+ (Int64(green) &<< Int64(greenShift)) &+ (Int64(blue) &<< Int64(blueShift))
        return UInt64(bitPattern: word)
    }

    /// The red field of a sum.
    @inline(__always)
    static func red(_ sum: UInt64) -> Int { Int(truncatingIfNeeded: sum & fieldMask) }

    /// The green field of a sum.
    @inline(__always)
    static func green(_ sum: UInt64) -> Int { Int(truncatingIfNeeded: (sum &>> greenShift) & fieldMask) }

    /// The blue field of a sum (the top field: nothing above it to mask).
    @inline(__always)
    static func blue(_ sum: UInt64) -> Int { Int(truncatingIfNeeded: sum &>> blueShift) }
}
