import Foundation

/// The secret a client must present on every request (`Authorization: Bearer T`, or
/// `?token=T` for what a browser loads by URL, such as the stream in an `<img>`).
struct AccessToken: Sendable {
    private let bytes: [UInt8]

    init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        bytes = Array(text.utf8)
    }

    /// Whether `request` carries the token. The comparison takes the same time whatever the
    /// presented value is, so timing reveals nothing about how much of it was right.
    func admits(_ request: WebRequest) -> Bool {
        var presented = request.query["token"]
        if let header = request.headers["authorization"], header.hasPrefix("Bearer ") {
            presented = String(header.dropFirst("Bearer ".count))
        }
        guard let presented else { return false }
        return Self.constantTimeEqual(Array(presented.utf8), bytes)
    }

    /// Equal without an early exit: every byte of the expected value is compared, and a
    /// length difference counts as a difference.
    static func constantTimeEqual(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt(bitPattern: presented.count ^ expected.count)
        for index in expected.indices {
            let byte = index < presented.count ? presented[index] : ~expected[index]
            difference |= UInt(byte ^ expected[index])
        }
        return difference == 0
    }
}
