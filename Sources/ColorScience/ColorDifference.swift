import Foundation

/// Colour-difference formulas on CIELAB.
public enum ColorDifference {
    /// CIE 1976 ΔE*ab: Euclidean distance in L*a*b*.
    public static func cie76(_ lhs: Lab, _ rhs: Lab) -> Double {
        let d = SIMD3(lhs.L - rhs.L, lhs.a - rhs.a, lhs.b - rhs.b)
        return (d * d).sum().squareRoot()
    }

    /// CIEDE2000 ΔE₀₀ (CIE 142-2001), following Sharma, Wu & Dalal, Color Res. Appl. 30(1), 2005,
    /// including their conventions for neutral colours and mean hue. ≈ 1 is a just-noticeable
    /// difference; `kL`, `kC`, `kH` are the parametric factors (1 for reference conditions).
    public static func ciede2000(_ lhs: Lab, _ rhs: Lab, kL: Double = 1, kC: Double = 1, kH: Double = 1) -> Double {
        let pow25to7 = 6_103_515_625.0  // 25⁷
        let meanChroma = (lhs.chroma + rhs.chroma) / 2
        let c7 = pow(meanChroma, 7)
        // Stretch a* for low-chroma colours so near-neutral hues are not over-weighted.
        let g = 0.5 * (1 - (c7 / (c7 + pow25to7)).squareRoot())
        let p1 = Lab(L: lhs.L, a: (1 + g) * lhs.a, b: lhs.b)
        let p2 = Lab(L: rhs.L, a: (1 + g) * rhs.a, b: rhs.b)
        let c1 = p1.chroma, c2 = p2.chroma, h1 = p1.hue, h2 = p2.hue
        let neutral = c1 * c2 == 0

        let deltaL = p2.L - p1.L
        let deltaC = c2 - c1
        var deltaHue = h2 - h1
        if neutral {
            deltaHue = 0
        } else if deltaHue > 180 {
            deltaHue -= 360
        } else if deltaHue < -180 {
            deltaHue += 360
        }
        let deltaH = 2 * (c1 * c2).squareRoot() * sin(radians(deltaHue / 2))

        let meanL = (p1.L + p2.L) / 2
        let meanC = (c1 + c2) / 2
        var meanHue = h1 + h2
        if !neutral {
            if abs(h1 - h2) <= 180 {
                meanHue /= 2
            } else {
                meanHue = meanHue < 360 ? (meanHue + 360) / 2 : (meanHue - 360) / 2
            }
        }

        let t = 1 - 0.17 * cos(radians(meanHue - 30)) + 0.24 * cos(radians(2 * meanHue))
            + 0.32 * cos(radians(3 * meanHue + 6)) - 0.20 * cos(radians(4 * meanHue - 63))
        let deltaTheta = 30 * exp(-pow((meanHue - 275) / 25, 2))
        let meanC7 = pow(meanC, 7)
        let rc = 2 * (meanC7 / (meanC7 + pow25to7)).squareRoot()
        let lOffset = (meanL - 50) * (meanL - 50)
        let sl = 1 + 0.015 * lOffset / (20 + lOffset).squareRoot()
        let sc = 1 + 0.045 * meanC
        let sh = 1 + 0.015 * meanC * t
        // Rotation term: interaction of chroma and hue differences in the blue region.
        let rt = -sin(radians(2 * deltaTheta)) * rc

        let l = deltaL / (kL * sl), c = deltaC / (kC * sc), h = deltaH / (kH * sh)
        return (l * l + c * c + h * h + rt * c * h).squareRoot()
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
}
