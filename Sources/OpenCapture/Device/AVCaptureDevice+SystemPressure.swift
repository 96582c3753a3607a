import Foundation

/// How hard the system is working to run the camera, and why (iOS 11.1).
open class AVCaptureSystemPressureState: NSObject, @unchecked Sendable {
    private let storedLevel: Level
    /// How much pressure: from `.nominal` to `.shutdown` (the session is interrupted).
    open var level: Level { storedLevel }
    private let storedFactors: Factors
    /// What contributes to the pressure; empty at `.nominal`.
    open var factors: Factors { storedFactors }

    /// A pressure level, a string as on iOS.
    public struct Level: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Normal operation.
        public static let nominal = Level(rawValue: "AVCaptureSystemPressureLevelNominal")
        /// Slightly elevated; no action needed.
        public static let fair = Level(rawValue: "AVCaptureSystemPressureLevelFair")
        /// Throttling advised (lower the frame rate or resolution).
        public static let serious = Level(rawValue: "AVCaptureSystemPressureLevelSerious")
        /// Throttling strongly advised.
        public static let critical = Level(rawValue: "AVCaptureSystemPressureLevelCritical")
        /// The session is interrupted until the pressure falls.
        public static let shutdown = Level(rawValue: "AVCaptureSystemPressureLevelShutdown")

        /// The levels in rising order; a level's index is the model's 0 ... 4 (Linux addition).
        public static let allLevels: [Level] = [.nominal, .fair, .serious, .critical, .shutdown]

        init(index: Int) { self = Self.allLevels[min(max(index, 0), Self.allLevels.count - 1)] }
    }

    /// The causes of the pressure.
    public struct Factors: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// The whole system is hot.
        public static let systemTemperature = Factors(rawValue: 1 << 0)
        /// The battery cannot sustain peak power (e.g. the torch).
        public static let peakPower = Factors(rawValue: 1 << 1)
        /// The depth module (TrueDepth projector) is hot.
        public static let depthModuleTemperature = Factors(rawValue: 1 << 2)
        /// The camera module is hot.
        public static let cameraTemperature = Factors(rawValue: 1 << 3)
    }

    /// A state (Linux addition; on iOS only the device makes them).
    public init(level: Level, factors: Factors) {
        self.storedLevel = level
        self.storedFactors = factors
        super.init()
    }

    open override var description: String {
        "<AVCaptureSystemPressureState: level \(level.rawValue), factors \(factors.rawValue)>"
    }
}

extension AVCaptureDevice {
    /// The name iOS 11.1 nests the type under.
    public typealias SystemPressureState = AVCaptureSystemPressureState

    var systemPressureStateBacking: SystemPressureState {
        let raw: SystemPressureReading
        if let thermal = backend as? any ThermalPressureReporting {
            raw = thermal.systemPressure
        } else {
            let frame = lastFrameMetadata
            raw = SystemPressureReading(level: frame.systemPressureLevel, factors: frame.systemPressureFactors)
        }
        return SystemPressureState(level: SystemPressureState.Level(index: raw.level), factors: SystemPressureState.Factors(rawValue: raw.factors))
    }

    /// The shutdown level index, at which a session interrupts the device.
    static let shutdownPressureLevel = 4

    /// Called per frame from `record(_:)`: a frame made at `.shutdown` interrupts the
    /// session streaming from the device. Runs on the capture thread, so it only hands off.
    func noteSystemPressure(of metadata: FrameMetadata) {
        guard metadata.systemPressureLevel >= Self.shutdownPressureLevel,
            let session = core.sessionLinks.streaming
        else { return }
        let state = SystemPressureState(
            level: .shutdown, factors: SystemPressureState.Factors(rawValue: metadata.systemPressureFactors))
        session.deviceReachedShutdownPressure(self, state: state)
    }
}
