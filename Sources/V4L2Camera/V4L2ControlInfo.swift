import CV4L2

/// One control a device has, as VIDIOC_QUERY_EXT_CTRL describes it.
package struct V4L2ControlInfo: Sendable, Equatable {
    package var id: UInt32
    package var name: String
    package var type: UInt32
    package var minimum: Int64
    package var maximum: Int64
    package var step: UInt64
    package var defaultValue: Int64
    package var flags: UInt32
    /// Menu entries (index, name) for menu controls; menus can have holes.
    package var menu: [(index: Int64, name: String)] = []

    package static func == (lhs: V4L2ControlInfo, rhs: V4L2ControlInfo) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.type == rhs.type && lhs.minimum == rhs.minimum
            && lhs.maximum == rhs.maximum && lhs.step == rhs.step && lhs.defaultValue == rhs.defaultValue
            && lhs.flags == rhs.flags && lhs.menu.map(\.index) == rhs.menu.map(\.index)
    }

    package var is64Bit: Bool { type == V4L2_CTRL_TYPE_INTEGER64.rawValue }
    package var isReadOnly: Bool { flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0 }
    package var isButton: Bool { type == V4L2_CTRL_TYPE_BUTTON.rawValue }
    /// Whether the value is one number the API can write (buttons included: writing
    /// presses them), not a string, array or compound control.
    package var isScalar: Bool {
        let scalar: [v4l2_ctrl_type] = [
            V4L2_CTRL_TYPE_INTEGER, V4L2_CTRL_TYPE_BOOLEAN, V4L2_CTRL_TYPE_MENU, V4L2_CTRL_TYPE_INTEGER_MENU,
            V4L2_CTRL_TYPE_INTEGER64, V4L2_CTRL_TYPE_BITMASK, V4L2_CTRL_TYPE_BUTTON,
        ]
        return scalar.contains { $0.rawValue == type }
    }

    /// Every scalar control of a node, in the driver's order, with menus read.
    package static func all(of node: V4L2Node) -> [V4L2ControlInfo] {
        var controls: [V4L2ControlInfo] = []
        var next = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        for _ in 0..<1024 {
            var query = v4l2_query_ext_ctrl()
            query.id = next
            do { try node.control(OC_VIDIOC_QUERY_EXT_CTRL, "VIDIOC_QUERY_EXT_CTRL", &query) } catch { break }
            next = query.id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
            var info = V4L2ControlInfo(
                id: query.id, name: cString(query.name), type: query.type, minimum: query.minimum,
                maximum: query.maximum, step: query.step, defaultValue: query.default_value, flags: query.flags)
            guard info.isScalar, query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0, query.nr_of_dims == 0 else { continue }
            if info.type == V4L2_CTRL_TYPE_MENU.rawValue || info.type == V4L2_CTRL_TYPE_INTEGER_MENU.rawValue {
                info.menu = menu(of: node, info)
            }
            controls.append(info)
        }
        return controls
    }

    private static func menu(of node: V4L2Node, _ info: V4L2ControlInfo) -> [(index: Int64, name: String)] {
        guard info.minimum <= info.maximum, info.maximum - info.minimum < 256 else { return [] }
        var entries: [(index: Int64, name: String)] = []
        for index in info.minimum...info.maximum {
            var item = v4l2_querymenu()
            item.id = info.id
            item.index = UInt32(index)
            guard (try? node.control(OC_VIDIOC_QUERYMENU, "VIDIOC_QUERYMENU", &item)) != nil else { continue }
            let name = info.type == V4L2_CTRL_TYPE_MENU.rawValue
                ? withUnsafeBytes(of: item.name) { bytes in
                    String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                : String(item.value)
            entries.append((index, name))
        }
        return entries
    }
}
