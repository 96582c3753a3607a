import Foundation

extension AVCaptureDevice {
    /// Linux addition: one V4L2 control of a real camera (brightness, contrast, saturation,
    /// hue, gain, power-line frequency, and whatever else the driver offers), named as
    /// `v4l2-ctl -L` names it: lower case, words joined by underscores.
    public struct LinuxControl: Sendable, Equatable {
        /// e.g. "brightness", "gain_automatic", "power_line_frequency".
        public let name: String
        /// The V4L2 control ID (`V4L2_CID_*`).
        public let id: UInt32
        public let minimum: Int64
        public let maximum: Int64
        public let step: UInt64
        public let defaultValue: Int64
        /// Whether the value can only be read.
        public let isReadOnly: Bool
        /// For menu controls: the entries' values and names (menus can have holes).
        public let menu: [Int64: String]
    }

    /// Errors of the Linux control API.
    public enum LinuxControlError: Error, Equatable, CustomStringConvertible {
        /// The device has no control of that name (simulated cameras have none).
        case unknownControl(String)
        /// The value is outside the control's range.
        case outOfRange(name: String, value: Int64, range: ClosedRange<Int64>)
        /// The control cannot be written.
        case readOnly(String)
        /// `lockForConfiguration()` was not called.
        case notLocked
        /// The driver refused (errno text).
        case driver(String)

        public var description: String {
            switch self {
            case .unknownControl(let name): "no control named '\(name)'"
            case .outOfRange(let name, let value, let range): "\(name)=\(value) is outside \(range.lowerBound)...\(range.upperBound)"
            case .readOnly(let name): "\(name) is read-only"
            case .notLocked: "setting a control needs lockForConfiguration()"
            case .driver(let text): text
            }
        }
    }

    /// The device's driver controls, in the driver's order: a V4L2 camera's V4L2 controls,
    /// a PipeWire camera's node properties (its PropInfo, e.g. the SPA v4l2 node's copy of
    /// the driver's controls); empty for simulated cameras.
    public var linuxControls: [LinuxControl] {
        guard let driver = backend as? any DriverControlling else { return [] }
        return driver.driverControls.map(LinuxControl.init)
    }

    /// A control's current value.
    public func linuxControlValue(_ name: String) throws(LinuxControlError) -> Int64 {
        let (driver, control) = try driverControl(name)
        do { return try driver.value(of: control) } catch { throw .driver(error.description) }
    }

    /// Sets a control (needs the configuration lock); returns the value the driver kept.
    @discardableResult
    public func setLinuxControl(_ name: String, to value: Int64) throws(LinuxControlError) -> Int64 {
        let (driver, info) = try driverControl(name)
        guard isLockedForConfiguration else { throw .notLocked }
        guard !info.isReadOnly else { throw .readOnly(name) }
        guard info.isButton || (info.minimum...info.maximum).contains(value) else {
            throw .outOfRange(name: name, value: value, range: info.minimum...info.maximum)
        }
        do { return try driver.setValue(value, of: info) } catch { throw .driver(error.description) }
    }

    private func driverControl(_ name: String) throws(LinuxControlError) -> (any DriverControlling, DriverControl) {
        guard let driver = backend as? any DriverControlling,
              let control = driver.driverControls.first(where: { LinuxControl.displayName($0.name) == name })
        else { throw .unknownControl(name) }
        return (driver, control)
    }
}

extension AVCaptureDevice.LinuxControl {
    init(_ info: DriverControl) {
        name = Self.displayName(info.name)
        id = info.id
        minimum = info.minimum
        maximum = info.maximum
        step = info.step
        defaultValue = info.defaultValue
        isReadOnly = info.isReadOnly
        menu = Dictionary(info.menu.map { ($0.index, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// "White Balance, Automatic" → "white_balance_automatic", as v4l2-ctl prints names.
    static func displayName(_ driverName: String) -> String {
        var out = ""
        var pendingUnderscore = false
        for character in driverName.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingUnderscore && !out.isEmpty { out.append("_") }
                pendingUnderscore = false
                out.append(character)
            } else {
                pendingUnderscore = true
            }
        }
        return out
    }
}
