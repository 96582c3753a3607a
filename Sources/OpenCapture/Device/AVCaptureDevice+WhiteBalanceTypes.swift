extension AVCaptureDevice {
    /// How the device balances white.
    public enum WhiteBalanceMode: Int, Sendable {
        /// Gains are held.
        case locked = 0
        /// Adjusts once, then switches to `.locked`.
        case autoWhiteBalance = 1
        /// Keeps adjusting (the default).
        case continuousAutoWhiteBalance = 2
    }

    /// Device white-balance gains: one per native colour channel, each in
    /// 1 ... `maxWhiteBalanceGain`.
    public struct WhiteBalanceGains: Sendable, Equatable, CustomStringConvertible {
        public var redGain: Float
        public var greenGain: Float
        public var blueGain: Float

        public init(redGain: Float, greenGain: Float, blueGain: Float) {
            self.redGain = redGain
            self.greenGain = greenGain
            self.blueGain = blueGain
        }

        public init() { self.init(redGain: 0, greenGain: 0, blueGain: 0) }

        public var description: String {
            "(red: \(redGain), green: \(greenGain), blue: \(blueGain))"
        }
    }

    /// A CIE 1931 xy chromaticity, each coordinate in 0 ... 1.
    public struct WhiteBalanceChromaticityValues: Sendable, Equatable {
        public var x: Float
        public var y: Float
        public init(x: Float, y: Float) {
            self.x = x
            self.y = y
        }
        public init() { self.init(x: 0, y: 0) }
    }

    /// A correlated colour temperature in kelvin and a tint (-150 ... +150; positive is
    /// greener, as Adobe's DNG scale).
    public struct WhiteBalanceTemperatureAndTintValues: Sendable, Equatable {
        public var temperature: Float
        public var tint: Float
        public init(temperature: Float, tint: Float) {
            self.temperature = temperature
            self.tint = tint
        }
        public init() { self.init(temperature: 0, tint: 0) }
    }

    /// The sentinel meaning "the gains in use now", for `setWhiteBalanceModeLocked(with:)`.
    public static let currentWhiteBalanceGains = WhiteBalanceGains(redGain: 0, greenGain: 0, blueGain: 0)
}
