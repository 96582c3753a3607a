/// A 3×3 matrix of `Double`, stored as rows, for colour-space conversions.
///
/// Colour maths needs only a handful of operations (product, inverse, transpose), so this
/// small value type avoids depending on a linear-algebra library.
public struct Matrix3x3: Sendable, Hashable {
    /// The rows, top to bottom.
    public var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    /// Creates a matrix from its three rows.
    public init(_ row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        rows = (row0, row1, row2)
    }

    /// Creates a matrix from nine values in row order.
    public init(rowMajor v: [Double]) {
        precondition(v.count == 9, "a 3×3 matrix needs nine values")
        self.init(SIMD3(v[0], v[1], v[2]), SIMD3(v[3], v[4], v[5]), SIMD3(v[6], v[7], v[8]))
    }

    /// A diagonal matrix, e.g. per-channel gains.
    public init(diagonal d: SIMD3<Double>) {
        self.init(SIMD3(d.x, 0, 0), SIMD3(0, d.y, 0), SIMD3(0, 0, d.z))
    }

    /// The identity matrix.
    public static let identity = Matrix3x3(diagonal: SIMD3(1, 1, 1))

    /// Row `r`, column `c`.
    public subscript(r: Int, c: Int) -> Double {
        switch r {
        case 0: rows.0[c]
        case 1: rows.1[c]
        default: rows.2[c]
        }
    }

    /// The columns, left to right.
    public var columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        (SIMD3(rows.0.x, rows.1.x, rows.2.x), SIMD3(rows.0.y, rows.1.y, rows.2.y), SIMD3(rows.0.z, rows.1.z, rows.2.z))
    }

    /// The transpose.
    public var transposed: Matrix3x3 {
        let c = columns
        return Matrix3x3(c.0, c.1, c.2)
    }

    /// The determinant.
    public var determinant: Double {
        let (a, b, c) = rows
        return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    /// The inverse, or `nil` when the matrix is singular.
    public var inverse: Matrix3x3? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let (a, b, c) = rows
        // Rows of the inverse are the cross products of column pairs of the transpose,
        // i.e. the adjugate divided by the determinant.
        let r0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let r1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let r2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        return Matrix3x3(r0 / det, r1 / det, r2 / det)
    }

    /// Matrix times column vector.
    public static func * (m: Matrix3x3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.rows.0 * v).sum(), (m.rows.1 * v).sum(), (m.rows.2 * v).sum())
    }

    /// Matrix product.
    public static func * (lhs: Matrix3x3, rhs: Matrix3x3) -> Matrix3x3 {
        let t = rhs.transposed
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { t * r }
        return Matrix3x3(row(lhs.rows.0), row(lhs.rows.1), row(lhs.rows.2))
    }

    /// Every entry times a scalar.
    public static func * (lhs: Double, rhs: Matrix3x3) -> Matrix3x3 {
        Matrix3x3(lhs * rhs.rows.0, lhs * rhs.rows.1, lhs * rhs.rows.2)
    }

    /// Entry-wise sum, e.g. to blend two matrices.
    public static func + (lhs: Matrix3x3, rhs: Matrix3x3) -> Matrix3x3 {
        Matrix3x3(lhs.rows.0 + rhs.rows.0, lhs.rows.1 + rhs.rows.1, lhs.rows.2 + rhs.rows.2)
    }

    /// The nine entries in row order.
    public var rowMajor: [Double] {
        [rows.0.x, rows.0.y, rows.0.z, rows.1.x, rows.1.y, rows.1.z, rows.2.x, rows.2.y, rows.2.z]
    }

    /// Whether every entry is within `tolerance` of the other matrix's.
    public func isApproximatelyEqual(to other: Matrix3x3, tolerance: Double = 1e-9) -> Bool {
        for r in 0..<3 {
            for c in 0..<3 where abs(self[r, c] - other[r, c]) > tolerance { return false }
        }
        return true
    }

    public static func == (lhs: Matrix3x3, rhs: Matrix3x3) -> Bool {
        lhs.rows.0 == rhs.rows.0 && lhs.rows.1 == rhs.rows.1 && lhs.rows.2 == rhs.rows.2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rows.0)
        hasher.combine(rows.1)
        hasher.combine(rows.2)
    }
}
