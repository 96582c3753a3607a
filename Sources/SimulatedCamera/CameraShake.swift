import Foundation

/// A hand-held camera's tremor, and the electronic stabilisation that takes it out.
///
/// Tremor: the view's centre wanders by a sum of four sinusoids per axis (1.7, 3.1, 5.3
/// and 8.9 Hz, weights 1, 0.6, 0.4, 0.25, the band of physiological hand tremor), with
/// phases drawn from the scene seed, scaled so the largest possible excursion is the
/// amplitude (a fraction of the frame width at zoom 1; the shift in pixels grows with the
/// zoom, as an angular shake does through a longer lens). It depends only on the seed and
/// the frame's time, so frames stay deterministic in virtual time.
///
/// Stabilisation: each mode crops a larger field that follows the shake (as gyro-driven
/// EIS does): the frame shows the view at zoom × `crop`, and only `residual` of the tremor
/// is left. Stronger modes crop more and leave less.
///
/// | mode | crop | residual |
/// |---|---|---|
/// | standard (1), previewOptimized (4) | 1.10 | 10 % |
/// | cinematic (2) | 1.20 | 4 % |
/// | cinematicExtended (3) | 1.25 | 3 % |
/// | cinematicExtendedEnhanced (5) | 1.30 | 2 % |
///
/// Each crop's margin (at least 4.5 % a side) covers the largest tremor (5 % is the most
/// `shakeAmplitude` takes, over both sides), so a stabilised frame never shows the layer's edge.
struct CameraShake {
    static let frequencies = [1.7, 3.1, 5.3, 8.9]
    static let weights = [1.0, 0.6, 0.4, 0.25]

    let amplitude: Double
    private let phases: [Double]

    init(amplitude: Double, seed: UInt64) {
        self.amplitude = amplitude
        var random = SplitMix64(seed: SplitMix64.hash(seed, 0x5348_414B))
        phases = (0..<8).map { _ in random.nextUnit() * 2 * .pi }
    }

    /// The view's offset at `time` seconds, as fractions of the frame width at zoom 1.
    func offset(at time: Double) -> (x: Double, y: Double) {
        guard amplitude > 0 else { return (0, 0) }
        let total = Self.weights.reduce(0, +)
        var x = 0.0, y = 0.0
        for (i, frequency) in Self.frequencies.enumerated() {
            x += Self.weights[i] * sin(2 * .pi * frequency * time + phases[i])
            y += Self.weights[i] * sin(2 * .pi * frequency * 1.07 * time + phases[i + 4])
        }
        // Half the amplitude each way, so the excursion from one side to the other is `amplitude`.
        return (0.5 * amplitude * x / total, 0.5 * amplitude * y / total)
    }

    /// The crop and residual shake of stabilisation mode `mode` (raw
    /// `AVCaptureVideoStabilizationMode`); (1, 1) when off.
    static func stabilization(mode: Int) -> (crop: Double, residual: Double) {
        switch mode {
        case 1, 4: (1.10, 0.10)
        case 2: (1.20, 0.04)
        case 3: (1.25, 0.03)
        case 5: (1.30, 0.02)
        default: (1, 1)
        }
    }
}
