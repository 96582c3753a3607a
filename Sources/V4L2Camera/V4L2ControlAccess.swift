/// Reading and writing controls by ID: a device node, or a recording stand-in in tests.
package protocol V4L2ControlAccess: Sendable {
    func value(of id: UInt32, is64: Bool) throws(V4L2Failure) -> Int64
    @discardableResult
    func setValue(_ value: Int64, of id: UInt32, is64: Bool) throws(V4L2Failure) -> Int64
}

extension V4L2Node: V4L2ControlAccess {}
