/// The datasheet of a simulated sensor, in EMVA 1288 terms.
package struct SensorParameters: Sendable, Equatable {
    /// Native photosites across and down.
    package var width: Int
    package var height: Int
    /// Pixel pitch, µm.
    package var pixelPitch: Double
    /// Full-well capacity, electrons.
    package var fullWell: Double
    /// Temporal dark noise (read noise), electrons rms.
    package var readNoise: Double
    /// Quantum efficiency η of the red, green and blue channels, 0 ... 1.
    package var quantumEfficiency: SIMD3<Double>
    /// Dark current, electrons per second (at the sensor's reference temperature, 30 °C).
    package var darkCurrent: Double
    /// ADC resolution, bits (10 or 12).
    package var bitDepth: Int
    /// Black level (offset), DN.
    package var blackLevel: Int
    /// The ISO at unity gain.
    package var baseISO: Float
    /// The most gain the sensor applies in the analog domain; the ISP applies the rest.
    package var maxAnalogGain: Float

    /// The largest ADC code.
    package var maxCode: Int { (1 << bitDepth) - 1 }

    /// Sensor width in millimetres.
    package var activeWidth: Double { Double(width) * pixelPitch / 1000 }

    /// White-balance gains that make a neutral surface neutral: each channel's gain is the
    /// inverse of its quantum efficiency, normalised so the smallest gain is 1.
    package var neutralGains: SIMD3<Float> {
        let inverse = 1 / quantumEfficiency
        return SIMD3<Float>(inverse / inverse.min())
    }
}
