import Foundation

extension CorrelatedColorTemperature {
    /// Ohno 2013 (LEUKOS 10(1), 2014): CCT and Duv from the exact Planckian locus, valid for
    /// 1000–100 000 K and any Duv.
    ///
    /// Finds the nearest entry of a Planckian uv table by cascade: a 1 % geometric table, then
    /// finer tables around the nearest entry down to 0.01 % spacing. The final three entries
    /// give the triangular solution, or the parabolic one when |Duv| ≥ 0.002 (where the
    /// triangle degrades). No empirical correction is applied to the parabolic temperature:
    /// at this spacing it is not needed.
    public static func ohno2013(_ white: Chromaticity) -> (temperature: Double, duv: Double) {
        let target = white.uv
        var table = OhnoTable.coarse
        var i = table.nearestInterior(to: target)
        // Cascade: refine the bracket [T(i−1), T(i+1)] until one step is ≤ 0.01 %.
        while table.entries[i + 1].temperature / table.entries[i].temperature > 1.0001 {
            table = OhnoTable(from: table.entries[i - 1].temperature, to: table.entries[i + 1].temperature, steps: 20)
            i = table.nearestInterior(to: target)
        }
        let p = table.entries[i - 1], c = table.entries[i], n = table.entries[i + 1]
        let dp = distance(p.uv, target), dc = distance(c.uv, target), dn = distance(n.uv, target)

        // Triangular solution: project the target onto the chord p–n.
        let l = distance(n.uv, p.uv)
        let x = (dp * dp - dn * dn + l * l) / (2 * l)
        let triangularT = p.temperature + (n.temperature - p.temperature) * x / l
        let chordV = p.uv.y + (n.uv.y - p.uv.y) * x / l
        let sign: Double = target.y - chordV < 0 ? -1 : 1
        let triangularDuv = sign * max(dp * dp - x * x, 0).squareRoot()
        guard abs(triangularDuv) >= 0.002 else { return (triangularT, triangularDuv) }

        // Parabolic solution: d(T) through the three entries, in T − T(i) for conditioning.
        let sp = p.temperature - c.temperature, sn = n.temperature - c.temperature
        let a = ((dn - dc) / sn - (dp - dc) / sp) / (sn - sp)
        let b = (dn - dc) / sn - a * sn
        let s = -b / (2 * a)
        return (c.temperature + s, sign * ((a * s + b) * s + dc))
    }

    private static func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }
}

/// A table of Planckian uv over a geometric temperature range, for `ohno2013`.
private struct OhnoTable: Sendable {
    struct Entry: Sendable {
        var temperature: Double
        var uv: SIMD2<Double>
    }

    var entries: [Entry]

    /// 1000 ... 100 000 K at 1 % steps (464 entries), computed once.
    static let coarse = OhnoTable(from: 1000, to: 100_000, steps: Int((log(100.0) / log(1.01)).rounded(.up)))

    /// `steps + 1` entries geometrically spaced from `low` to `high`.
    init(from low: Double, to high: Double, steps: Int) {
        let ratio = pow(high / low, 1 / Double(steps))
        entries = (0...steps).map { k in
            let t = k == steps ? high : low * pow(ratio, Double(k))
            return Entry(temperature: t, uv: PlanckianLocus.uv(temperature: t))
        }
    }

    /// The index of the entry nearest `uv`, kept off both ends so that it has two neighbours.
    func nearestInterior(to uv: SIMD2<Double>) -> Int {
        var best = 0
        var bestDistance = Double.infinity
        for (k, entry) in entries.enumerated() {
            let d = entry.uv - uv
            let squared = (d * d).sum()
            if squared < bestDistance {
                bestDistance = squared
                best = k
            }
        }
        return min(max(best, 1), entries.count - 2)
    }
}
