import CV4L2
import Glibc

/// A failed V4L2 call: which request and the errno it returned.
package struct V4L2Failure: Error, Sendable, CustomStringConvertible {
    package let call: String
    package let code: Int32

    package init(_ call: String, _ code: Int32) {
        self.call = call
        self.code = code
    }

    package var description: String { "\(call): \(String(cString: strerror(code))) (errno \(code))" }

    /// The device is gone (unplugged, or vivid's Disconnect control).
    package var isDisconnect: Bool { code == ENODEV || code == ENXIO }
}

/// An open V4L2 device node. Closes the file descriptor when released.
package final class V4L2Node: @unchecked Sendable {
    package let path: String
    package let fd: Int32

    /// Opens `path` for reading and writing, non-blocking (frames are waited for with poll).
    package init(path: String) throws(V4L2Failure) {
        let fd = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw V4L2Failure("open \(path)", errno) }
        self.path = path
        self.fd = fd
    }

    deinit {
        Glibc.close(fd)
    }

    /// Runs one ioctl on a value of the request's structure.
    package func control<T>(_ request: UInt, _ name: String, _ value: inout T) throws(V4L2Failure) {
        let result = withUnsafeMutablePointer(to: &value) { oc_v4l2_ioctl(fd, request, $0) }
        guard result == 0 else { throw V4L2Failure(name, -result) }
    }

    /// Reads a control's current value.
    package func value(of id: UInt32, is64: Bool = false) throws(V4L2Failure) -> Int64 {
        var value: Int64 = 0
        let result = oc_v4l2_control(fd, id, 0, is64 ? 1 : 0, &value)
        guard result == 0 else { throw V4L2Failure("VIDIOC_G_EXT_CTRLS 0x\(String(id, radix: 16))", -result) }
        return value
    }

    /// Writes a control and returns the value the driver kept.
    @discardableResult
    package func setValue(_ value: Int64, of id: UInt32, is64: Bool = false) throws(V4L2Failure) -> Int64 {
        var kept = value
        let result = oc_v4l2_control(fd, id, 1, is64 ? 1 : 0, &kept)
        guard result == 0 else { throw V4L2Failure("VIDIOC_S_EXT_CTRLS 0x\(String(id, radix: 16))", -result) }
        return kept
    }
}

/// A fixed-size C character array (`__u8 card[32]`) as a Swift string.
package func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { bytes in
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
