import CaptureCore

// What a V4L2 camera can do beyond `CaptureBackend`, reached by the API layer through
// CaptureCore's capability protocols.

extension V4L2Camera: DisconnectReporting {}

extension V4L2Camera: BusBandwidthReporting {
    /// The USB bandwidth of a mode (`V4L2USBLink.busBandwidth`); nil off USB.
    package func busBandwidth(formatIndex: Int, framesPerSecond: Double) -> BusBandwidthUse? {
        guard modes.indices.contains(formatIndex) else { return nil }
        return usbLink?.busBandwidth(of: modes[formatIndex], framesPerSecond: framesPerSecond)
    }
}

extension V4L2Camera: DriverControlling {
    package var driverControls: [DriverControl] {
        controls.map {
            DriverControl(
                id: $0.id, name: $0.name, minimum: $0.minimum, maximum: $0.maximum, step: $0.step, defaultValue: $0.defaultValue,
                isReadOnly: $0.isReadOnly, isButton: $0.isButton, menu: $0.menu)
        }
    }

    package func value(of control: DriverControl) throws(DriverControlFailure) -> Int64 {
        let info = try info(control)
        do { return try value(of: info) } catch { throw DriverControlFailure(error.description) }
    }

    package func setValue(_ value: Int64, of control: DriverControl) throws(DriverControlFailure) -> Int64 {
        let info = try info(control)
        do {
            if info.isButton { return try press(info) }
            return try setValue(value, of: info)
        } catch {
            throw DriverControlFailure(error.description)
        }
    }

    /// The queried control behind a listed one (its type says how wide its value is).
    private func info(_ control: DriverControl) throws(DriverControlFailure) -> V4L2ControlInfo {
        guard let info = controls.first(where: { $0.id == control.id }) else {
            throw DriverControlFailure("no control with ID \(control.id)")
        }
        return info
    }
}
