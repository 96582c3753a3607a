import Foundation

/// What the simulated microphone hears: room tone, steady tones and timed sound events,
/// all given as sound pressure levels at the microphone.
///
/// Levels become samples through the microphone's sensitivity: −26 dBFS at 94 dB SPL
/// (1 Pa), typical of the digital MEMS microphones in phones, so an RMS level of L dB SPL
/// is L − 120 dBFS (RMS relative to a full-scale amplitude of 1). Times are seconds since
/// the microphone's first sample, as `SceneTimeline` times are seconds since the camera's
/// first frame.
package struct Soundscape: Sendable, Equatable {
    /// A steady sine.
    package struct Tone: Sendable, Equatable {
        package var frequency: Double
        /// RMS level in dB SPL.
        package var level: Double
        package init(frequency: Double, level: Double) {
            self.frequency = frequency
            self.level = level
        }
    }

    /// A handclap: a burst of noise starting at `time`, decaying with a 3 ms time
    /// constant for 30 ms, its envelope's peak at `level` dB SPL.
    package struct Clap: Sendable, Equatable {
        package var time: Double
        package var level: Double
        package init(time: Double, level: Double) {
            self.time = time
            self.level = level
        }
    }

    /// RMS level of the room tone (white Gaussian noise) in dB SPL; 35 is a quiet room.
    package var roomToneLevel: Double = 35
    package var tones: [Tone] = []
    package var claps: [Clap] = []

    package init() {}

    /// The microphone's sensitivity: dBFS at 94 dB SPL.
    package static let sensitivity = -26.0

    /// The RMS amplitude (full scale 1) of a level in dB SPL.
    package static func amplitude(ofLevel spl: Double) -> Double {
        pow(10, (spl - 94 + sensitivity) / 20)
    }

    static let clapTimeConstant = 0.003
    static let clapLength = 0.030
}

/// Renders a soundscape sample by sample, deterministic per seed: the same seed gives the
/// same samples however the stream is cut into buffers.
struct SoundscapeRenderer {
    private let soundscape: Soundscape
    private let sampleRate: Double
    private var noise: GaussianNoise
    private var clapNoise: [GaussianNoise]
    private let roomAmplitude: Double
    private let toneAmplitudes: [Double]
    private let clapStarts: [Int64]
    private let clapAmplitudes: [Double]
    private let clapLength: Int64

    init(soundscape: Soundscape, sampleRate: Double, seed: UInt64) {
        self.soundscape = soundscape
        self.sampleRate = sampleRate
        noise = GaussianNoise(seed: seed)
        clapNoise = soundscape.claps.indices.map { GaussianNoise(seed: seed &+ 0x9E37_79B9_7F4A_7C15 &* UInt64($0 + 1)) }
        roomAmplitude = Soundscape.amplitude(ofLevel: soundscape.roomToneLevel)
        toneAmplitudes = soundscape.tones.map { Soundscape.amplitude(ofLevel: $0.level) * 2.0.squareRoot() }
        clapStarts = soundscape.claps.map { Int64(($0.time * sampleRate).rounded()) }
        // The envelope's peak is the level's RMS amplitude times √2, as a sine's would be.
        clapAmplitudes = soundscape.claps.map { Soundscape.amplitude(ofLevel: $0.level) * 2.0.squareRoot() }
        clapLength = Int64((Soundscape.clapLength * sampleRate).rounded())
    }

    /// Sample `index` (since the first), full scale ±1. Call with consecutive indices.
    mutating func next(_ index: Int64) -> Double {
        var value = roomAmplitude * noise.next()
        for (tone, amplitude) in zip(soundscape.tones, toneAmplitudes) {
            // The phase from the exact sample index, so long streams do not drift.
            let cycles = (tone.frequency * Double(index)).truncatingRemainder(dividingBy: sampleRate) / sampleRate
            value += amplitude * sin(2 * .pi * cycles)
        }
        for clap in clapStarts.indices where index >= clapStarts[clap] && index < clapStarts[clap] + clapLength {
            let age = Double(index - clapStarts[clap]) / sampleRate
            let burst = clapNoise[clap].next()
            value += clapAmplitudes[clap] * exp(-age / Soundscape.clapTimeConstant) * max(-1, min(1, burst / 3))
        }
        return value
    }
}

/// Standard normal samples from a seeded SplitMix64 (Box–Muller, both values used).
struct GaussianNoise {
    private var state: UInt64
    private var spare: Double?

    init(seed: UInt64) { state = seed }

    private mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        // 53 random bits in (0, 1]: never 0, so the logarithm below is finite.
        return (Double(z >> 11) + 1) / 9_007_199_254_740_992
    }

    mutating func next() -> Double {
        if let spare {
            self.spare = nil
            return spare
        }
        let radius = (-2 * log(uniform())).squareRoot()
        let angle = 2 * Double.pi * uniform()
        spare = radius * sin(angle)
        return radius * cos(angle)
    }
}
