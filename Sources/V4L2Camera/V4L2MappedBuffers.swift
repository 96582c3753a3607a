import CV4L2
import Glibc

/// A device's capture buffers mapped into the process (REQBUFS + QUERYBUF + mmap).
///
/// Unmapped when the last reference goes: wrapped pixel buffers handed to consumers hold
/// this object, so a frame kept after the stream stopped stays readable.
package final class V4L2MappedBuffers: @unchecked Sendable {
    package let addresses: [UnsafeMutableRawPointer]
    package let lengths: [Int]

    package var count: Int { addresses.count }

    /// Asks the driver for `count` buffers and maps each. Throws what REQBUFS, QUERYBUF or
    /// mmap failed with (vivid's "Queue Setup Error" makes REQBUFS fail).
    package init(node: V4L2Node, count: Int) throws(V4L2Failure) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try node.control(OC_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        guard request.count >= 2 else { throw V4L2Failure("VIDIOC_REQBUFS (got \(request.count) buffers)", ENOMEM) }
        var addresses: [UnsafeMutableRawPointer] = []
        var lengths: [Int] = []
        for index in 0..<Int(request.count) {
            var buffer = v4l2_buffer()
            buffer.index = UInt32(index)
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            do {
                try node.control(OC_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer)
            } catch {
                V4L2MappedBuffers.unmap(addresses, lengths)
                throw error
            }
            let mapped = mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, node.fd, off_t(buffer.m.offset))
            guard let mapped, mapped != MAP_FAILED else {
                let code = errno
                V4L2MappedBuffers.unmap(addresses, lengths)
                throw V4L2Failure("mmap", code)
            }
            addresses.append(mapped)
            lengths.append(Int(buffer.length))
        }
        self.addresses = addresses
        self.lengths = lengths
    }

    deinit {
        V4L2MappedBuffers.unmap(addresses, lengths)
    }

    private static func unmap(_ addresses: [UnsafeMutableRawPointer], _ lengths: [Int]) {
        for (address, length) in zip(addresses, lengths) { munmap(address, length) }
    }
}
