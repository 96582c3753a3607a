import Foundation

/// Robertson's (1968) table of 31 isotherms: for each reciprocal temperature r (mired), the
/// CIE 1960 (u, v) of the Planckian locus and the slope t = dv/du of the isotherm through it.
///
/// Source: Wyszecki & Stiles, Color Science, 2nd ed., p. 228, as transcribed in the Adobe DNG
/// SDK (`dng_temperature.cpp`). The algorithms follow that code step for step, so results
/// match the SDK (and Camera Raw) to rounding.
struct RobertsonIsotherms: Sendable {
    struct Isotherm: Sendable {
        var r: Double
        var u: Double
        var v: Double
        var t: Double

        /// The unit vector along the isotherm, (1, t) / √(1 + t²).
        var direction: SIMD2<Double> { SIMD2(1, t) / (1 + t * t).squareRoot() }
    }

    let rows: [Isotherm]

    /// The DNG SDK table, including its u = 0.24702 at 325 mired (Lindbloom and colour-science
    /// read 0.24792, the exact locus). Kept for parity with Adobe: it makes 2857–3333 K read
    /// 13–15 K low.
    static let dng = RobertsonIsotherms(u325: 0.24702)

    /// The table with the 325-mired entry corrected to u = 0.24792.
    static let corrected = RobertsonIsotherms(u325: 0.24792)

    private init(u325: Double) {
        let table: [(Double, Double, Double, Double)] = [
            (0, 0.18006, 0.26352, -0.24341), (10, 0.18066, 0.26589, -0.25479),
            (20, 0.18133, 0.26846, -0.26876), (30, 0.18208, 0.27119, -0.28539),
            (40, 0.18293, 0.27407, -0.30470), (50, 0.18388, 0.27709, -0.32675),
            (60, 0.18494, 0.28021, -0.35156), (70, 0.18611, 0.28342, -0.37915),
            (80, 0.18740, 0.28668, -0.40955), (90, 0.18880, 0.28997, -0.44278),
            (100, 0.19032, 0.29326, -0.47888), (125, 0.19462, 0.30141, -0.58204),
            (150, 0.19962, 0.30921, -0.70471), (175, 0.20525, 0.31647, -0.84901),
            (200, 0.21142, 0.32312, -1.0182), (225, 0.21807, 0.32909, -1.2168),
            (250, 0.22511, 0.33439, -1.4512), (275, 0.23247, 0.33904, -1.7298),
            (300, 0.24010, 0.34308, -2.0637), (325, u325, 0.34655, -2.4681),
            (350, 0.25591, 0.34951, -2.9641), (375, 0.26400, 0.35200, -3.5814),
            (400, 0.27218, 0.35407, -4.3633), (425, 0.28039, 0.35577, -5.3762),
            (450, 0.28863, 0.35714, -6.7262), (475, 0.29685, 0.35823, -8.5955),
            (500, 0.30505, 0.35907, -11.324), (525, 0.31320, 0.35968, -15.628),
            (550, 0.32129, 0.36011, -23.325), (575, 0.32931, 0.36038, -40.770),
            (600, 0.33724, 0.36051, -116.45),
        ]
        rows = table.map { Isotherm(r: $0.0, u: $0.1, v: $0.2, t: $0.3) }
    }

    /// Temperature and signed offset from the locus of a CIE 1960 uv point: the DNG SDK's
    /// `Set_xy_coord`. The offset is measured along the (interpolated) isotherm direction
    /// (1, t)/√(1 + t²), which points to +u and −v, so points above the locus have offset < 0.
    ///
    /// The temperature is confined to [10⁶/600, 10⁶/10] K = [1666.7, 100 000] K by construction.
    func temperatureAndOffset(uv: SIMD2<Double>) -> (temperature: Double, offset: Double) {
        var lastDt = 0.0
        var lastDirection = SIMD2<Double>.zero
        let last = rows.count - 1
        for i in 1...last {
            let row = rows[i]
            let direction = row.direction
            let d = uv - SIMD2(row.u, row.v)
            // Signed distance of the point from isotherm i: positive while the point is colder.
            var dt = -d.x * direction.y + d.y * direction.x
            guard dt <= 0 || i == last else {
                lastDt = dt
                lastDirection = direction
                continue
            }
            // Outside the table on the cold end: clamp onto the last isotherm.
            if dt > 0 { dt = 0 }
            dt = -dt
            let f = i == 1 ? 0 : dt / (lastDt + dt)
            let previous = rows[i - 1]
            let temperature = 1e6 / (previous.r * f + row.r * (1 - f))
            let onLocus = SIMD2(previous.u * f + row.u * (1 - f), previous.v * f + row.v * (1 - f))
            var blended = direction * (1 - f) + lastDirection * f
            blended /= (blended * blended).sum().squareRoot()
            return (temperature, ((uv - onLocus) * blended).sum())
        }
        preconditionFailure("the loop returns on its last row")
    }

    /// The CIE 1960 uv at `temperature` kelvin, moved `offset` along the interpolated isotherm
    /// direction: the DNG SDK's `Get_xy_coord`. Extrapolates the last segment below 1666.7 K.
    func uv(temperature: Double, offset: Double) -> SIMD2<Double> {
        let r = 1e6 / temperature
        let last = rows.count - 2
        for i in 0...last where r < rows[i + 1].r || i == last {
            let a = rows[i], b = rows[i + 1]
            let f = (b.r - r) / (b.r - a.r)
            let onLocus = SIMD2(a.u, a.v) * f + SIMD2(b.u, b.v) * (1 - f)
            // Blend the unit vectors, then renormalise, as the SDK does.
            var direction = a.direction * f + b.direction * (1 - f)
            direction /= (direction * direction).sum().squareRoot()
            return onLocus + direction * offset
        }
        preconditionFailure("the loop returns on its last row")
    }
}
