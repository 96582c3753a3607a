/// One control a driver offers beyond the ones AVFoundation names (a V4L2 control:
/// brightness, contrast, gain, power-line frequency...).
package struct DriverControl: Sendable {
    /// The driver's ID for it (`V4L2_CID_*`).
    package var id: UInt32
    /// The driver's name for it, e.g. "White Balance, Automatic".
    package var name: String
    package var minimum: Int64
    package var maximum: Int64
    package var step: UInt64
    package var defaultValue: Int64
    package var isReadOnly: Bool
    /// A button: writing any value presses it.
    package var isButton: Bool
    /// Menu entries (value, name) for menu controls; menus can have holes.
    package var menu: [(index: Int64, name: String)]

    package init(
        id: UInt32, name: String, minimum: Int64, maximum: Int64, step: UInt64, defaultValue: Int64, isReadOnly: Bool,
        isButton: Bool, menu: [(index: Int64, name: String)]
    ) {
        self.id = id
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.isReadOnly = isReadOnly
        self.isButton = isButton
        self.menu = menu
    }
}

/// The driver refused a control read or write (its errno text).
package struct DriverControlFailure: Error, Sendable, Equatable {
    package var description: String

    package init(_ description: String) { self.description = description }
}

/// Devices whose driver has controls of its own (V4L2 cameras): what
/// `AVCaptureDevice.linuxControls` lists and sets.
///
/// Threads: any; reads and writes go to the driver at once (not at a frame boundary).
package protocol DriverControlling: AnyObject, Sendable {
    /// The controls, in the driver's order.
    var driverControls: [DriverControl] { get }
    /// A control's current value.
    func value(of control: DriverControl) throws(DriverControlFailure) -> Int64
    /// Writes a value (presses a button); returns the value the driver kept.
    func setValue(_ value: Int64, of control: DriverControl) throws(DriverControlFailure) -> Int64
}
