import CPipeWireRuntime
import CaptureCore
import Foundation

/// One property a PipeWire node describes (its PropInfo params): a V4L2 control the SPA
/// v4l2 node passes on (`Brightness`), a libcamera control, a test source's pattern.
package struct PipeWireControl: Sendable, Equatable {
    /// How the value travels: menus are Int values with names; floats as thousandths.
    package enum Kind: Int32, Sendable {
        case int = 1, bool = 2, menu = 3, long = 4, float = 5
    }

    /// The SPA property id (`SPA_PROP_brightness`, `SPA_PROP_START_CUSTOM + n`).
    package var id: UInt32
    package var kind: Kind
    /// The node's description of it, e.g. "Brightness".
    package var name: String
    package var minimum: Int64
    package var maximum: Int64
    package var step: Int64
    package var defaultValue: Int64
    package var menu: [(value: Int64, name: String)]

    init?(_ control: OCPWControl) {
        guard let kind = Kind(rawValue: control.kind) else { return nil }
        var control = control
        id = control.id
        self.kind = kind
        name = withUnsafeBytes(of: &control.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        minimum = control.minimum
        maximum = control.maximum
        step = control.step
        defaultValue = control.default_value
        let values = withUnsafeBytes(of: &control.menu_values) { Array($0.bindMemory(to: Int64.self)) }
        let names = withUnsafeBytes(of: &control.menu_names) { bytes in
            (0..<Int(OCPW_MAX_MENU)).map { index in
                String(decoding: bytes[(index * 64)..<(index * 64 + 64)].prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        menu = (0..<Int(max(0, min(control.menu_count, OCPW_MAX_MENU)))).map { (values[$0], names[$0]) }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.name == rhs.name && lhs.minimum == rhs.minimum && lhs.maximum == rhs.maximum
            && lhs.step == rhs.step && lhs.defaultValue == rhs.defaultValue
            && lhs.menu.map(\.value) == rhs.menu.map(\.value) && lhs.menu.map(\.name) == rhs.menu.map(\.name)
    }
}

extension PipeWireConnection {
    /// The properties node `id` describes (nil when it does not answer). Any thread but the loop's.
    package func controls(of id: UInt32) -> [PipeWireControl]? {
        guard let context = handle else { return nil }
        var controls = [OCPWControl](repeating: OCPWControl(), count: 64)
        let count = controls.withUnsafeMutableBufferPointer { runtime.node_controls!(context, id, $0.baseAddress, Int32($0.count)) }
        guard count >= 0 else { return nil }
        return controls.prefix(Int(min(count, Int32(controls.count)))).compactMap(PipeWireControl.init)
    }

    /// Property `control`'s value on node `id`, as the node reports it in its Props.
    package func value(of control: PipeWireControl, node id: UInt32) throws(DriverControlFailure) -> Int64 {
        guard let context = handle else { throw DriverControlFailure("the PipeWire connection is closed") }
        var value: Int64 = 0
        switch runtime.node_control_value!(context, id, control.id, &value) {
        case 1: return value
        case 0: throw DriverControlFailure("the node does not report \(control.name)")
        default: throw DriverControlFailure("the PipeWire node did not answer")
        }
    }

    /// Writes property `control` of node `id`.
    package func setValue(_ value: Int64, of control: PipeWireControl, node id: UInt32) throws(DriverControlFailure) {
        guard let context = handle else { throw DriverControlFailure("the PipeWire connection is closed") }
        let result = runtime.node_set_control!(context, id, control.id, control.kind.rawValue, value)
        guard result != 0 else { return }
        throw DriverControlFailure("PipeWire did not take \(control.name)=\(value): \(String(cString: strerror(-result)))")
    }
}
