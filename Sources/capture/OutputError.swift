import Foundation

/// A failed write to a command's output, with the `errno` behind it.
struct OutputError: Error, CustomStringConvertible {
    /// The output as the user named it (`standard output` for `-o -`).
    let name: String
    let number: Int32

    /// ENOSPC, or EDQUOT for a full quota.
    var isDiskFull: Bool { number == ENOSPC || number == EDQUOT }

    var description: String {
        switch number {
        case ENOSPC, EDQUOT: "\(name): disk full"
        case EPIPE: "\(name): the reader closed the pipe"
        default: "\(name): \(String(cString: strerror(number)))"
        }
    }
}
