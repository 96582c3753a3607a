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
    /// Quantum efficiency η, 0 ... 1, of the channel that responds most to the scene's white
    /// (green, except under very warm light). The other channels' response relative to it
    /// comes from the colour calibration (`CameraResponse`), which varies with the light.
    package var quantumEfficiency: Double
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
}
