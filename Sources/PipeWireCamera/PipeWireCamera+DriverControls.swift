import CaptureCore

/// A PipeWire camera's node properties as `AVCaptureDevice.linuxControls`: what the node
/// describes in its PropInfo params (for a V4L2 camera the SPA v4l2 node passes its driver's
/// controls on, under their driver names), written to its Props param. The control's `id`
/// is the SPA property id; booleans are 0 or 1, floats in thousandths.
///
/// A value reads as this process last wrote it, else as the node's Props report it.
/// PipeWire 0.3.65's nodes report little: the SPA v4l2 node none of the driver's controls
/// (reading one it was not given throws), and the daemon answers from a cache that the test
/// source does not refresh after a write.
///
/// Threads: any but the plug-in's loop thread; each read or write is a round trip to the daemon.
extension PipeWireCamera: DriverControlling {
    package var driverControls: [DriverControl] {
        controls.map { control in
            DriverControl(
                id: control.id, name: control.name, minimum: control.minimum, maximum: control.maximum, step: UInt64(max(1, control.step)),
                defaultValue: control.defaultValue, isReadOnly: false, isButton: false, menu: control.menu.map { ($0.value, $0.name) })
        }
    }

    package func value(of control: DriverControl) throws(DriverControlFailure) -> Int64 {
        let property = try property(control)
        if let written = writtenValues.withLock({ $0[property.id] }) { return written }
        return try connection.value(of: property, node: node.id)
    }

    package func setValue(_ value: Int64, of control: DriverControl) throws(DriverControlFailure) -> Int64 {
        guard isConnected else { throw DriverControlFailure("the camera was disconnected") }
        let property = try property(control)
        try connection.setValue(value, of: property, node: node.id)
        writtenValues.withLock { $0[property.id] = value }
        return value
    }

    private func property(_ control: DriverControl) throws(DriverControlFailure) -> PipeWireControl {
        guard let property = controls.first(where: { $0.id == control.id }) else { throw DriverControlFailure("no property \(control.id)") }
        return property
    }
}
